extension AnimationSpec {
  static func kind(name: String, args: inout SpecArguments, column: Int, options: Options = []) throws(MotionError)
    -> Kind
  {
    switch name {
    case "spring", "smooth", "snappy", "bouncy":
      let parameters = try springParameters(name: name, args: &args)
      if args.has("velocity") && args.has("normalizedVelocity") {
        throw MotionError(
          "a spring takes one initial velocity: 'velocity' (units/s along the motion) or 'normalizedVelocity' "
            + "(UIKit's fraction of the distance per second), not both",
          column: args.column(of: "normalizedVelocity") ?? args.column, argument: "normalizedVelocity")
      }
      let velocity = try args.number("velocity") ?? 0
      let normalized = try args.number("normalizedVelocity")
      let threshold = try args.number("threshold", in: 0...Double.greatestFiniteMagnitude)
      return .spring(parameters, velocity: velocity, normalizedVelocity: normalized, restThreshold: threshold)
    case "decay":
      let given = try args.number("velocity")
      guard let velocity = given ?? (options.contains(.velocityFromHandoff) ? 0 : nil) else {
        throw MotionError("decay needs a velocity in units/s, e.g. decay(velocity: 1000)", column: column)
      }
      let d = try args.number("deceleration", in: 0.5...0.999_999) ?? 0.998
      let threshold = try args.number("threshold", in: 0...Double.greatestFiniteMagnitude) ?? 1
      let lo = try args.number("min")
      let hi = try args.number("max")
      var bounds: ClosedRange<Double>?
      if lo != nil || hi != nil {
        let l = lo ?? -Double.greatestFiniteMagnitude
        let h = hi ?? Double.greatestFiniteMagnitude
        guard l <= h else { throw MotionError("decay min (\(quoted: l)) must not exceed max (\(h))", column: column) }
        bounds = l...h
      }
      return .decay(velocity: velocity, deceleration: d, threshold: threshold, bounds: bounds)
    case "tween":
      guard let curveExpr = args.take("curve") ?? args.takePositional() else {
        throw MotionError("tween needs a curve, e.g. tween(curve: easeOut, duration: 0.3)", column: column)
      }
      let curve = try timingFunction(curveExpr)
      return .tween(curve, duration: try args.duration())
    case "keyframes":
      guard let valuesExpr = args.take("values") else {
        throw MotionError("keyframes need values, e.g. keyframes(values: [0, 1.1, 1])", column: column)
      }
      let values = try numbers(valuesExpr, what: "values")
      let keyTimes = try args.take("keyTimes").map { e throws(MotionError) in try numbers(e, what: "keyTimes") }
      var curves: [TimingFunction]?
      if let c = args.take("curves") {
        if case .list(let items, _) = c {
          var list: [TimingFunction] = []
          for item in items { list.append(try timingFunction(item)) }
          curves = list
        } else {
          curves = [try timingFunction(c)]
        }
      }
      let mode = try args.choice("mode", KeyframeCalculationMode.self) ?? .linear
      let duration = try args.duration()
      // Validate now so errors surface at parse time, at the spec.
      do {
        _ = try KeyframeAnimation(
          values: values, keyTimes: keyTimes, timingFunctions: curves, calculationMode: mode, duration: duration)
      } catch {
        throw MotionError(error.message, column: column, argument: error.argument)
      }
      return .keyframes(values: values, keyTimes: keyTimes, curves: curves, mode: mode, duration: duration)
    case "constant":
      var value = try args.number("value")
      if value == nil { value = try args.positionalNumber() }
      return .constant(value: value ?? 1)
    case "drag":
      guard let pointsExpr = args.take("points") ?? args.takePositional() else {
        throw MotionError("drag needs points, e.g. drag(points: [0, 0.4, 1], duration: 0.5)", column: column)
      }
      let points = try numbers(pointsExpr, what: "points")
      var curve = TimingFunction.linear
      if let e = args.take("curve") { curve = try timingFunction(e) }
      let duration = try args.duration()
      guard duration > 0 else {
        throw MotionError("a drag needs a duration above 0 s", column: column, argument: "duration")
      }
      // Validate now so errors surface at parse time, at the spec.
      do {
        _ = try DragCurve(points: points, duration: duration, timing: curve)
      } catch {
        throw MotionError(error.message, column: column, argument: error.argument)
      }
      return .drag(points: points, curve: curve, duration: duration)
    case "spin":
      var speed = try args.number("to")
      if speed == nil { speed = try args.positionalNumber() }
      guard let to = speed else {
        throw MotionError("spin needs the speed to reach, e.g. spin(to: 3.49, duration: 1.2)", column: column)
      }
      var curve = TimingFunction.easeInEaseOut
      if let e = args.take("curve") { curve = try timingFunction(e) }
      let duration = try args.duration()
      // Validate now so errors surface at parse time.
      do {
        _ = try SpinCurve(from: 0.0, initialVelocity: 0, targetVelocity: to, timing: curve, rampDuration: duration)
      } catch {
        throw MotionError(error.message, column: column, argument: error.argument)
      }
      return .spin(to: to, curve: curve, duration: duration)
    default:
      let curve = try timingFunction(.call(name: name, arguments: args.remainingCurveArguments(), column: column))
      let duration = try args.duration()
      args.consumeAll()  // the curve's own options were checked by timingFunction(_:)
      return .tween(curve, duration: duration)
    }
  }

  private static func springParameters(name: String, args: inout SpecArguments) throws(MotionError) -> SpringParameters
  {
    let positive = Double.leastNonzeroMagnitude...Double.greatestFiniteMagnitude
    if name != "spring" {
      let duration = try args.number("duration", in: positive) ?? 0.5
      let extra = try args.number("extraBounce", in: -1...1) ?? 0
      switch name {
      case "smooth": return .smooth(duration: duration, extraBounce: extra)
      case "snappy": return .snappy(duration: duration, extraBounce: extra)
      default: return .bouncy(duration: duration, extraBounce: extra)
      }
    }
    // `mass` is shared by every physical family (Pop's tension/friction/mass, Core Animation's
    // stiffness/damping/mass, SwiftUI's duration/bounce and response/dampingRatio), so it never
    // decides the family by itself.
    let families: [(String, [String])] = [
      ("stiffness/damping/mass", ["stiffness", "damping"]),
      ("tension/friction/mass", ["tension", "friction"]),
      ("bounciness/speed", ["bounciness", "speed"]),
      ("duration/bounce", ["duration", "bounce"]),
      ("response/dampingRatio", ["response", "dampingRatio"]),
      ("visualDuration/bounce", ["visualDuration"]),
    ]
    let used = families.filter { $0.1.contains { args.has($0) } }
    let isVisual = args.has("visualDuration")
    let chosen = used.filter { !(isVisual && $0.0 == "duration/bounce" && !args.has("duration")) }
    if chosen.count > 1 {
      throw MotionError(
        "spring parameters mix \(quoted: chosen.map(\.0).joined(separator: " and ")); use one family",
        column: args.column)
    }
    if let family = chosen.first?.0, family == "bounciness/speed" || family == "visualDuration/bounce", args.has("mass")
    {
      throw MotionError(
        "'mass' does not apply to \(quoted: family) springs (their mass is 1); use stiffness/damping/mass or tension/friction/mass",
        column: args.column(of: "mass") ?? args.column)
    }
    let physical = args.has("stiffness") || args.has("damping") || args.has("mass")
    let mass = try args.number("mass", in: positive) ?? 1
    switch chosen.first?.0 {
    case "tension/friction/mass":
      return .pop(
        tension: try args.number("tension", in: positive) ?? 100,
        friction: try args.number("friction", in: 0...1e12) ?? 10,
        mass: mass)
    case "bounciness/speed":
      return .pop(
        bounciness: try args.number("bounciness", in: 0...20) ?? 4, speed: try args.number("speed", in: 0...20) ?? 12)
    case "duration/bounce":
      return SpringParameters(
        duration: try args.number("duration", in: positive) ?? 0.5,
        bounce: try args.number("bounce", in: -0.99...1) ?? 0,
        mass: mass)
    case "response/dampingRatio":
      return SpringParameters(
        response: try args.number("response", in: positive) ?? 0.55,
        dampingRatio: try args.number("dampingRatio", in: 0...1e6) ?? 0.825, mass: mass)
    case "visualDuration/bounce":
      return .framer(
        visualDuration: try args.number("visualDuration", in: positive) ?? 0.3,
        bounce: try args.number("bounce", in: -1...1) ?? 0.3)
    default:
      // A bare `spring` is Pop's default spring (bounciness 4, speed 12), the one users of Pop's
      // `POPSpringAnimation` get without settings; physical members fall back to Core Animation's.
      if !physical {
        return .popDefault
      }
      return SpringParameters(
        mass: mass, stiffness: try args.number("stiffness", in: positive) ?? 100,
        damping: try args.number("damping", in: 0...1e12) ?? 10)
    }
  }

  /// A timing function from `easeOut`, `cubicBezier(…)`, `steps(…)`, `backOut(overshoot: 2)`, …
  static func timingFunction(_ e: SpecExpression) throws(MotionError) -> TimingFunction {
    guard case .call(let name, let arguments, let column) = e else {
      throw MotionError("expected a timing curve name such as easeOut, found \(quoted: e)", column: e.column)
    }
    var args = try SpecArguments(name: name, arguments: arguments ?? [], column: column)
    let f: TimingFunction
    switch name {
    case "cubicBezier":
      var v: [Double] = []
      for label in ["x1", "y1", "x2", "y2"] {
        var x = try args.number(label)
        if x == nil { x = try args.positionalNumber() }
        guard let x else {
          throw MotionError("cubicBezier needs four numbers x1, y1, x2, y2", column: column)
        }
        v.append(x)
      }
      guard (0...1).contains(v[0]), (0...1).contains(v[2]) else {
        throw MotionError(
          "cubicBezier needs x1 and x2 in 0…1, found \(quoted: v[0]) and \(quoted: v[2])", column: column)
      }
      f = TimingFunction(v[0], v[1], v[2], v[3])
    case "steps":
      var count = try args.number("count")
      if count == nil { count = try args.positionalNumber() }
      guard let n = count, n >= 1, n == n.rounded(), n <= 10_000 else {
        throw MotionError("steps needs a whole number of steps in 1…10000, e.g. steps(4)", column: column)
      }
      let position = try args.choice("position", TimingFunction.StepPosition.self, positional: true) ?? .jumpEnd
      // CSS refuses steps(1, jump-none): with no jump at either end one step has nowhere to go.
      guard position != .jumpNone || n >= 2 else {
        throw MotionError("steps with jumpNone needs at least 2 steps, e.g. steps(2, jumpNone)", column: column)
      }
      f = .steps(Int(n), position: position)
    case "backIn", "backOut", "backInOut", "anticipate":
      let s = try args.number("overshoot") ?? 1.70158
      switch name {
      case "backIn": f = .back(.in, overshoot: s)
      case "backOut": f = .back(.out, overshoot: s)
      case "backInOut": f = .back(.inOut, overshoot: s)
      default: f = .anticipate(overshoot: s)
      }
    case "elasticIn", "elasticOut", "elasticInOut":
      let a = try args.number("amplitude", in: 1...100) ?? 1
      let p = try args.number("period", in: 0.01...10) ?? 0.3
      let mode: TimingFunction.EaseMode = name == "elasticIn" ? .in : name == "elasticOut" ? .out : .inOut
      f = .elastic(mode, amplitude: a, period: p)
    default:
      guard let named = TimingFunction.named[name] else {
        var message = "unknown animation or curve '\(quoted: name)'"
        if let guess = Suggestion.closest(to: name, in: AnimationSpec.names) {
          message += "; did you mean '\(escaped: guess)'?"
        }
        throw MotionError(message + " (known: \(AnimationSpec.names.joined(separator: ", ")))", column: column)
      }
      f = named
    }
    // Only `duration` and timing may remain; they belong to the enclosing spec.
    try args.finish(allowing: ["duration"] + SpecArguments.timingLabels)
    return f
  }

  private static func numbers(_ e: SpecExpression, what: String) throws(MotionError) -> [Double] {
    guard case .list(let items, _) = e else {
      throw MotionError("\(quoted: what) must be a list of numbers, e.g. [0, 0.5, 1]", column: e.column)
    }
    var out: [Double] = []
    for item in items {
      guard case .number(let v, _) = item else {
        throw MotionError("\(quoted: what) must contain numbers, found \(quoted: item)", column: item.column)
      }
      out.append(v)
    }
    return out
  }
}
