import FlickExpectations
import FlickMotion
import Testing

@testable import FlickScene

/// Motion parameters that cannot be honoured — a tween's duration that is negative or not
/// finite, a decay's deceleration outside 0 < d < 1, a property animator's duration that is
/// negative or not finite — are scene errors naming the call, as non-finite targets are. They
/// used to be replaced by a default without a word.
@Suite struct MotionParameterProblemTests {
  static func scene() -> Scene {
    Scene(
      size: Size(width: 320, height: 200), fps: 30, duration: 2,
      layers: [Layer(id: "card", bounds: Rect(x: 0, y: 0, width: 120, height: 80), position: Point(x: 80, y: 100))])
  }

  static func problem(_ scene: Scene) -> String? {
    do {
      try scene.validate()
      return nil
    } catch {
      return error.description
    }
  }

  @Test(arguments: [-1, Double.nan, .infinity])
  func aPopTweenDurationMustBeFiniteAndNotNegative(duration: Double) {
    var scene = Self.scene()
    scene.pop["card"].add(.tween(to: Point(x: 240, y: 100), duration: duration), for: \.position, at: 0)
    let problem = Self.problem(scene)
    #expect(
      problem?.contains("pop[\"card\"].add(tween, for: position, at: 0.0)") == true, "\(String(describing: problem))")
    #expect(problem?.contains("a tween's duration must be a finite number of seconds ≥ 0") == true)
  }

  @Test(arguments: [1.5, 1, 0, -0.5, Double.nan])
  func aDecayDecelerationMustBeBetweenZeroAndOne(deceleration: Double) {
    var scene = Self.scene()
    scene.pop["card"].add(.decay(velocity: Point(x: 500, y: 0), deceleration: deceleration), for: \.position, at: 0)
    let problem = Self.problem(scene)
    #expect(
      problem?.contains("a decay's deceleration must be above 0 and below 1") == true, "\(String(describing: problem))")
  }

  @Test func aChainEntryWithAnUnusableMotionIsRefused() {
    var scene = Self.scene()
    scene.animate("card", at: 0) {
      $0.position.target = Point(x: 240, y: 100)
      $0.position.type = .tween(duration: -1)
    }
    let problem = Self.problem(scene)
    #expect(problem?.contains("position of \"card\": a tween's duration") == true, "\(String(describing: problem))")
  }

  @Test(arguments: [-1, Double.nan, -Double.infinity])
  func aPropertyAnimatorDurationMustBeFiniteAndNotNegative(duration: Double) throws {
    var scripted = Self.scene()
    scripted.addPropertyAnimator(duration: duration) {
      $0.addAnimations(at: 0) { $0["card"].position = Point(x: 240, y: 100) }
      $0.startAnimation(at: 0)
    }
    let problem = Self.problem(scripted)
    #expect(problem?.contains("add(propertyAnimator[0])") == true, "\(String(describing: problem))")
    #expect(problem?.contains("the duration must be a finite number of seconds ≥ 0") == true)
    var made = Self.scene()
    made.add(made.makePropertyAnimator(duration: duration))
    #expect(Self.problem(made)?.contains("the duration must be a finite number") == true)
  }

  @Test func usableParametersStillPass() throws {
    var scene = Self.scene()
    scene.pop["card"].add(.tween(to: Point(x: 240, y: 100), duration: 0), for: \.position, at: 0)
    scene.pop["card"].add(.decay(velocity: Point(x: 500, y: 0)), for: \.position, at: 0.5)
    scene.addPropertyAnimator(duration: 0) { $0.addAnimations(at: 1) { $0["card"].opacity = 0 } }
    try scene.validate()
  }
}
