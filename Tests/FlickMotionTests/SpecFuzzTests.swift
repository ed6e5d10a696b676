import FlickExpectations
import FlickMotion
import FlickTestSupport
import Testing

/// Spec strings are typed by hand (templates, `flick curve`): random ones built from the
/// language's own words and extreme numbers must parse or fail with an error, and whatever
/// parses must give a curve whose samples are finite or an error, never a crash or a hang.
@Suite struct SpecFuzzTests {
  static let names = [
    "spring", "decay", "linear", "easeIn", "easeOut", "easeInEaseOut", "default", "backIn", "bounceOut", "elasticIn",
    "anticipate", "cubicBezier", "steps", "tween", "keyframes", "smooth", "snappy", "bouncy",
  ]
  static let labels = [
    "stiffness", "damping", "mass", "tension", "friction", "bounciness", "speed", "duration", "bounce", "response",
    "dampingRatio", "visualDuration", "velocity", "normalizedVelocity", "threshold", "deceleration", "min", "max",
    "delay", "repeatCount", "repeatForever", "autoreverses", "timeOffset", "fill", "values", "keyTimes", "curves",
    "mode",
    "extraBounce", "curve",
  ]
  static let numbers = [
    "0", "-0", "1", "-1", "0.5", "1e308", "-1e308", "1e-308", "4", "12", "100", "0.998", "1.0001", "99999", "3",
  ]

  static func value(_ g: inout SeededGenerator, depth: Int) -> String {
    switch Int.random(in: 0..<(depth > 1 ? 3 : 5), using: &g) {
    case 0, 1: return numbers.randomElement(using: &g)!
    case 2:
      return ["true", "false", "removed", "both", "jumpStart", "cubic", "paced", "easeOut"].randomElement(using: &g)!
    case 3:
      return "["
        + (0..<Int.random(in: 0...5, using: &g)).map { _ in value(&g, depth: depth + 1) }.joined(separator: ", ") + "]"
    default: return spec(&g, depth: depth + 1)
    }
  }

  static func spec(_ g: inout SeededGenerator, depth: Int = 0) -> String {
    var s = names.randomElement(using: &g)!
    guard Bool.random(using: &g) else { return s }
    let args = (0..<Int.random(in: 0...4, using: &g)).map { _ -> String in
      let v = value(&g, depth: depth)
      return Bool.random(using: &g) ? v : "\(labels.randomElement(using: &g)!): \(v)"
    }
    s += "(" + args.joined(separator: ", ") + ")"
    return s
  }

  @Test func randomSpecsParseOrFailAndSampleFinitely() {
    var parsed = 0
    for seed in 0..<3000 {
      var g = SeededGenerator(seed: UInt64(seed))
      let text = Self.spec(&g)
      guard let spec = try? AnimationSpec(parsing: text) else { continue }
      parsed += 1
      guard let curve = try? spec.curve(from: 0.0, to: 100.0) else { continue }
      let end = curve.duration.isFinite ? min(curve.duration, 1e6) : 10
      for k in 0...8 {
        let v = curve.value(at: end * Double(k) / 8)
        #expect(v.isFinite, "seed \(seed): \(text) at \(end * Double(k) / 8) gives \(v)")
      }
    }
    expectGreater(parsed, 100)
  }
}
