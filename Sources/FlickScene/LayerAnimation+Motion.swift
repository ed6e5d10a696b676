import FlickMotion

extension LayerAnimation {
  /// Any FlickMotion curve (spring, decay, tween, keyframes, …) on `property` of layer `layerID`,
  /// starting at scene time `beginTime` seconds; it runs for the curve's `duration` and then holds
  /// its final value, unless the curve's timing (``FlickMotion/AnimationCurve/isApplied(at:)``)
  /// says it is not shown: a ``FlickMotion/TimedAnimation`` with a delay and no backwards fill
  /// leaves the layer's value alone until it starts, and one with a `removed` fill lets it
  /// return to the layer's value at the end.
  ///
  /// - Parameter additive: When true, the curve's value is added to the property's value in the
  ///   tree being built (Core Animation's `isAdditive`, Pop's `additive`): animations stack.
  public init<Curve: AnimationCurve>(
    layerID: String, property: LayerProperty<Curve.Value>, curve: Curve, beginTime: Double = 0,
    additive: Bool = false
  ) {
    if additive {
      self.init(
        layerID: layerID, property: property, beginTime: beginTime, duration: curve.duration,
        additiveValue: { curve.value(at: $0) }, isApplied: { curve.isApplied(at: $0) })
    } else {
      self.init(
        layerID: layerID, property: property, beginTime: beginTime, duration: curve.duration,
        value: { curve.value(at: $0) }, isApplied: { curve.isApplied(at: $0) })
    }
  }

  /// A curve with Core Animation timing, placed so that scene time = the timing's parent time.
  ///
  /// Fill: before `timing.beginTime` the animation is applied only with a backwards fill mode
  /// (`backwards`/`both`); after its end only with a forwards one (`forwards`/`both`, Flick's
  /// default): with `removed` or `backwards` the layer returns to its own value.
  public init<Base: AnimationCurve>(
    layerID: String, property: LayerProperty<Base.Value>, timed: TimedAnimation<Base>,
    additive: Bool = false
  ) {
    let begin = timed.timing.fillMode.fillsBackwards ? 0 : timed.timing.beginTime
    let shifted = ShiftedCurve(base: timed, offset: begin)
    self.init(layerID: layerID, property: property, curve: shifted, beginTime: begin, additive: additive)
  }

  private init<Value>(
    layerID: String, property: LayerProperty<Value>, beginTime: Double, duration: Double,
    additiveValue: @escaping @Sendable (Double) -> Value, isApplied: @escaping @Sendable (Double) -> Bool
  ) {
    let stacked = LayerProperty<Value>(
      name: property.name, threshold: property.threshold, read: property.read,
      write: { layer, delta in property.write(&layer, property.read(layer) + delta) })
    self.init(
      layerID: layerID, property: stacked, beginTime: beginTime, duration: duration, value: additiveValue,
      isApplied: isApplied)
  }
}

/// A curve sampled `offset` seconds later: `value(at: t) = base.value(at: t + offset)`.
private struct ShiftedCurve<Base: AnimationCurve>: AnimationCurve {
  let base: Base
  let offset: Double
  var duration: Double { max(0, base.duration - offset) }
  func value(at t: Double) -> Base.Value { base.value(at: t + offset) }
  func velocity(at t: Double) -> Base.Value { base.velocity(at: t + offset) }
  func value(before t: Double) -> Base.Value { base.value(before: t + offset) }
  func velocity(before t: Double) -> Base.Value { base.velocity(before: t + offset) }
  func isApplied(at t: Double) -> Bool { base.isApplied(at: t + offset) }
  func turns(after t: Double) -> CurveTurns { base.turns(after: t + offset).mapped(origin: -offset, scale: 1) }
  func turns(before t: Double) -> CurveTurns { base.turns(before: t + offset).mapped(origin: -offset, scale: 1) }
}
