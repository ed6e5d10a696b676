/// Which end of the motion a clamped animation may not pass (Pop's `POPAnimationClampFlags`).
package enum ClampMode: String, Sendable, Hashable, Codable, CaseIterable {
  /// No clamping.
  case none
  /// Never beyond the start value (per component, in the direction of motion).
  case start
  /// Never beyond the end value — no overshoot (Pop's `kPOPAnimationClampEnd`).
  case end
  /// Both.
  case both
}

/// An animation whose components are clamped between its start and end values and/or rounded
/// to a multiple of a factor (Pop's `clampMode` and `roundingFactor`).
package struct ClampedAnimation<Base: AnimationCurve>: AnimationCurve where Base.Value: ComponentwiseAnimatable {
  package typealias Value = Base.Value
  /// The unclamped animation.
  package let base: Base
  /// Which ends clamp.
  package let clampMode: ClampMode
  /// Values are rounded to multiples of this (0: no rounding; 1: whole units; 0.5: halves).
  package let roundingFactor: Double
  /// The start value (`base.value(at: 0)`).
  package let start: Value
  /// The end value (`base.finalValue`).
  package let end: Value
  package var duration: Double { base.duration }

  package init(_ base: Base, clampMode: ClampMode = .none, roundingFactor: Double = 0) {
    self.base = base
    self.clampMode = clampMode
    self.roundingFactor = roundingFactor.isFinite ? max(roundingFactor, 0) : 0
    self.start = base.value(at: 0)
    self.end = base.finalValue
  }

  package func value(at t: Double) -> Value {
    var v = clamp(base.value(at: t))
    if roundingFactor > 0 {
      let f = roundingFactor
      v = v.mapComponents { ($0 / f).rounded() * f }
    }
    return v
  }

  private func clamp(_ value: Value) -> Value {
    var v = value
    if clampMode != .none {
      let mode = clampMode
      v = Value.combineComponents(v, start, end) { x, a, b in
        var x = x
        let lo = min(a, b)
        let hi = max(a, b)
        let clampStart = mode == .start || mode == .both
        let clampEnd = mode == .end || mode == .both
        if a <= b {
          if clampStart { x = max(x, lo) }
          if clampEnd { x = min(x, hi) }
        } else {
          if clampStart { x = min(x, hi) }
          if clampEnd { x = max(x, lo) }
        }
        return x
      }
    }
    return v
  }

  /// The base velocity, zero in components held at a clamp (rounding leaves velocity unchanged:
  /// it describes the underlying motion).
  package func velocity(at t: Double) -> Value {
    let raw = base.value(at: t)
    let clamped = clamp(raw)
    return Value.combineComponents(base.velocity(at: t), raw, clamped) { v, r, c in r == c ? v : 0 }
  }
}

extension AnimationCurve where Value: ComponentwiseAnimatable {
  /// This animation, clamped and/or rounded (Pop's `clampMode`, `roundingFactor`).
  package func clamped(_ mode: ClampMode = .end, roundingFactor: Double = 0) -> ClampedAnimation<Self> {
    ClampedAnimation(self, clampMode: mode, roundingFactor: roundingFactor)
  }
}
