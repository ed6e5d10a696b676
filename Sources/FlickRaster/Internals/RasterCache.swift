import FlickMotion
import FlickScene

/// What one worker keeps between frames: intermediates whose inputs did not change. Every entry
/// is keyed by everything that determines its pixels, so a hit draws exactly what a miss would.
/// Entries not used during a frame are dropped at its end, so memory follows the scene.
final class RasterCache {
  struct Statistics: Equatable {
    var hits = 0
    var misses = 0
  }

  private final class Entry<Value> {
    let value: Value
    var frame: Int
    init(_ value: Value, frame: Int) {
      self.value = value
      self.frame = frame
    }
  }

  private var frame = 0
  private var gradients: [GradientKey: Entry<CairoImage>] = [:]
  private var shadows: [ShadowKey: Entry<ShadowMask>] = [:]
  private var layouts: [TextKey: Entry<TextLayout>] = [:]
  private(set) var statistics = Statistics()

  func beginFrame() { frame += 1 }

  /// Drops everything the frame just drawn did not use.
  func endFrame() {
    gradients = gradients.filter { $0.value.frame == frame }
    shadows = shadows.filter { $0.value.frame == frame }
    layouts = layouts.filter { $0.value.frame == frame }
  }

  private func lookup<K: Hashable, V>(
    _ table: inout [K: Entry<V>], _ key: K, _ make: () throws(RasterError) -> V?
  ) throws(RasterError) -> V? {
    if let entry = table[key] {
      entry.frame = frame
      statistics.hits += 1
      return entry.value
    }
    statistics.misses += 1
    guard let value = try make() else { return nil }
    table[key] = Entry(value, frame: frame)
    return value
  }

  func gradient(_ key: GradientKey, _ make: () throws(RasterError) -> CairoImage?) throws(RasterError) -> CairoImage? {
    try lookup(&gradients, key, make)
  }

  func shadow(_ key: ShadowKey, _ make: () throws(RasterError) -> ShadowMask?) throws(RasterError) -> ShadowMask? {
    try lookup(&shadows, key, make)
  }

  func layout(_ key: TextKey, _ make: () throws(RasterError) -> TextLayout?) throws(RasterError) -> TextLayout? {
    try lookup(&layouts, key, make)
  }
}

/// Identifies a gradient layer's pixels in device space.
struct GradientKey: Hashable {
  var gradient: GradientContent
  var bounds: Rect
  var cornerRadius: Double
  var maskedCorners: CornerMask
  /// The full user-to-device matrix (xx, yx, xy, yy, x0, y0).
  var matrix: [Double]
  /// The device rectangle drawn (x, y, width, height) and the target's size.
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
