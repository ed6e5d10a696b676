/// An ``Animatable`` value whose components can be reached one by one: needed for per-component
/// clamping (Pop's `clampMode`), rounding (`roundingFactor`) and bounds.
///
/// Every built-in value type conforms. A custom type that only conforms to `Animatable` simply
/// cannot be clamped or rounded — a compile-time error, not silent garbage.
package protocol ComponentwiseAnimatable: Animatable {
  /// A copy with `transform` applied to every component.
  func mapComponents(_ transform: (Double) -> Double) -> Self
  /// A value whose every component is `combine(a_i, b_i, c_i)`.
  static func combineComponents(
    _ a: Self, _ b: Self, _ c: Self, _ combine: (Double, Double, Double) -> Double
  ) -> Self
}

extension Double: ComponentwiseAnimatable {
  public func mapComponents(_ transform: (Double) -> Double) -> Double { transform(self) }
  public static func combineComponents(
    _ a: Double, _ b: Double, _ c: Double, _ combine: (Double, Double, Double) -> Double
  ) -> Double { combine(a, b, c) }
}

extension Point: ComponentwiseAnimatable {
  public func mapComponents(_ f: (Double) -> Double) -> Point { Point(x: f(x), y: f(y)) }
  public static func combineComponents(
    _ a: Point, _ b: Point, _ c: Point, _ f: (Double, Double, Double) -> Double
  ) -> Point { Point(x: f(a.x, b.x, c.x), y: f(a.y, b.y, c.y)) }
}

extension Size: ComponentwiseAnimatable {
  public func mapComponents(_ f: (Double) -> Double) -> Size { Size(width: f(width), height: f(height)) }
  public static func combineComponents(
    _ a: Size, _ b: Size, _ c: Size, _ f: (Double, Double, Double) -> Double
  ) -> Size { Size(width: f(a.width, b.width, c.width), height: f(a.height, b.height, c.height)) }
}

extension Rect: ComponentwiseAnimatable {
  public func mapComponents(_ f: (Double) -> Double) -> Rect {
    Rect(origin: origin.mapComponents(f), size: size.mapComponents(f))
  }
  public static func combineComponents(
    _ a: Rect, _ b: Rect, _ c: Rect, _ f: (Double, Double, Double) -> Double
  ) -> Rect {
    Rect(
      origin: .combineComponents(a.origin, b.origin, c.origin, f),
      size: .combineComponents(a.size, b.size, c.size, f))
  }
}

extension Color: ComponentwiseAnimatable {
  public func mapComponents(_ f: (Double) -> Double) -> Color {
    Color(red: f(red), green: f(green), blue: f(blue), alpha: f(alpha))
  }
  public static func combineComponents(
    _ a: Color, _ b: Color, _ c: Color, _ f: (Double, Double, Double) -> Double
  ) -> Color {
    Color(
      red: f(a.red, b.red, c.red), green: f(a.green, b.green, c.green), blue: f(a.blue, b.blue, c.blue),
      alpha: f(a.alpha, b.alpha, c.alpha))
  }
}
