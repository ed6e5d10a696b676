import FlickMotion
import FlickScene
internal import CCairo

extension Renderer {
  /// A frame of `layers` on `canvas` made from `previous` (the pixels of the worker's last frame)
  /// with only `boxes` drawn again: the background and every layer, clipped to each whole-pixel
  /// box in turn. Inside a box each pixel gets the operations of a whole frame (a clip on pixel
  /// boundaries covers a pixel fully or not at all, and no shape crosses a box's edge), outside
  /// it keeps its value (``DamageFinder``), so the bytes are those of a whole frame.
  static func redraw(
    _ boxes: [PixelBox], of layers: [Layer], from previous: [UInt8], canvas: StaticPrefix.Canvas,
    painter: LayerPainter, pool: FramePool?
  ) throws(RasterError) -> Frame {
    try FrameCanvas.draw(
      width: canvas.width, height: canvas.height, fill: canvas.background, pool: pool, initial: previous
    ) { cr, _ throws(RasterError) in
      try redraw(boxes, of: layers, canvas: canvas, painter: painter, in: cr)
    }
  }

  /// The frame ``redraw(_:of:from:canvas:painter:pool:)`` makes, drawn over `previous` itself
  /// (the last frame's pixels, unshared or copied first) instead of into a copy of it.
  static func redraw(
    _ boxes: [PixelBox], of layers: [Layer], over previous: consuming [UInt8], canvas: StaticPrefix.Canvas,
    painter: LayerPainter
  ) throws(RasterError) -> Frame {
    try FrameCanvas.draw(
      width: canvas.width, height: canvas.height, fill: canvas.background, buffer: consume previous, keepsContents: true
    ) { cr, _ throws(RasterError) in
      try redraw(boxes, of: layers, canvas: canvas, painter: painter, in: cr)
    }
  }

  /// Draws `layers` inside each of `boxes` on `cr`, as a whole frame would draw them there.
  private static func redraw(
    _ boxes: [PixelBox], of layers: [Layer], canvas: StaticPrefix.Canvas, painter: LayerPainter, in cr: OpaquePointer
  ) throws(RasterError) {
    guard !boxes.isEmpty else { return }
    painter.cache?.beginFrame()
    painter.arena.beginFrame()
    defer { painter.arena.endFrame() }
    // Nothing to clear in a box whose first layer writes every pixel of the frame opaquely.
    let overwritten = layers.first.map {
      LayerPainter.paintsEveryPixel($0, width: canvas.width, height: canvas.height, scale: canvas.scale)
    }
    // One box at a time: a clip of several rectangles would add the other rectangles' edges
    // to every shape Cairo clips (see DamageFinder.settle).
    for box in boxes {
      cairo_save(cr)
      cairo_rectangle(cr, Double(box.x0), Double(box.y0), Double(box.x1 - box.x0), Double(box.y1 - box.y0))
      cairo_clip(cr)
      // The background as a whole frame starts: the fill, or cleared pixels.
      if overwritten != true {
        cairo_save(cr)
        if canvas.background.alpha > 0 {
          CairoDraw.setSource(cr, canvas.background)
          cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
        } else {
          cairo_set_operator(cr, CAIRO_OPERATOR_CLEAR)
        }
        cairo_paint(cr)
        cairo_restore(cr)
      }
      cairo_scale(cr, canvas.scale, canvas.scale)
      for layer in layers { try painter.draw(layer, in: cr) }
      cairo_restore(cr)
    }
    painter.cache?.endFrame()
  }
}
