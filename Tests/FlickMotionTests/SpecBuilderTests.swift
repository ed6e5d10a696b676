import FlickExpectations
import Foundation
import Testing

@testable import FlickMotion

/// Typed specs: Pop's tension/friction/mass (defect 5), structured `MotionError` columns, the
/// typed builder shared by spec strings, templates and Swift, and the parser's depth limit.
@Suite struct SpecBuilderTests {
  /// Defect 5: Pop's own `spring(tension:, friction:, mass:)` is one family, not a mix.
  @Test func popTensionFrictionMass() throws {
    let spec = try AnimationSpec(parsing: "spring(tension: 300, friction: 12, mass: 3)")
    guard case .spring(let p, _, _, _) = spec.kind else {
      Issue.record("expected a spring")
      return
    }
    expectEqual(p, SpringParameters.pop(tension: 300, friction: 12, mass: 3))
    expectEqual(p.stiffness, 300)
    expectEqual(p.damping, 12)
    expectEqual(p.mass, 3)
    // The same through Swift and through the typed builder.
    let built = try AnimationSpec(
      name: "spring",
      arguments: [
        SpecArgument(label: "tension", value: .number(300)), SpecArgument(label: "friction", value: .number(12)),
        SpecArgument(label: "mass", value: .number(3)),
      ])
    expectEqual(built.kind, spec.kind)
    // Mass goes with every physical family.
    for text in [
      "spring(stiffness: 200, damping: 10, mass: 2)", "spring(duration: 0.5, bounce: 0.2, mass: 2)",
      "spring(response: 0.5, dampingRatio: 0.8, mass: 2)", "spring(mass: 2)",
    ] {
      guard case .spring(let q, _, _, _) = try AnimationSpec(parsing: text).kind else { continue }
      expectEqual(q.mass, 2, "\(text)")
    }
    // Real mixes are still errors; mass with a designer family names mass.
    #expect(throws: MotionError.self) { try AnimationSpec(parsing: "spring(tension: 300, stiffness: 10)") }
    do {
      _ = try AnimationSpec(parsing: "spring(bounciness: 8, mass: 2)")
      Issue.record("mass with bounciness must be an error")
    } catch {
      #expect(error.message.contains("'mass' does not apply"))
      expectEqual(error.column, 29)  // the value given for mass
    }
  }

  @Test func errorsCarryTheirColumnStructured() {
    do {
      _ = try AnimationSpec(parsing: "spring(bounciness: 30)")
      Issue.record("expected an error")
    } catch {
      expectEqual(error.column, 20)
      expectEqual(error.argument, "bounciness")
      expectEqual(error.message, "'bounciness' in spring(…) must be in 0…20, found 30")
      expectEqual(error.description, "column 20: " + error.message)
      expectEqual(error.shifted(by: 10).column, 30)
    }
    // Built without text: no column, but the argument at fault.
    do {
      _ = try AnimationSpec(name: "spring", arguments: [SpecArgument(label: "bounciness", value: .number(30))])
      Issue.record("expected an error")
    } catch {
      #expect(error.column == nil)
      expectEqual(error.argument, "bounciness")
      expectEqual(error.description, error.message)
    }
  }

  @Test func builderMatchesParsing() throws {
    let texts = [
      "spring(bounciness: 8, speed: 12)", "decay(velocity: 1000, deceleration: 0.99, min: 0, max: 300)",
      "easeOut(duration: 0.3, delay: 0.2)", "steps(4, jumpStart, duration: 1)", "backOut(overshoot: 2)",
      "keyframes(values: [0, 1.2, 1], keyTimes: [0, 0.6, 1], curves: [easeOut, easeIn], duration: 0.8)",
    ]
    for text in texts {
      let parsed = try AnimationSpec(parsing: text)
      guard case .call(let name, let args, _) = try SpecExpression.parse(text) else { continue }
      let built = try AnimationSpec(name: name, arguments: args ?? [])
      expectEqual(built.kind, parsed.kind, "\(text)")
      expectEqual(built.timing, parsed.timing, "\(text)")
    }
  }

  /// A release: `decay` without a velocity takes the hand-over's; a spring without one too.
  @Test func curveFromAHandoff() throws {
    let handoff = Handoff(value: 40.0, velocity: 800.0, time: 1)
    let decay = try AnimationSpec(parsing: "decay", options: .velocityFromHandoff)
    #expect(!decay.velocityIsGiven)
    let c = try decay.curve(from: handoff, to: 40)
    expectEqual(c.value(at: 0), 40)
    expectLess(abs(c.velocity(at: 0) - 800), 1e-9)  // C¹: the decay starts at exactly the hand-over's velocity
    let band = try AnimationSpec(parsing: "decay(min: 0, max: 100)", options: .velocityFromHandoff).curve(
      from: handoff, to: 40)
    expectGreater(band.velocity(at: 0), 700)
    let given = try AnimationSpec(parsing: "decay(velocity: -100)", options: .velocityFromHandoff)
    #expect(given.velocityIsGiven)
    try expectLess(given.curve(from: handoff, to: 40).velocity(at: 0), 0)
    let spring = try AnimationSpec(parsing: "spring").curve(from: handoff, to: 100)
    expectEqual(spring.velocity(at: 0), 800)
    let tween = try AnimationSpec(parsing: "easeOut(duration: 0.5)").curve(from: handoff, to: 100)
    expectLess(abs(tween.velocity(at: 0) - 800), 1e-9)
    expectEqual(tween.value(at: 0.5), 100)
    #expect(throws: MotionError.self) { try AnimationSpec(parsing: "decay") }  // without the option: as before
  }

  /// From issue 13: nesting is bounded; 100,000-deep input is an error with a column, not a crash.
  @Test(arguments: [
    String(repeating: "a(", count: 100_000), String(repeating: "[", count: 100_000),
    "spring(velocity: " + String(repeating: "f(", count: 100_000),
    String(repeating: "(", count: 100_000), String(repeating: "-", count: 100_000) + "1",
    "keyframes(values: " + String(repeating: "[", count: 50_000) + String(repeating: "]", count: 50_000) + ")",
  ])
  func deepInputIsAnError(_ text: String) {
    do {
      _ = try AnimationSpec(parsing: text)
      Issue.record("deep input must be rejected")
    } catch {
      #expect(error.column != nil)
      expectLessOrEqual(error.column!, 2 * SpecExpression.maximumDepth + 20)
    }
  }

  @Test func depthLimitLeavesRealSpecsAlone() throws {
    let nested =
      String(repeating: "[", count: SpecExpression.maximumDepth - 1) + "1"
      + String(repeating: "]", count: SpecExpression.maximumDepth - 1)
    _ = try SpecExpression.parse(nested)
    #expect(throws: MotionError.self) { try SpecExpression.parse("[" + nested + "]") }
  }
}
