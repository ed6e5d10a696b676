import FlickMotion
import FlickScene

/// The last frame one worker drew (its top-level layers, its canvas and a copy of its pixels), so
/// that the next frame redraws only where it differs (``DamageFinder``) and copies the rest.
///
/// Any frame can follow: the damage is found against the frame actually drawn last, whatever its
/// time (a seek, frames handed to other workers in between), and is the whole frame when the
/// two have nothing in common. A frame that failed, or one averaged from motion-blur samples,
/// leaves nothing behind, and the next frame is drawn whole.
final class FrameHistory {
  /// Above this share of the frame's pixels (in 1/100), a frame is drawn whole (it may then
  /// start from ``StaticPrefix``'s kept pixels): clipping then saves little.
  static let wholeFramePercent = 85

  private var canvas: StaticPrefix.Canvas?
  private var layers: [Layer] = []
  /// The previous frame's pixels (`bytesPerRow × height`), empty when there is none.
  private(set) var pixels: [UInt8] = []
  private(set) var statistics = FrameDamageStatistics()
  /// Whether each frame is drawn over these pixels themselves rather than into a copy of them
  /// (``FrameRenderer/drawsInPlace``, which then takes no pool); the frame then shares them
  /// until the next one is drawn.
  let drawsInPlace: Bool

  init(drawsInPlace: Bool = false) {
    self.drawsInPlace = drawsInPlace
  }

  /// The boxes to redraw for a frame of `layers` on `canvas` (empty: nothing differs), or nil to
  /// draw the whole frame.
  func plan(_ canvas: StaticPrefix.Canvas, _ layers: [Layer], painter: LayerPainter) -> [PixelBox]? {
    guard canvas == self.canvas, !pixels.isEmpty else { return nil }
    var finder = DamageFinder(painter: painter, width: canvas.width, height: canvas.height)
    guard let boxes = finder.damage(from: self.layers, to: layers, scale: canvas.scale) else { return nil }
    let area = boxes.reduce(0) { $0 + $1.area }
    guard area * 100 <= canvas.width * canvas.height * Self.wholeFramePercent else { return nil }
    return boxes
  }

  /// Keeps `frame` as the frame of `layers` on `canvas`; `boxes` are where it was redrawn (nil:
  /// everywhere), the only pixels to copy.
  ///
  /// `sharing`: the frame's pixels are not going back to a ``FramePool``, so the history refers
  /// to them instead of copying them (arrays are copy-on-write, and the history never writes
  /// into pixels it shares). A pooled buffer is copied instead: shared, it would be copied when
  /// the pool hands it out again.
  func keep(
    _ frame: Frame, layers: [Layer], canvas: StaticPrefix.Canvas, redrawn boxes: [PixelBox]?, sharing: Bool = false
  ) {
    let count = frame.bytesPerRow * frame.height
    if sharing {
      // Boxes come from ``plan``, for pixels of this canvas (taken out, when drawn over).
      if let boxes, canvas == self.canvas {
        statistics.partialFrames += 1
        statistics.redrawnPixels += boxes.reduce(0) { $0 + $1.area }
      } else {
        statistics.wholeFrames += 1
        statistics.redrawnPixels += frame.width * frame.height
      }
      pixels = frame.pixels
    } else if let boxes, canvas == self.canvas, pixels.count == count {
      statistics.partialFrames += 1
      statistics.redrawnPixels += boxes.reduce(0) { $0 + $1.area }
      let stride = frame.bytesPerRow
      frame.pixels.withUnsafeBufferPointer { source in
        pixels.withUnsafeMutableBufferPointer { target in
          guard let from = source.baseAddress, let to = target.baseAddress else { return }
          for box in boxes {
            for row in box.y0..<box.y1 {
              let offset = row * stride + box.x0 * 4
              (to + offset).update(from: from + offset, count: (box.x1 - box.x0) * 4)
            }
          }
        }
      }
    } else {
      statistics.wholeFrames += 1
      statistics.redrawnPixels += frame.width * frame.height
      if pixels.count == count {
        pixels.withUnsafeMutableBufferPointer { target in
          frame.pixels.withUnsafeBufferPointer { _ = target.update(fromContentsOf: $0) }
        }
      } else {
        // Its own buffer (not the frame's, shared), so that the frame's can go back to a pool.
        pixels = frame.pixels.withUnsafeBufferPointer { [UInt8]($0) }
      }
    }
    self.canvas = canvas
    self.layers = layers
  }

  /// The last frame's pixels, moved out: the history has none until ``keep(_:layers:canvas:redrawn:sharing:)``
  /// is given the frame drawn over them. Unshared (no frame still refers to them), they are
  /// then drawn into without a copy.
  func takePixels() -> [UInt8] {
    defer { pixels = [] }
    return pixels
  }

  /// Forgets the last frame before a frame of `pixels` drawn whole without it (motion blur).
  func forget(drawing pixels: Int) {
    reset()
    statistics.wholeFrames += 1
    statistics.redrawnPixels += pixels
  }

  /// Forgets the last frame (after a failed frame or a motion-blurred one).
  func reset() {
    canvas = nil
    layers = []
    pixels = []
  }
}

/// How a ``FrameRenderer``'s frames were drawn with damage regions (for tests and benchmarks).
package struct FrameDamageStatistics: Sendable, Equatable {
  /// Frames redrawn only where they differ from the worker's previous frame (none: copied whole).
  package var partialFrames = 0
  /// Frames drawn whole.
  package var wholeFrames = 0
  /// Device pixels drawn, over all frames (a whole frame counts all its pixels).
  package var redrawnPixels = 0

  package init(partialFrames: Int = 0, wholeFrames: Int = 0, redrawnPixels: Int = 0) {
    self.partialFrames = partialFrames
    self.wholeFrames = wholeFrames
    self.redrawnPixels = redrawnPixels
  }
}
