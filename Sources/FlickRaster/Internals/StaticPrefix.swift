import FlickMotion
import FlickScene

/// The pixels of a frame after its background and first top-level layers (in painter's
/// order), kept by one worker so that the next frame whose background and first layers are
/// the same starts from a copy of them instead of drawing them again. The point can lie inside
/// a top-level layer drawn straight into the frame (a root container, a page): after its own
/// shadow, background and content and its first sublayers, when those are the same.
///
/// This is exact, not an approximation of compositing a cached layer: the frame buffer after
/// the background fill and layers `0..<count` is a function of the canvas (size, scale,
/// background, font files) and of those layers alone, because every top-level layer is drawn
/// from the root state (the scale matrix, no clip) and leaves it as it found it. Inside an
/// opened layer, the state is that plus the layer's transform and clip, which a frame starting
/// there sets again with the same calls. Starting from the copy and drawing what follows runs
/// the very same operations on the very same pixels as drawing everything. Equality is decided from the layer values (as
/// ``Renderer/drawsIdentically(_:_:)`` does for whole trees), never from pixels.
///
/// Memory: at most two frame-sized buffers per worker. Only prefixes that cost more to draw than
/// to copy are kept (``cost(_:)``).
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
    var background: Color
    var fontFiles: [String]
  }

  /// A point in a frame's drawing: after the background and top-level layers `0..<layers`,
  /// and, when `sublayers` > 0, inside layer `layers` after its shadow, own background and
  /// content and its first `sublayers` sublayers (painter's order). Ordered as drawn.
  struct Position: Comparable {
    var layers: Int
    var sublayers = 0

    static let start = Position(layers: 0)
    static func < (a: Position, b: Position) -> Bool {
      (a.layers, a.sublayers) < (b.layers, b.sublayers)
    }
  }

  /// How the frame about to be drawn uses the prefix.
  struct Plan {
    /// Where the kept pixels are, to start from (`.start`: draw from the background).
    var start: Position
    /// Where to keep the pixels (nil: keep what is kept).
    var snapshot: Position?
  }

  typealias Statistics = StaticPrefixStatistics

  private var canvas: Canvas?
  /// The top-level layers (painter's order) of the frame drawn last.
  private var previous: [Layer] = []
  /// How far the last frame agreed with the one before it.
  private var lastShared = Position.start
  /// Where `pixels` are in `previous`'s drawing (`.start`: nothing kept).
  private(set) var count = Position.start
  private(set) var pixels: [UInt8] = []
  /// The pixels kept before `pixels`, written into at the next keep. A frame that starts from
  /// `pixels` still refers to them while it draws, and may keep a longer prefix meanwhile:
  /// written into, `pixels` would then be copied into fresh memory first.
  private var spare: [UInt8] = []
  private(set) var statistics = Statistics()

  /// Whether `layer` (top-level) is drawn straight into the frame, not as a group or a 3D plane,
  /// so that a frame can start inside it: its state there is its transform and its clip alone.
  static func opens(_ layer: Layer) -> Bool {
    guard !layer.isHidden, layer.opacity >= 1, layer.mask == nil, layer.colorMultiplier == .white,
      layer.backdrop == nil,
      layer.transform.isFlat
    else { return false }
    let m = layer.transformToSuperlayer
    let det = m.m11 * m.m22 - m.m12 * m.m21
    // Finite with room for the canvas scale (up to 10⁴ a side), so the painter draws it for sure.
    return m.isAffine && abs(det) > 1e-12 && (det * 1e8).isFinite && m.m13.isFinite && m.m23.isFinite
  }

  /// How far frames drawing `a` and `b` (top-level layers, painter's order) draw the same.
  /// `shadowIsBounds` tells whether a layer's shadow is cast by its rounded bounds (otherwise
  /// it is cast by the layer with its sublayers, which then must be the same too).
  static func shared(_ a: [Layer], _ b: [Layer], shadowIsBounds: (Layer) -> Bool) -> Position {
    var shared = 0
    let limit = min(a.count, b.count)
    while shared < limit, a[shared] == b[shared] { shared += 1 }
    guard shared < limit, opens(a[shared]), opens(b[shared]) else { return Position(layers: shared) }
    var x = a[shared]
    var y = b[shared]
    let shadowed = x.shadowOpacity > 0 && x.shadowColor.alpha > 0 && x.shadowPath == nil
    if shadowed, !shadowIsBounds(x) || !shadowIsBounds(y) { return Position(layers: shared) }
    let xs = x.sublayersInDrawingOrder
    let ys = y.sublayersInDrawingOrder
    x.sublayers = []
    y.sublayers = []
    // The layer's own properties differ: its shadow, background or content is not the same.
    guard x == y else { return Position(layers: shared) }
    var inner = 0
    while inner < min(xs.count, ys.count), xs[inner] == ys[inner] { inner += 1 }
    return Position(layers: shared, sublayers: inner)
  }

  /// What drawing `layer` costs, in rough units of one solid fill or one line of text:
  /// ``costly`` for a shadow, picture, gradient, Lottie frame, backdrop, group or 3D plane
  /// anywhere in it. A prefix is kept only from ``costly`` units on: copying a frame costs about
  /// as much as drawing a few plain layers (measured: a title and a rail under a moving card,
  /// copied in every shutter sample, made motion-blur slower; a dozen text and fill layers, as
  /// in property-animator, are well worth the copy).
  static func cost(_ layer: Layer) -> Int {
    guard !layer.isHidden, layer.opacity > 0 else { return 0 }
    if isCostlyOwnContent(layer) || layer.opacity < 1 || layer.mask != nil || layer.colorMultiplier != .white
      || !layer.transform.isFlat
    {
      return costly
    }
    var total = 1
    for sublayer in layer.sublayers where total < costly { total += cost(sublayer) }
    return min(total, costly)
  }

  /// The cost from which a prefix is worth a copy of the frame.
  static let costly = 4

  /// Whether what a layer draws before its sublayers (shadow, backdrop, picture, content) is costly.
  static func isCostlyOwnContent(_ layer: Layer) -> Bool {
    if layer.shadowOpacity > 0 && layer.shadowColor.alpha > 0 { return true }
    if layer.contents != nil || layer.backdrop != nil { return true }
    switch layer.content {
    case .gradient, .lottie: return true
    case .none, .shape, .text: return false
    }
  }

  /// Whether the pixels at `position` in a frame of `layers` are worth keeping.
  static func isWorthKeeping(_ position: Position, in layers: [Layer]) -> Bool {
    var total = 0
    for layer in layers.prefix(position.layers) {
      total += cost(layer)
      if total >= costly { return true }
    }
    guard position.sublayers > 0, position.layers < layers.count else { return false }
    let opened = layers[position.layers]
    if isCostlyOwnContent(opened) { return true }
    total += 1
    for layer in opened.sublayersInDrawingOrder.prefix(position.sublayers) {
      total += cost(layer)
      if total >= costly { return true }
    }
    return false
  }

  /// Decides how to draw a frame of `layers` (painter's order) on `canvas`.
  func plan(_ canvas: Canvas, _ layers: [Layer], shadowIsBounds: (Layer) -> Bool) -> Plan {
    if canvas != self.canvas {
      self.canvas = canvas
      previous = []
      lastShared = .start
      count = .start
    }
    let shared = Self.shared(previous, layers, shadowIsBounds: shadowIsBounds)
    // Everything before `count` is the same as in the previous frame, so as when it was kept.
    let start = count > .start && count <= shared ? count : .start
    if start == .start { count = .start }
    let target = min(shared, lastShared)
    previous = layers
    lastShared = shared
    if start > .start {
      statistics.framesReused += 1
      statistics.layersReused += start.layers
      if start.sublayers > 0 { statistics.framesStartedInside += 1 }
    }
    return Plan(start: start, snapshot: target > start && Self.isWorthKeeping(target, in: layers) ? target : nil)
  }

  /// Keeps `buffer` as the pixels at `position`.
  func keep(_ buffer: UnsafeBufferPointer<UInt8>, at position: Position) {
    if spare.count == buffer.count {
      spare.withUnsafeMutableBufferPointer { _ = $0.update(fromContentsOf: buffer) }
    } else {
      spare = [UInt8](buffer)
    }
    swap(&pixels, &spare)
    count = position
    statistics.snapshots += 1
  }

  /// Forgets everything (after a failed frame: what it drew is unknown).
  func reset() {
    canvas = nil
    previous = []
    lastShared = .start
    count = .start
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
  /// Of the reused frames, those that started inside a top-level layer (after some of its
  /// sublayers).
  package var framesStartedInside = 0

  package init() {}
}
