import FlickMotion

/// One animation bound to one property of one layer, placed on the scene's timeline.
///
/// It is a pure function of time: ``apply(to:at:)`` writes the value the animation has at scene
/// time `t` (seconds) once it has begun, and holds the end value after it finishes (Core
/// Animation's fill mode `forwards`); before `beginTime` it leaves the layer untouched.
public struct LayerAnimation: Sendable {
  /// The animated layer's ``Layer/id``.
  public let layerID: String
  /// The animated property's name (for messages and tracing).
  public let propertyName: String
  /// Scene time at which the animation starts, in seconds.
  public let beginTime: Double
  /// Active length in seconds (after `beginTime`).
  public let duration: Double
  private let sample: @Sendable (inout Layer, Double) -> Void
  /// Whether the animation shows at local time `τ` (its fill mode); when not, the layer keeps
  /// the value it has without it.
  private let applied: @Sendable (Double) -> Bool

  /// An animation of `property` on the layer `layerID` whose value at local time `τ` (seconds
  /// since `beginTime`, ≥ 0) is `value(τ)`; `duration` is how long it runs before it holds.
  public init<Value>(
    layerID: String, property: LayerProperty<Value>, beginTime: Double = 0, duration: Double,
    value: @escaping @Sendable (Double) -> Value
  ) {
    self.init(
      layerID: layerID, property: property, beginTime: beginTime, duration: duration, value: value,
      isApplied: { _ in true })
  }

  /// As ``init(layerID:property:beginTime:duration:value:)``, shown only at the local times
  /// where `isApplied` is true (Core Animation's fill modes: a `removed` fill lets the layer
  /// return to its own value after the end).
  public init<Value>(
    layerID: String, property: LayerProperty<Value>, beginTime: Double = 0, duration: Double,
    value: @escaping @Sendable (Double) -> Value, isApplied: @escaping @Sendable (Double) -> Bool
  ) {
    self.layerID = layerID
    self.propertyName = property.name
    self.beginTime = beginTime
    self.duration = duration
    self.sample = { layer, local in property.write(&layer, value(local)) }
    self.applied = isApplied
  }

  /// A tween of `property` on the layer `layerID`, starting at `beginTime` seconds.
  public init<Value>(
    layerID: String, property: LayerProperty<Value>, tween: BasicAnimation<Value>,
    beginTime: Double = 0
  ) {
    self.init(
      layerID: layerID, property: property, beginTime: beginTime, duration: tween.duration,
      value: { tween.value(at: $0) })
  }

  /// Writes the animated value at scene time `t` into `layer` if the animation has begun and its
  /// fill mode shows it. A `beginTime` summed in decimals a few ulps after `t` (0.1 + 0.2 is
  /// 0.30000000000000004) has begun at `t` (``FlickMotion/MediaTiming``'s boundary tolerance):
  /// the frame at 0.3 s shows the animation at its start.
  public func apply(to layer: inout Layer, at t: Double) {
    guard MediaTiming.hasReached(beginTime, at: t) else { return }
    let local = Self.localTime(at: t, begin: beginTime, duration: duration)
    guard applied(local) else { return }
    sample(&layer, local)
  }

  /// Whether the animation writes its property from its begin on, after its end too (its
  /// fill mode holds the end value), so an earlier animation of the property never shows again.
  /// One that runs forever holds.
  package var holdsAfterItsEnd: Bool {
    let end = beginTime + duration
    guard end.isFinite else { return true }
    return isShown(at: beginTime) && isShown(at: end) && isShown(at: end + 1)
  }

  /// Whether the animation writes its property at scene time `t` (begun, and shown by its fill mode).
  func isShown(at t: Double) -> Bool {
    t >= beginTime && applied(Self.localTime(at: t, begin: beginTime, duration: duration))
  }

  /// The local time at scene time `t` of an animation that begins at `begin` and runs
  /// `duration` seconds. The scene time `begin + duration` is its end (the instant an entry
  /// placed `after` it begins, a `when` search's last instant, the last frame of a `duration:
  /// "auto"` scene), so it maps to exactly `duration`: `t − begin` may round past it or short of
  /// it (0.7 − 0.2 is 0.49999999999999994), and a read there must see the end value, settled (or,
  /// from the left, the motion arriving), not a sample an ulp before it. A time written in
  /// decimals at that end (`at: 0.8` after 0.7 + 0.1 = 0.7999999999999999) is the end too:
  /// within `MediaTiming.boundaryTolerance` of it, on either side, `t` maps to `duration`; within
  /// it of `begin`, on either side, to 0 (the start: 0.3 for an animation begun at 0.1 + 0.2).
  package static func localTime(at t: Double, begin: Double, duration: Double) -> Double {
    let end = begin + duration
    let local = t - begin
    let tolerance = MediaTiming.boundaryTolerance(t, begin)
    if end.isFinite && abs(t - end) <= tolerance { return duration }
    if abs(local) <= tolerance { return 0 }
    guard end.isFinite, t > begin else { return min(local, duration) }
    // Past the end the local time goes on: a fill that does not hold is asked there.
    return t < end ? min(local, duration) : local
  }
}
