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
  /// A nil picture: the key was drawn in this or the last frame but nothing was kept.
  private var gradients: [GradientKey: Entry<CairoImage?>] = [:]
  private var shadows: [ShadowKey: Entry<ShadowMask>] = [:]
  private var layouts: [TextKey: Entry<TextLayout>] = [:]
  private var lotties: [LottieKey: Entry<CairoImage>] = [:]
  private var backdrops: [BackdropKey: Entry<CairoImage>] = [:]
  private(set) var statistics = Statistics()

  func beginFrame() { frame += 1 }

  /// Drops everything the frame just drawn did not use.
  func endFrame() {
    gradients = gradients.filter { $0.value.frame == frame }
    shadows = shadows.filter { $0.value.frame == frame }
    layouts = layouts.filter { $0.value.frame == frame }
    lotties = lotties.filter { $0.value.frame == frame }
    backdrops = backdrops.filter { $0.value.frame == frame }
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
}

/// Identifies one rendered Lottie frame.
struct LottieKey: Hashable {
  var path: String
  var frame: Int
  /// The size rlottie drew it at, in pixels.
  var width: Int
  var height: Int
}
