/// A value that animations can interpolate and integrate: a vector of `Double` components.
///
/// Every animated property in Flick — a scalar, a point, a colour — conforms, so springs,
/// decays and tweens are written once over this protocol. Arithmetic is component-wise and
/// interpolation is never clamped, so overshoot (a bouncy spring, a back curve) works.
///
///     let p = Point(x: 0, y: 10).interpolated(to: Point(x: 100, y: 10), amount: 1.1)
///     // Point(x: 110, y: 10)
public protocol Animatable: Sendable, Equatable {
  /// The additive identity (every component 0).
  static var zero: Self { get }
  /// Component-wise sum.
  static func + (lhs: Self, rhs: Self) -> Self
  /// Component-wise difference.
  static func - (lhs: Self, rhs: Self) -> Self
  /// Every component multiplied by `factor`.
  func scaled(by factor: Double) -> Self
  /// The sum of squared components; used for rest thresholds.
  var magnitudeSquared: Double { get }
}

extension Animatable {
  /// Linear interpolation from `self` to `other`; `amount` is not clamped (0 → self, 1 → other).
  @inlinable
  public func interpolated(to other: Self, amount: Double) -> Self {
    self + (other - self).scaled(by: amount)
  }
}

extension Double: Animatable {
  @inlinable public func scaled(by factor: Double) -> Double { self * factor }
  @inlinable public var magnitudeSquared: Double { self * self }
}
