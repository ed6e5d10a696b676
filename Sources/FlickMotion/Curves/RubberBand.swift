/// UIScrollView's rubber band on one axis: past a bound, a finger that overshoots by `o` moves
/// the content by `(1 − 1 / (o·c / D + 1))·D`, which starts at the finger's pace (slope `c`) and
/// never reaches `D` however far the finger goes.
///
///     let band = RubberBand(lower: 0, upper: 300, coefficient: 0.55, dimension: 540)
///     band.value(340)    // 300 + 21.2…: 40 pt past the bound shows as about 21 pt
///
/// Inside the bounds the value is the finger's; both sides are optional (an infinite bound).
package struct RubberBand: Sendable, Hashable {
  /// The lowest value the content reaches without resistance (−∞: none).
  package var lower: Double
  /// The highest value the content reaches without resistance (+∞: none).
  package var upper: Double
  /// How stiff the band is, `c` (UIScrollView's 0.55; 1 follows the finger at first, smaller resists more).
  package var coefficient: Double
  /// The dimension `D` the overshoot can approach, in the value's units (the view's size along the axis).
  package var dimension: Double

  package init(lower: Double = -.infinity, upper: Double = .infinity, coefficient: Double = 0.55, dimension: Double) {
    self.lower = lower
    self.upper = upper
    self.coefficient = coefficient
    self.dimension = dimension
  }

  /// The resisted value for the free (finger) value `x`.
  package func value(_ x: Double) -> Double {
    if x > upper { return upper + stretch(x - upper) }
    if x < lower { return lower - stretch(lower - x) }
    return x
  }

  /// `d value / d x` at `x`: 1 inside the bounds, `c / (o·c / D + 1)²` past one.
  package func slope(_ x: Double) -> Double {
    let o = x > upper ? x - upper : x < lower ? lower - x : 0
    guard o > 0 else { return 1 }
    let q = o * coefficient / dimension + 1
    return coefficient / (q * q)
  }

  /// How far the content goes for an overshoot `o ≥ 0`.
  private func stretch(_ o: Double) -> Double {
    (1 - 1 / (o * coefficient / dimension + 1)) * dimension
  }
}
