import FlickMotion
import FlickScene
internal import CCairo

/// Draws ``RenderTree`` snapshots into ``Frame``s with Cairo and Pango.
///
/// A renderer holds no state between frames, so any number of them can draw on any threads
/// and the same tree always gives byte-identical pixels. A ``FlickVideo/RenderSession`` (and
/// its default ``FlickVideo/RenderPipeline``) reuses work between the frames of each worker
/// (gradients, shaped text, blurred shadows) and draws the very same pixels, faster.
public struct Renderer: Sendable {
  /// Pixels per point (1 = one pixel per point).
  public var scale: Double

  public init(scale: Double = 1) {
    self.scale = scale
  }

  /// Rasterises `tree` into a new frame of `tree.size × scale` pixels.
  ///
  /// The tree's ``FlickScene/RenderTree/fontFiles`` are registered with fontconfig before any
  /// text is laid out.
  ///
  /// - Throws: ``RasterError`` when the tree comes from a scene ``FlickScene/Scene/validate()``
  ///   refuses (``RasterError/invalidScene(_:)``), when the size is not drawable, a picture or font file cannot be
  ///   loaded, a font family is neither installed nor in the tree's font files, or Cairo fails.
  public func render(_ tree: RenderTree) throws(RasterError) -> Frame {
    try DrawingWatch.drawing(tree.time) { () throws(RasterError) -> Frame in
      let text = TextContext(ownFontMap: false)
      return try Self.render(tree, scale: scale, cache: nil, arena: PixelArena(), text: text, prefetch: .beside)
    }
  }

  /// ``render(_:)`` laying text out in `text`, which keeps the layouts for
  /// ``missingGlyphs(in:sharing:)``: the same pixels.
  package func render(_ tree: RenderTree, sharing text: SharedText) throws(RasterError) -> Frame {
    try DrawingWatch.drawing(tree.time) { () throws(RasterError) -> Frame in
      try Self.render(tree, scale: scale, cache: nil, arena: PixelArena(), text: text.context, prefetch: .beside)
    }
  }

  /// Whether `a` and `b` draw the same pixels at any scale, decided from the trees alone: they
  /// are equal in everything the renderer reads (size, background, layers, font files). The
  /// snapshot ``FlickScene/RenderTree/time`` is not drawn (every time-dependent value is
  /// resolved into the layers), so a hold, a pause or a settled spring compares equal.
  /// Drawing code must keep it that way: nothing may read `tree.time`.
  public static func drawsIdentically(_ a: RenderTree, _ b: RenderTree) -> Bool {
    a.size == b.size && a.backgroundColor == b.backgroundColor && a.fontFiles == b.fontFiles
      && a.layers == b.layers
      // A motion-blurred frame is the average of its shutter samples: they must agree too.
      && a.shutterSamples.count == b.shutterSamples.count
      && zip(a.shutterSamples, b.shutterSamples).allSatisfy { drawsIdentically($0, $1) }
  }

  /// The drawing shared by ``Renderer`` and ``FrameRenderer``. With a `prefix`, a frame whose
  /// background and first top-level layers equal those of the frame drawn before starts from the
  /// kept pixels after them (``StaticPrefix``): the same bytes, fewer operations. `prefetch`
  /// draws gradient pictures ahead on a second thread (``GradientPrefetch``; only for a frame
  /// with no cache, no history and no shutter samples): the same bytes, sooner; `report` is told
  /// what it did.
  ///
  /// `samples` lends the buffers a blurred frame's shutter samples are drawn into, and takes them
  /// back once they are averaged, so that a worker draws every frame's samples into the same
  /// memory instead of asking the system for fresh pages.
  static func render(
    _ tree: RenderTree, scale: Double, cache: RasterCache?, arena: PixelArena, text: TextContext,
    pool: FramePool? = nil, samples: FramePool? = nil, prefix: StaticPrefix? = nil, history: FrameHistory? = nil,
    usesCairoGroups: Bool = false, prefetch: GradientPrefetch.Mode = .off,
    report: ((GradientPrefetch.Statistics) -> Void)? = nil
  ) throws(RasterError) -> Frame {
    if let problem = tree.problem { throw .invalidScene(problem.description) }
    if !tree.shutterSamples.isEmpty {
      // An average of samples is no drawing of the tree's own layers: nothing to redraw in part.
      let side = Self.pixelSize(of: tree.size, scale: scale)
      let pixels = side.width * side.height
      history?.forget(drawing: pixels)
      // Motion blur: every sample drawn the same way (sharing the caches), then averaged.
      var frames: [Frame] = []
      for sample in tree.shutterSamples {
        frames.append(
          try render(
            sample, scale: scale, cache: cache, arena: arena, text: text, pool: samples, prefix: prefix,
            usesCairoGroups: usesCairoGroups))
      }
      let average = ShutterAverage.average(frames)
      if let samples { while let frame = frames.popLast() { samples.recycle(frame.pixels) } }
      return average
    }
    try text.prepare(fontFiles: tree.fontFiles)
    let (width, height) = Self.pixelSize(of: tree.size, scale: scale)
    let layers = Layer(id: "", sublayers: tree.layers).sublayersInDrawingOrder
    let canvas = StaticPrefix.Canvas(
      width: width, height: height, scale: scale, background: tree.backgroundColor, fontFiles: tree.fontFiles)
    let painter = LayerPainter(
      cache: cache, arena: arena, text: text, targetWidth: width, targetHeight: height, usesCairoGroups: usesCairoGroups
    )
    if prefetch != .off, cache == nil, history == nil {
      let ahead = GradientPrefetch(jobs: GradientPrefetch.jobs(for: layers, scale: scale, width: width, height: height))
      painter.prefetch = ahead
      ahead.start(wait: prefetch == .first)
    }
    defer {
      if let statistics = painter.prefetch?.finish() { report?(statistics) }
    }
    // Drawn over the last frame's own pixels (``FrameHistory/drawsInPlace``, never with a pool),
    // which the frame and the history then share.
    let inPlace = history?.drawsInPlace == true
    if let history, let boxes = history.plan(canvas, layers, painter: painter) {
      let frame =
        inPlace
        ? try redraw(boxes, of: layers, over: history.takePixels(), canvas: canvas, painter: painter)
        : try redraw(boxes, of: layers, from: history.pixels, canvas: canvas, painter: painter, pool: pool)
      history.keep(frame, layers: layers, canvas: canvas, redrawn: boxes, sharing: pool == nil)
      return frame
    }
    let plan =
      prefix?.plan(canvas, layers, shadowIsBounds: painter.isOpaqueRoundedBounds)
      ?? StaticPrefix.Plan(start: .start, snapshot: nil)
    let initial = plan.start > .start ? prefix?.pixels : nil
    // A first layer that writes every pixel opaquely makes clearing (or filling) the frame moot.
    let overwritten =
      initial == nil
      && layers.first.map { LayerPainter.paintsEveryPixel($0, width: width, height: height, scale: scale) } == true
    let frame = try FrameCanvas.draw(
      width: width, height: height, fill: tree.backgroundColor, pool: pool, initial: initial,
      overwritten: overwritten, buffer: inPlace ? history?.takePixels() : nil
    ) {
      cr, pixels throws(RasterError) in
      cairo_scale(cr, scale, scale)
      cache?.beginFrame()
      arena.beginFrame()
      defer { arena.endFrame() }
      func keep(at position: StaticPrefix.Position) {
        // Only with no path left over (a layer leaves none; checked so that the next frame
        // cannot differ by starting on a fresh context).
        guard let prefix, cairo_has_current_point(cr) == 0, cairo_status(cr) == CAIRO_STATUS_SUCCESS else { return }
        cairo_surface_flush(cairo_get_target(cr))
        prefix.keep(UnsafeBufferPointer(pixels), at: position)
      }
      var index = plan.start.layers
      while index <= layers.count {
        let snapshot = plan.snapshot.flatMap { $0.layers == index ? $0 : nil }
        let inside = index == plan.start.layers ? plan.start.sublayers : 0
        if index == layers.count {
          if snapshot != nil { keep(at: StaticPrefix.Position(layers: index)) }
          break
        }
        if inside > 0 || (snapshot?.sublayers ?? 0) > 0 {
          // Starting or keeping inside this layer (opened: drawn straight into the frame).
          try painter.drawOpened(layers[index], from: inside, keepingAt: snapshot?.sublayers, in: cr) { sublayers in
            keep(at: StaticPrefix.Position(layers: index, sublayers: sublayers))
          }
        } else {
          if snapshot != nil { keep(at: StaticPrefix.Position(layers: index)) }
          try painter.draw(layers[index], in: cr)
        }
        index += 1
      }
      cache?.endFrame()
    }
    history?.keep(frame, layers: layers, canvas: canvas, redrawn: nil, sharing: pool == nil)
    return frame
  }
}
