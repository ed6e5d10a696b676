/// A value that never changes: what a template's `set` compiles to, and a property held still
/// in Swift code. Its duration is 0 and its velocity 0 at every time (left limits included).
///
///     let held = ConstantCurve(value: 0.5)
///     held.value(at: 3)      // 0.5
///     held.velocity(at: 3)   // 0
package struct ConstantCurve<Value: Animatable>: AnimationCurve, Equatable {
  /// The value at every time, in the property's units.
  package let value: Value

  /// A curve that holds `value`.
  package init(value: Value) { self.value = value }

  /// 0: the value is reached at once.
  package var duration: Double { 0 }
  /// ``value``, whatever `t` (seconds).
  package func value(at t: Double) -> Value { value }
  /// Zero, whatever `t`.
  package func velocity(at t: Double) -> Value { .zero }
}
