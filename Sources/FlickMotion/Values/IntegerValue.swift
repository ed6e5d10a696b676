/// An integer-valued property animated in double precision and rounded when written (Pop's
/// `kPOPValueInteger`).
///
/// Springs and tweens run on the exact ``rawValue``; ``rounded`` is what a property's write
/// closure stores (half away from zero), so there is no drift from re-rounding every frame.
///
///     let count = SpringAnimation(from: IntegerValue(0), to: IntegerValue(10))
///     count.value(at: 0.2).rounded   // an Int
public struct IntegerValue: ComponentwiseAnimatable, Hashable, Codable, CustomStringConvertible {
  /// The exact, unrounded value.
  public var rawValue: Double

  public init(_ value: Int) { rawValue = Double(value) }
  public init(rawValue: Double) { self.rawValue = rawValue }

  /// The value to write: `rawValue` rounded half away from zero, clamped to `Int`'s range.
  public var rounded: Int {
    let r = rawValue.rounded(.toNearestOrAwayFromZero)
    if r.isNaN { return 0 }
    if r >= 9.2e18 { return Int.max }
    if r <= -9.2e18 { return Int.min }
    return Int(r)
  }

  public static let zero = IntegerValue(rawValue: 0)
  public static func + (a: IntegerValue, b: IntegerValue) -> IntegerValue { IntegerValue(rawValue: a.rawValue + b.rawValue) }
  public static func - (a: IntegerValue, b: IntegerValue) -> IntegerValue { IntegerValue(rawValue: a.rawValue - b.rawValue) }
  public func scaled(by f: Double) -> IntegerValue { IntegerValue(rawValue: rawValue * f) }
  public var magnitudeSquared: Double { rawValue * rawValue }
  public func mapComponents(_ f: (Double) -> Double) -> IntegerValue { IntegerValue(rawValue: f(rawValue)) }
  public static func combineComponents(
    _ a: IntegerValue, _ b: IntegerValue, _ c: IntegerValue, _ f: (Double, Double, Double) -> Double
  ) -> IntegerValue { IntegerValue(rawValue: f(a.rawValue, b.rawValue, c.rawValue)) }

  public var description: String { String(rounded) }
}
