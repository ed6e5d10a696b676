/// A scripted finger (``DragCurve``) moving content that resists past its bounds: each component
/// of the value goes through its ``RubberBand``, value and velocity (the chain rule: the finger's
/// velocity times the band's slope), so a motion that takes over at the lift (a `release`)
/// continues from the resisted position with the resisted velocity. What a template's `drag`
/// with `resistance` compiles to.
///
///     let finger = try DragCurve(points: [0.0, 200], duration: 0.5)
///     let pull = ResistedDragCurve(finger, bands: [RubberBand(upper: 80, dimension: 540)])
///     pull.value(at: 0.5)   // 80 + 57.5…: the finger is 120 pt past the bound
package struct ResistedDragCurve<Value: ComponentwiseAnimatable>: AnimationCurve {
  /// Where the finger is.
  package let finger: DragCurve<Value>
  /// The band of each component, in the order ``ComponentwiseAnimatable`` visits them (x, y for
  /// a point); a missing one is a component without resistance.
  package let bands: [RubberBand]
  package var duration: Double { finger.duration }

  package init(_ finger: DragCurve<Value>, bands: [RubberBand]) {
    self.finger = finger
    self.bands = bands
  }

  package func value(at t: Double) -> Value { resisted(finger.value(at: t)) }
  package func value(before t: Double) -> Value { resisted(finger.value(before: t)) }
  package func velocity(at t: Double) -> Value { chained(finger.value(at: t), finger.velocity(at: t)) }
  package func velocity(before t: Double) -> Value { chained(finger.value(before: t), finger.velocity(before: t)) }

  /// Each component through its band.
  private func resisted(_ x: Value) -> Value {
    var i = 0
    return x.mapComponents { c in
      defer { i += 1 }
      return i < bands.count ? bands[i].value(c) : c
    }
  }

  /// The velocity `v` of the finger at `x`, each component times its band's slope there.
  private func chained(_ x: Value, _ v: Value) -> Value {
    var slopes: [Double] = []
    _ = x.mapComponents { c in
      slopes.append(slopes.count < bands.count ? bands[slopes.count].slope(c) : 1)
      return c
    }
    var i = 0
    return v.mapComponents { c in
      defer { i += 1 }
      return i < slopes.count ? c * slopes[i] : c
    }
  }
}
