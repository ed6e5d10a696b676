import FlickMotion

/// Seeded per-instance variation of a replicator (``LayerReplicator/instanceJitter``): each
/// instance gets its own offsets, the same for a seed on every machine and at every frame, for
/// particles, confetti and bursts that should not look stamped out.
///
/// Each field is a maximum amplitude `a ≥ 0`; instance `k` draws one uniform number `v` in
/// `[−1, 1)` per field and uses:
/// - ``position``: a translation of `(a.x·v, a.y·v′)` points;
/// - ``scale``: a scale factor `1 + a·v`, in `[1 − a, 1 + a)` (`a` in `0…0.99`);
/// - ``rotation``: a rotation of `a·v` radians;
/// - ``opacity``: the instance's opacity multiplied by `1 − a·(v + 1)/2`, in `(1 − a, 1]` (`a` in
///   `0…1`; jitter only dims, so the instance colour stays the upper bound);
/// - ``delay``: `a·v` seconds added to the instance's delay (`k·instanceDelay`): its animations
///   are sampled at `t − k·instanceDelay − a·v`.
///
/// The translation, rotation and scale apply about the centre of the replicator's bounds, inside
/// the instance's chain of `instanceTransform`s (in the instance's own frame).
///
/// The numbers come from SplitMix64 (Steele, Lea and Flood, 2014) seeded with ``seed``: instance
/// `k` takes outputs `6k … 6k + 5` of the stream, in the order x, y, scale, rotation, opacity,
/// delay, and output `n` is `mix(seed + (n + 1)·0x9E3779B97F4A7C15)` (64-bit wrapping integer
/// arithmetic), made a number in `[−1, 1)` as `(x >> 11)·2⁻⁵² − 1` — integer operations and one
/// exact conversion, never the system
/// generator, so the pixels do not depend on the platform.
public struct InstanceJitter: Sendable, Hashable {
  /// The generator's seed.
  public var seed: UInt64
  /// Maximum translation per axis, in points (each ≥ 0).
  public var position: Point
  /// Maximum change of the scale factor, `0…0.99`.
  public var scale: Double
  /// Maximum rotation, in radians (≥ 0).
  public var rotation: Double
  /// Maximum dimming, `0…1`.
  public var opacity: Double
  /// Maximum change of the instance's delay, in seconds (≥ 0).
  public var delay: Double

  public init(
    seed: UInt64, position: Point = Point(x: 0, y: 0), scale: Double = 0, rotation: Double = 0, opacity: Double = 0,
    delay: Double = 0
  ) {
    self.seed = seed
    self.position = position
    self.scale = scale
    self.rotation = rotation
    self.opacity = opacity
    self.delay = delay
  }

  /// What one instance gets.
  public struct Offsets: Sendable, Hashable {
    /// Translation in points.
    public var translation: Point
    /// Scale factor (1 = unchanged).
    public var scale: Double
    /// Rotation in radians.
    public var rotation: Double
    /// Factor on the instance's opacity, `0…1`.
    public var opacity: Double
    /// Seconds added to the instance's delay.
    public var delay: Double

    /// The translation, rotation and scale as a layer transform.
    public var transform: LayerTransform {
      LayerTransform(translation: translation, scale: Point(x: scale, y: scale), rotation: rotation)
    }
  }

  /// Output `n` of the SplitMix64 stream seeded with `seed`.
  static func splitMix64(seed: UInt64, index n: UInt64) -> UInt64 {
    var z = seed &+ (n &+ 1) &* 0x9E37_79B9_7F4A_7C15
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// Output `n` as a uniform number in `[−1, 1)`.
  func unit(_ n: UInt64) -> Double {
    Double(Self.splitMix64(seed: seed, index: n) >> 11) * 0x1p-52 - 1
  }

  /// The offsets of instance `k` (`k ≥ 0`).
  public func offsets(ofInstance k: Int) -> Offsets {
    let base = UInt64(max(0, k)) &* 6
    return Offsets(
      translation: Point(x: position.x * unit(base), y: position.y * unit(base + 1)),
      scale: 1 + scale * unit(base + 2),
      rotation: rotation * unit(base + 3),
      opacity: 1 - opacity * (unit(base + 4) + 1) / 2,
      delay: delay * unit(base + 5))
  }
}
