import FlickExpectations
import Foundation
import Testing

@testable import FlickMotion

/// Device-faithful stepping: Pop's RK4 + accumulator + write-back, GPUAnimation's one Euler step
/// per frame; deterministic, seekable, reachable from specs.
@Suite struct SteppingTests {
  /// The largest distance from the closed form over the frames, as a fraction of the travel.
  static func deviation(_ stepping: Stepping, _ p: SpringParameters) -> Double {
    let fps = stepping.fps!
    let stepped = SteppedSpring(from: 0.0, to: 100, parameters: p, stepping: stepping)
    let exact = SpringAnimation(from: 0.0, to: 100, parameters: p)
    var worst = 0.0
    var n = 0
    while Double(n) / fps <= max(stepped.duration, exact.duration) {
      let t = Double(n) / fps
      worst = max(worst, abs(stepped.value(at: t) - exact.value(at: t)) / 100)
      n += 1
    }
    return worst
  }

  /// Pop's default spring at t = 0.1 s, from the reference's replay of `SpringSolver::advance`:
  /// analytic 61.67, 30 fps 60.43, 60 fps 59.80, 120 fps 56.56.
  @Test(arguments: [(30.0, 60.43), (60, 59.80)])
  func popMatchesItsOwnArithmetic(fps: Double, expected: Double) {
    let s = SteppedSpring(from: 0.0, to: 100, parameters: .popDefault, stepping: .pop(fps: fps))
    expectLess(abs(s.value(at: 0.1) - expected), 0.02, "\(fps) fps: \(s.value(at: 0.1))")
  }

  /// At 120 fps Pop's result hinges on how frame times round against `0.001f` (every third
  /// frame ends within 10⁻⁹ s of a solver step): with dt = 1/120 exactly Flick gets 58.52 (clock
  /// 0.959); the reference's replay, with other timestamp rounding, 56.56 (clock 0.92).
  @Test func pop120() {
    let s = SteppedSpring(from: 0.0, to: 100, parameters: .popDefault, stepping: .pop(fps: 120))
    expectLess(abs(s.value(at: 0.1) - 58.5157), 0.001)
  }

  /// GPUAnimation at 30 fps, t = 0.1 s: 85.9 (the reference) against 62.9 analytic.
  @Test func gpuAnimationMatchesItsOwnArithmetic() {
    let s = SteppedSpring(from: 0.0, to: 100, parameters: .gpuAnimation, stepping: .gpuAnimation(fps: 30))
    expectLess(abs(s.value(at: 0.1) - 85.9), 0.05, "\(s.value(at: 0.1))")
    expectLess(abs(SpringAnimation(from: 0.0, to: 100, parameters: .gpuAnimation).value(at: 0.1) - 62.9), 0.05)
  }

  @Test func measuredDifferences() {
    var lines: [String] = []
    for fps in [30.0, 60, 120] {
      let pop = Self.deviation(.pop(fps: fps), .popDefault)
      let stiff = Self.deviation(.pop(fps: fps), SpringParameters(mass: 1, stiffness: 2000, damping: 20))
      let gpu = Self.deviation(.gpuAnimation(fps: fps), .gpuAnimation)
      lines.append(
        String(
          format: "%.0f fps: pop default %.2f %%, pop 2000/20 %.2f %%, gpuanimation 200/10 %.2f %%", fps, pop * 100,
          stiff * 100, gpu * 100))
      expectGreater(pop, 0.001)
      expectLess(pop, 0.2)
      expectGreater(gpu, 0.01)
    }
    print("stepping deviation from the closed form (max over frames, % of travel):\n" + lines.joined(separator: "\n"))
  }

  @Test func deterministicAndSeekable() {
    let a = SteppedSpring(from: 0.0, to: 100, parameters: .popDefault, stepping: .pop(fps: 60))
    let b = SteppedSpring(from: 0.0, to: 100, parameters: .popDefault, stepping: .pop(fps: 60))
    let times = (0...90).map { Double($0) / 60 }
    expectEqual(times.map(a.value(at:)), times.reversed().map(b.value(at:)).reversed())
    // A frame holds until the next one: the device shows no in-between values.
    expectEqual(a.value(at: 10 / 60.0), a.value(at: 10.5 / 60))
    expectNotEqual(a.value(at: 10 / 60.0), a.value(at: 11 / 60.0))
    // It comes to rest and snaps to the target, at a frame time.
    expectEqual(a.value(at: a.duration), 100)
    expectEqual(a.velocity(at: a.duration), 0)
    expectLess(abs(a.duration * 60 - (a.duration * 60).rounded()), 1e-9)
  }

  @Test func restRules() {
    // GPUAnimation stops when every component's |v| and |x − target| ≤ threshold.
    let g = SteppedSpring(
      from: Point(x: 0, y: 0), to: Point(x: 100, y: 10), parameters: .gpuAnimation, threshold: 0.01,
      stepping: .gpuAnimation(fps: 60))
    expectEqual(g.value(at: g.duration), Point(x: 100, y: 10))
    // A looser threshold rests sooner.
    let loose = SteppedSpring(
      from: 0.0, to: 100, parameters: .gpuAnimation, threshold: 1, stepping: .gpuAnimation(fps: 60))
    let tight = SteppedSpring(
      from: 0.0, to: 100, parameters: .gpuAnimation, threshold: 0.001, stepping: .gpuAnimation(fps: 60))
    expectLess(loose.duration, tight.duration)
  }

  @Test func animatorDrivesASteppedSpring() throws {
    var a = Animator(model: Model())
    try a.spring(
      AnimatorTests.kx, property: AnimatorTests.x, to: 100, parameters: .popDefault, stepping: .pop(fps: 60), at: 0)
    let direct = SteppedSpring(from: 0.0, to: 100, parameters: .popDefault, threshold: 0.01, stepping: .pop(fps: 60))
    for n in 0...60 { expectEqual(a.sample(at: Double(n) / 60).x, direct.value(at: Double(n) / 60)) }
  }

  @Test func specSyntax() throws {
    let pop = try AnimationSpec(parsing: "spring(bounciness: 8, speed: 12, stepping: pop, fps: 120)")
    expectEqual(pop.stepping, .pop(fps: 120))
    let gpu = try AnimationSpec(parsing: "spring(stiffness: 200, damping: 10, stepping: gpuanimation)")
    expectEqual(gpu.stepping, .gpuAnimation(fps: 60))
    let curve = try gpu.curve(from: 0.0, to: 100)
    let direct = SteppedSpring(from: 0.0, to: 100, parameters: .gpuAnimation, stepping: .gpuAnimation(fps: 60))
    expectEqual(curve.value(at: 0.1), direct.value(at: 0.1))
    try expectEqual(AnimationSpec(parsing: "spring").stepping, .analytic)
    #expect(throws: MotionError.self) { try AnimationSpec(parsing: "easeOut(stepping: pop)") }
    #expect(throws: MotionError.self) { try AnimationSpec(parsing: "spring(stepping: pop, fps: 0)") }
    #expect(throws: MotionError.self) { try AnimationSpec(parsing: "spring(stepping: euler)") }
    #expect(throws: MotionError.self) { try AnimationSpec(parsing: "spring(stepping: analytic, fps: 60)") }
  }
}
