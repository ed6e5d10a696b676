import FlickMotion

/// Core Animation's `CAReplicatorLayer` properties, on any layer: the layer's sublayers are drawn
/// ``instanceCount`` times, each copy transformed, delayed and tinted relative to the previous one.
///
/// Instance 0 is the sublayers as they are, multiplied by ``instanceColor``. Instance `k` is
/// instance `k − 1` transformed by ``instanceTransform`` (about the centre of the replicating
/// layer's bounds, as in Core Animation), its animations sampled ``instanceDelay`` seconds
/// earlier (`t − k·instanceDelay`), and its colour multiplier is
/// `instanceColor + k × (instanceRedOffset, instanceGreenOffset, instanceBlueOffset,
/// instanceAlphaOffset)`, each component clamped to `0…1`. Later instances draw above earlier
/// ones. ``instanceJitter`` varies each instance by seeded amounts (``InstanceJitter``). The
/// default (one instance, white, no offsets, no jitter) draws the sublayers unchanged.
///
///     // A mirrored reflection fading out below a cover:
///     var r = LayerReplicator(instanceCount: 2)
///     r.instanceTransform = LayerTransform(translation: Point(x: 0, y: 300), scale: Point(x: 1, y: -1))
///     r.instanceAlphaOffset = -0.75
public struct LayerReplicator: Sendable, Hashable {
  /// The most instances one layer draws (nested replicators multiply).
  public static let maximumInstanceCount = 100

  /// Number of copies of the sublayers, `0…100`; 0 draws none of them, 1 (the default) the sublayers once.
  public var instanceCount: Int
  /// Applied to instance `k − 1` to place instance `k`, about the centre of the layer's bounds.
  public var instanceTransform: LayerTransform
  /// Time offset of each instance, in seconds: instance `k` shows its animations as they were
  /// `k × instanceDelay` seconds earlier (negative values run ahead).
  public var instanceDelay: Double
  /// Multiplies every colour instance 0 draws (component by component, alpha included).
  public var instanceColor: Color
  /// Added to the red component of the colour multiplier for each instance, `-1…1`.
  public var instanceRedOffset: Double
  /// Added to the green component of the colour multiplier for each instance, `-1…1`.
  public var instanceGreenOffset: Double
  /// Added to the blue component of the colour multiplier for each instance, `-1…1`.
  public var instanceBlueOffset: Double
  /// Added to the alpha of the colour multiplier for each instance, `-1…1`.
  public var instanceAlphaOffset: Double
  /// Seeded variation of each instance's position, scale, rotation, opacity and delay (nil:
  /// every instance exactly as the chain places it).
  public var instanceJitter: InstanceJitter?

  public init(
    instanceCount: Int = 1, instanceTransform: LayerTransform = .identity, instanceDelay: Double = 0,
    instanceColor: Color = .white, instanceRedOffset: Double = 0, instanceGreenOffset: Double = 0,
    instanceBlueOffset: Double = 0, instanceAlphaOffset: Double = 0
  ) {
    self.instanceCount = instanceCount
    self.instanceTransform = instanceTransform
    self.instanceDelay = instanceDelay
    self.instanceColor = instanceColor
    self.instanceRedOffset = instanceRedOffset
    self.instanceGreenOffset = instanceGreenOffset
    self.instanceBlueOffset = instanceBlueOffset
    self.instanceAlphaOffset = instanceAlphaOffset
  }

  /// One instance of unchanged sublayers: nothing to replicate.
  public static let none = LayerReplicator()

  /// Whether the sublayers draw exactly as they would without a replicator.
  public var isNone: Bool { self == .none }

  /// ``instanceCount`` clamped to `0…maximumInstanceCount`.
  public var clampedInstanceCount: Int { min(max(instanceCount, 0), Self.maximumInstanceCount) }

  /// The colour multiplier of instance `k` (`k ≥ 0`).
  public func color(ofInstance k: Int) -> Color {
    func c(_ v: Double) -> Double { v.isNaN ? 0 : min(max(v, 0), 1) }
    let f = Double(k)
    return Color(
      red: c(instanceColor.red + f * instanceRedOffset), green: c(instanceColor.green + f * instanceGreenOffset),
      blue: c(instanceColor.blue + f * instanceBlueOffset), alpha: c(instanceColor.alpha + f * instanceAlphaOffset))
  }
}
