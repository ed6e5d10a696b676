import FlickMotion
import FlickScene

/// What one worker keeps between frames: intermediates whose inputs did not change. Every entry
/// is keyed by everything that determines its pixels, so a hit draws exactly what a miss would.
/// Entries not used during a frame are dropped at its end, so memory follows the scene.
///
/// Gradients are kept only from their second consecutive frame on: one that changes every
/// frame (animated colours, a card in motion) would otherwise keep a picture nobody reuses,
/// holding its memory for a frame. Its first sighting is drawn without keeping anything.
final class RasterCache {
  struct Statistics: Equatable {
    var hits = 0
    var misses = 0
    /// Of the hits, groups composited from kept pixels.
    var groupHits = 0
  }

  private final class Entry<Value> {
    var value: Value
    var frame: Int
    init(_ value: Value, frame: Int) {
      self.value = value
      self.frame = frame
    }
  }

  private var frame = 0
  /// Whether finished groups are kept (``group(_:)``); only tests and benchmarks clear it.
  var keepsGroups = true
  /// A nil picture: the key was drawn in this or the last frame but nothing was kept.
  private var gradients: [GradientKey: Entry<CairoImage?>] = [:]
  private var shadows: [ShadowKey: Entry<ShadowMask>] = [:]
  private var layouts: [TextKey: Entry<TextLayout>] = [:]
  private var lotties: [LottieKey: Entry<CairoImage>] = [:]
  private var backdrops: [BackdropKey: Entry<CairoImage>] = [:]
  /// A nil value: the key was drawn in this or the last frame but nothing was kept.
  private var groups: [GroupKey: Entry<KeptGroup?>] = [:]
  private(set) var statistics = Statistics()

  func beginFrame() { frame += 1 }

  /// Drops everything the frame just drawn did not use.
  func endFrame() {
    gradients = gradients.filter { $0.value.frame == frame }
    shadows = shadows.filter { $0.value.frame == frame }
    layouts = layouts.filter { $0.value.frame == frame }
    lotties = lotties.filter { $0.value.frame == frame }
    backdrops = backdrops.filter { $0.value.frame == frame }
    groups = groups.filter { $0.value.frame == frame }
  }

  /// The entry for `key` in `table`, or what `make` returns, kept. The table is touched only
  /// before and after `make`, never during it: making a shadow draws layers, which may look up
  /// shadows of their own sublayers in the same table.
  private func lookup<K: Hashable, V>(
    _ table: ReferenceWritableKeyPath<RasterCache, [K: Entry<V>]>, _ key: K, _ make: () throws(RasterError) -> V?
  ) throws(RasterError) -> V? {
    if let entry = self[keyPath: table][key] {
      entry.frame = frame
      statistics.hits += 1
      return entry.value
    }
    statistics.misses += 1
    guard let value = try make() else { return nil }
    self[keyPath: table][key] = Entry(value, frame: frame)
    return value
  }

  /// The kept picture for `key`, or what `make` draws. `make(keep)` is told whether its picture
  /// will be kept: false the first time a key is seen (the gradient may change every frame), true
  /// when the same key was drawn in the frame before without being kept. Returning nil from
  /// `make(false)` means it painted the gradient itself.
  func gradient(_ key: GradientKey, _ make: (_ keep: Bool) throws(RasterError) -> CairoImage?) throws(RasterError)
    -> CairoImage?
  {
    statistics.misses += 1
    guard let entry = gradients[key] else {
      gradients[key] = Entry(nil, frame: frame)
      return try make(false)
    }
    entry.frame = frame
    if let kept = entry.value {
      statistics.misses -= 1
      statistics.hits += 1
      return kept
    }
    entry.value = try make(true)
    return entry.value
  }

  /// The kept mask for `key` when `usable` accepts it (it holds the pixels the clip can see),
  /// or what `make` returns, kept in its place.
  func shadow(
    _ key: ShadowKey, usable: (ShadowMask) -> Bool, _ make: () throws(RasterError) -> ShadowMask?
  ) throws(RasterError) -> ShadowMask? {
    if let entry = shadows[key], usable(entry.value) {
      entry.frame = frame
      statistics.hits += 1
      return entry.value
    }
    statistics.misses += 1
    guard let value = try make() else { return nil }
    shadows[key] = Entry(value, frame: frame)
    return value
  }

  /// The kept pixels of the group `key`, if any, and whether the group about to be drawn is to
  /// be kept (``keepGroup(_:_:)``): like gradients, from the second consecutive frame the key
  /// is drawn in, so that a group that changes in every frame holds no memory past its frame.
  func group(_ key: GroupKey) -> (kept: KeptGroup?, keep: Bool) {
    guard let entry = groups[key] else {
      statistics.misses += 1
      groups[key] = Entry(nil, frame: frame)
      return (nil, false)
    }
    entry.frame = frame
    if let kept = entry.value {
      statistics.hits += 1
      statistics.groupHits += 1
      return (kept, false)
    }
    statistics.misses += 1
    return (nil, true)
  }

  func keepGroup(_ key: GroupKey, _ group: KeptGroup) {
    groups[key]?.value = group
  }

  func lottie(_ key: LottieKey, _ make: () throws(RasterError) -> CairoImage?) throws(RasterError) -> CairoImage? {
    try lookup(\.lotties, key, make)
  }

  func backdrop(_ key: BackdropKey, _ make: () throws(RasterError) -> CairoImage?) throws(RasterError) -> CairoImage? {
    try lookup(\.backdrops, key, make)
  }

  func layout(_ key: TextKey, _ make: () throws(RasterError) -> TextLayout?) throws(RasterError) -> TextLayout? {
    try lookup(\.layouts, key, make)
  }
}

/// Identifies a gradient layer's pixels in device space.
struct GradientKey: Hashable {
  var gradient: GradientContent
  var bounds: Rect
  var cornerRadius: Double
  var maskedCorners: CornerMask
  /// The matrix the picture is drawn with (xx, yx, xy, yy, x0, y0): the user-to-device matrix
  /// moved by the picture's whole-pixel origin, so a layer that moves by whole device pixels
  /// draws the same picture at another place.
  var matrix: [Double]
  /// The picture's size (width, height) in pixels.
  var area: [Int]
}

/// Identifies a blurred shadow mask up to a translation.
struct ShadowKey: Hashable {
  /// The shape casting the shadow.
  enum Source: Hashable {
    case path(ShapePath)
    case layer(Layer)
  }
  var source: Source
  /// The linear part of the user-to-device matrix (xx, yx, xy, yy).
  var linear: [Double]
  var sigma: Double
}

/// Identifies a shaped paragraph (colour excluded: it is applied when drawing).
struct TextKey: Hashable {
  var text: TextContent
  var size: Size

  /// The key of `text` laid out for a layer of `size` points: its colour and transition, which
  /// do not shape it, are left out, so texts that differ only in them share one layout.
  init(_ text: TextContent, size: Size) {
    var shaped = text
    shaped.textColor = .clear
    shaped.transition = nil
    self.text = shaped
    self.size = size
  }
}

/// Identifies one rendered Lottie frame.
struct LottieKey: Hashable {
  var path: String
  var frame: Int
  /// The size rlottie drew it at, in pixels.
  var width: Int
  var height: Int
}

/// Identifies the pixels of a layer drawn as a group (opacity below 1, a mask, a tint): the
/// layer with its whole subtree and mask, the matrix it is drawn with, where the group lies on
/// the frame and the clip it carries, and the size of the surface being drawn.
struct GroupKey: Hashable {
  var layer: Layer
  /// The user-to-device matrix (xx, yx, xy, yy, x0, y0).
  var matrix: [Double]
  var placement: GroupPlacement
  var target: [Int]
}

/// A group's finished pixels (tinted when the layer is), and its mask's.
struct KeptGroup {
  var content: CairoImage
  var mask: CairoImage?
}
