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

extension Animatable {
  /// The Euclidean norm (`magnitudeSquared.squareRoot()`), computed so that its squares can
  /// neither overflow nor underflow: components past ±1.3·10¹⁵⁴ or below 10⁻¹⁵⁴ are scaled by
  /// a power of two first (exact), so `1e200` has norm `1e200`, not infinity. Infinite only
  /// when a component is; NaN when one is.
  @inlinable public var norm: Double {
    let squared = magnitudeSquared
    if squared.isFinite && squared >= 0x1p-900 { return squared.squareRoot() }
    if squared == 0 || squared < 0x1p-900 {
      return scaled(by: 0x1p600).magnitudeSquared.squareRoot() * 0x1p-600
    }
    // Infinite (or NaN): scaled down, the squares of finite components fit.
    return scaled(by: 0x1p-600).magnitudeSquared.squareRoot() * 0x1p600
  }
}

extension Animatable {
  /// `self`'s component along `axis`, in units of `axis`: `(self · axis) / |axis|²`, through the
  /// polarisation identity, with both scaled first by the one power of two that brings the larger
  /// norm to about 1, so the squares fit (the same bits as unscaled wherever those do). NaN when
  /// `axis` is 0 or either is not finite.
  @inlinable public func projection(onto axis: Self) -> Double {
    let n = Swift.max(norm, axis.norm)
    guard n.isFinite, axis.norm > 0 else { return .nan }
    let s = Double(sign: .plus, exponent: -Swift.max(n.exponent, -1000), significand: 1)
    let (x, a) = (scaled(by: s), axis.scaled(by: s))
    return ((x + a).magnitudeSquared - (x - a).magnitudeSquared) / (4 * a.magnitudeSquared)
  }
}
