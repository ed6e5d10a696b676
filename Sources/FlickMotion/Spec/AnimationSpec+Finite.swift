extension AnimationSpec {
  /// The largest value or velocity a spec may reach moving from 0 to 1: far beyond any real
  /// motion (a back curve's overshoot of 1.7 peaks near 1.1), and small enough that scaled by
  /// any distance a property moves (well under 10²⁰⁰) the numbers stay finite.
  package static let largestUnitMagnitude = 1e100

  /// Refuses (at `column`, the spec's) a spec whose numbers are each in range but whose motion
  /// is not: moving from 0 to 1 at rest, a value or velocity is not finite or passes
  /// ``largestUnitMagnitude`` (`backOut(overshoot: 1e308)`, keyframes from `1e308` to
  /// `-1e308`, a drag over `1e-308` s). Checked at 17 even times over the motion (its first
  /// hour when it never ends) and at each keyframe and between keyframes, once, where the spec
  /// is read, so every curve built from it later is finite.
  package func checkFinite(column: Int) throws(MotionError) {
    // A spec that cannot move a number at rest says so where it is used.
    guard let curve = try? curve(from: 0.0, to: 1.0) else { return }
    let end = curve.duration.isFinite ? max(curve.duration, 0) : 3600
    var times = (0...16).map { end * Double($0) / 16 }
    if timing == nil, case .keyframes(let values, let keyTimes, _, _, let duration) = kind, values.count > 1 {
      let keys = keyTimes ?? (0..<values.count).map { Double($0) / Double(values.count - 1) }
      for (i, k) in keys.enumerated() {
        times.append(k * duration)
        if i > 0 { times.append((keys[i - 1] + k) / 2 * duration) }
      }
    }
    for t in times {
      for isVelocity in [false, true] {
        let v = isVelocity ? curve.velocity(at: t) : curve.value(at: t)
        guard !(abs(v) <= Self.largestUnitMagnitude) else { continue }
        let amount = v.isFinite ? "reaches \(SpecExpression.format(v))" : "is not a finite number"
        throw MotionError(
          "this motion's numbers are out of range: moving from 0 to 1, its \(isVelocity ? "velocity" : "value") at "
            + "\(SpecExpression.format(t)) s \(escaped: amount) (values and velocities must stay within ±1e100); use "
            + "smaller numbers or a longer duration",
          column: column)
      }
    }
  }
}
