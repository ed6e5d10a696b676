/// An integer-valued property animated in double precision and rounded when written (Pop's
/// `kPOPValueInteger`).
///
/// Springs and tweens run on the exact ``rawValue``; ``rounded`` is what a property's write
/// closure stores (half away from zero), so there is no drift from re-rounding every frame.
///
///     let count = SpringAnimation(from: IntegerValue(0), to: IntegerValue(10))
///     count.value(at: 0.2).rounded   // an Int
package struct IntegerValue: ComponentwiseAnimatable, Hashable, Codable, CustomStringConvertible {
  /// The exact, unrounded value.
  package var rawValue: Double

  package init(_ value: Int) { rawValue = Double(value) }
  package init(rawValue: Double) { self.rawValue = rawValue }

  /// The value to write: `rawValue` rounded half away from zero, clamped to `Int`'s range.
  package var rounded: Int {
    let r = rawValue.rounded(.toNearestOrAwayFromZero)
    if r.isNaN { return 0 }
    if r >= 9.2e18 { return Int.max }
    if r <= -9.2e18 { return Int.min }
    return Int(r)
  }

  package static let zero = IntegerValue(rawValue: 0)
  package static func + (a: IntegerValue, b: IntegerValue) -> IntegerValue {
    IntegerValue(rawValue: a.rawValue + b.rawValue)
  }
  package static func - (a: IntegerValue, b: IntegerValue) -> IntegerValue {
    IntegerValue(rawValue: a.rawValue - b.rawValue)
  }
  package func scaled(by f: Double) -> IntegerValue { IntegerValue(rawValue: rawValue * f) }
  package var magnitudeSquared: Double { rawValue * rawValue }
  package func mapComponents(_ f: (Double) -> Double) -> IntegerValue { IntegerValue(rawValue: f(rawValue)) }
  package static func combineComponents(
    _ a: IntegerValue, _ b: IntegerValue, _ c: IntegerValue, _ f: (Double, Double, Double) -> Double
  ) -> IntegerValue { IntegerValue(rawValue: f(a.rawValue, b.rawValue, c.rawValue)) }

  package var description: String { String(rounded) }
}
