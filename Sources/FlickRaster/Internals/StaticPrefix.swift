import FlickMotion
import FlickScene

/// The pixels of a frame after its background and first top-level layers (in painter's
/// order), kept by one worker so that the next frame whose background and first layers are
/// the same starts from a copy of them instead of drawing them again.
///
/// This is exact, not an approximation of compositing a cached layer: the frame buffer after
/// the background fill and layers `0..<count` is a function of the canvas (size, scale,
/// background, font files) and of those layers alone, because every top-level layer is drawn
/// from the root state (the scale matrix, no clip) and leaves it as it found it. Starting from
/// the copy and drawing layers `count...` runs the very same operations on the very same pixels
/// as drawing everything. Equality is decided from the layer values (as
/// ``Renderer/drawsIdentically(_:_:)`` does for whole trees), never from pixels.
///
/// Memory: at most one frame-sized buffer per worker.
///
/// The prefix grows and shrinks with the scene: every frame is compared with the one this
/// worker drew before it. The kept pixels are taken (while drawing) after the first layers the
/// last three frames share, when that is more than what is kept: a layer has to be at rest
/// for two frames before it joins, so that one repeated frame (a hold of the top layer, a
/// shutter sample) does not push the prefix past a layer that moves again in the next frame.
final class StaticPrefix {
  /// What besides the layers determines the pixels.
  struct Canvas: Equatable {
    var width: Int
    var height: Int
    var scale: Double
    var background: Color?
    var fontFiles: [String]
  }

  /// How the frame about to be drawn uses the prefix.
  struct Plan {
    /// How many first layers the kept pixels hold, to start from (0: draw from the background).
    var start: Int
    /// After how many layers to keep the pixels (nil: keep what is kept).
    var snapshot: Int?
  }

  typealias Statistics = StaticPrefixStatistics

  private var canvas: Canvas?
  /// The top-level layers (painter's order) of the frame drawn last.
  private var previous: [Layer] = []
  /// How many first layers the last frame shared with the one before it.
  private var lastShared = 0
  /// How many of `previous`'s first layers `pixels` holds (0: nothing kept).
  private(set) var count = 0
  private(set) var pixels: [UInt8] = []
  private(set) var statistics = Statistics()

  /// Decides how to draw a frame of `layers` (painter's order) on `canvas`.
  func plan(_ canvas: Canvas, _ layers: [Layer]) -> Plan {
    if canvas != self.canvas {
      self.canvas = canvas
      previous = []
      lastShared = 0
      count = 0
    }
    var shared = 0
    let limit = min(previous.count, layers.count)
    while shared < limit, previous[shared] == layers[shared] { shared += 1 }
    // Layers 0..<count are the same as the previous frame's, so as when they were kept.
    let start = count > 0 && shared >= count ? count : 0
    if start == 0 { count = 0 }
    let target = min(shared, lastShared)
    previous = layers
    lastShared = shared
    if start > 0 {
      statistics.framesReused += 1
      statistics.layersReused += start
    }
    return Plan(start: start, snapshot: target > start ? target : nil)
  }

  /// Keeps `buffer` as the pixels after `count` layers.
  func keep(_ buffer: UnsafeBufferPointer<UInt8>, count: Int) {
    if pixels.count == buffer.count {
      pixels.withUnsafeMutableBufferPointer { _ = $0.update(fromContentsOf: buffer) }
    } else {
      pixels = [UInt8](buffer)
    }
    self.count = count
    statistics.snapshots += 1
  }

  /// Forgets everything (after a failed frame: what it drew is unknown).
  func reset() {
    canvas = nil
    previous = []
    lastShared = 0
    count = 0
  }
}

/// How often a ``FrameRenderer``'s frames started from kept pixels (for tests and benchmarks).
package struct StaticPrefixStatistics: Sendable, Equatable {
  /// Frames (motion-blur samples count one by one) that started from kept pixels.
  package var framesReused = 0
  /// Top-level layers not drawn because they were in the kept pixels.
  package var layersReused = 0
  /// Times the pixels were kept (a copy of the frame buffer).
  package var snapshots = 0

  package init() {}
}
