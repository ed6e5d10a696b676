import FlickExpectations
import FlickMotion
import Testing

@testable import FlickScene

/// On a layer property the animation started last shows, whichever API started it (UIKit, Pop
/// and Core Animation agree), and takes over the value and velocity on screen at its start. A
/// Pop call, chain, drive or ``LayerAnimation`` started after a property animator's animation on
/// the same property used to be drawn under it: the card went on to the animator's 200 while a
/// Pop spring sent it back to 80.
@Suite struct AnimationOrderTests {
  /// The join: a frame instant at 24, 60 and 120 fps.
  static let join = 1.0

  static func scene(fps: Int) -> Scene { PropertyAnimatorHandoverTests.scene(fps: fps, duration: 4) }

  static func x(_ scene: Scene, _ id: String = "card", at t: Double) -> Double {
    PropertyAnimatorHandoverTests.x(scene, id, at: t)
  }

  /// Value and velocity on both sides of the join at `t` (differences 10 µs apart), and the
  /// frame drawn at `t` (frame `t × fps`) against the value arriving there.
  static func expectJoin(
    _ scene: Scene, _ id: String = "card", at t: Double, _ label: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let arriving = PropertyAnimatorHandoverTests.expectContinuous(
      scene, id, at: t, label, moving: false, sourceLocation: sourceLocation)
    let frame = Int((t * Double(scene.fps)).rounded())
    let drawn = scene.renderTree(at: scene.time(ofFrame: frame)).layers.first { $0.id == id }?.position.x ?? .nan
    #expect(
      abs(drawn - arriving) < 0.05, "\(label): frame \(frame) draws \(drawn), \(arriving) arriving",
      sourceLocation: sourceLocation)
  }

  /// A property animator over the card's x, 80 → 200 in 2 s from 0 s, in each state it can be
  /// in at the join (1 s): the value and velocity it shows there.
  enum AnimatorState: String, CaseIterable {
    case running, paused, reversed, scrubbed, finished

    func add(to scene: inout Scene) {
      let duration = self == .finished ? 0.5 : 2
      scene.addPropertyAnimator(duration: duration) {
        $0.addAnimations(at: 0) { $0["card"].position = Point(x: 200, y: 100) }
        $0.startAnimation(at: 0)
        switch self {
        case .running, .finished: break
        case .paused: $0.pauseAnimation(at: 0.6)
        case .reversed: $0.setReversed(true, at: 0.6)
        case .scrubbed:
          $0.pauseAnimation(at: 0.3)
          $0.setFractionComplete(0.8, at: 0.6)
        }
      }
    }

    /// Whether the card moves at the join.
    var moves: Bool { self == .running || self == .reversed }
  }

  /// What can take a property over after a property animator, each started at `t`, and where
  /// it leaves the card's x by 3.9 s (nil: where the hand-over left it).
  enum Later: String, CaseIterable {
    case popSpring, popTween, popDecay, chainSpring, chainTween, chainDecay

    func add(to scene: inout Scene, at t: Double) {
      switch self {
      case .popSpring: scene.pop["card"].add(.spring(to: Point(x: 60, y: 100)), for: \.position, at: t)
      // From rest a tween starts at its curve's own slope: ease in-out starts at rest.
      case .popTween:
        scene.pop["card"].add(
          .tween(to: Point(x: 40, y: 100), duration: 0.5, curve: .easeInEaseOut), for: \.position, at: t)
      case .popDecay: scene.pop["card"].add(.decay(), for: \.position, at: t)
      case .chainSpring: scene.animate("card", at: t) { $0.position.target = Point(x: 60, y: 100) }
      case .chainTween:
        scene.animate("card", at: t) {
          $0.position.target = Point(x: 40, y: 100)
          $0.position.type = .tween(duration: 0.5, curve: .easeInEaseOut)
        }
      case .chainDecay: scene.animate("card", at: t) { $0.position.type = .decay() }
      }
    }

    var rest: Double? {
      switch self {
      case .popSpring, .chainSpring: 60
      case .popTween, .chainTween: 40
      case .popDecay, .chainDecay: nil
      }
    }
  }

  @Test(arguments: [24, 60, 120])
  func aPopCallOrChainAfterAPropertyAnimatorTakesOver(fps: Int) throws {
    for state in AnimatorState.allCases {
      for later in Later.allCases {
        var scene = Self.scene(fps: fps)
        state.add(to: &scene)
        let shown = Self.x(scene, at: Self.join)
        later.add(to: &scene, at: Self.join)
        try scene.validate()
        let label = "\(later) after a \(state) property animator at \(fps) fps"
        Self.expectJoin(scene, at: Self.join, label)
        expectEqual((Self.x(scene, at: Self.join) * 1e6).rounded() / 1e6, (shown * 1e6).rounded() / 1e6)
        let end = Self.x(scene, at: 3.9)
        if let rest = later.rest {
          #expect(abs(end - rest) < 0.5, "\(label): the card rests at \(end), not on \(rest)")
        } else if state.moves {
          // A decay coasts on with the animator's velocity: away from where the animator goes.
          let animatorAlone = Self.x(Self.alone(state, fps: fps), at: 3.9)
          #expect(abs(end - animatorAlone) > 1, "\(label): the card ends at \(end), the animator's \(animatorAlone)")
        } else {
          expectEqual((end * 1e6).rounded() / 1e6, (shown * 1e6).rounded() / 1e6)
        }
      }
    }
  }

  static func alone(_ state: AnimatorState, fps: Int) -> Scene {
    var scene = Self.scene(fps: fps)
    state.add(to: &scene)
    return scene
  }

  /// A `set`, a drive and a ``LayerAnimation`` are their own values: from their start they
  /// show those, not the property animator's.
  @Test(arguments: [24, 60, 120])
  func aSetADriveAndALayerAnimationAfterAPropertyAnimatorShow(fps: Int) throws {
    for state in AnimatorState.allCases {
      var set = Self.alone(state, fps: fps)
      set.pop["card"].set(\.position, to: Point(x: 30, y: 100), at: Self.join)
      expectEqual(Self.x(set, at: Self.join), 30)
      expectEqual(Self.x(set, at: 3.9), 30)

      var layerAnimation = Self.alone(state, fps: fps)
      layerAnimation.animations.append(
        LayerAnimation(layerID: "card", property: LayerProperty(\.position), beginTime: Self.join, duration: 1) {
          Point(x: 20 + 10 * min($0, 1), y: 100)
        })
      expectEqual(Self.x(layerAnimation, at: Self.join + 0.5), 25)
      expectEqual(Self.x(layerAnimation, at: 3.9), 30)

      var drive = Self.scene(fps: fps)
      drive.addPropertyAnimator(duration: 2) {
        $0.addAnimations(at: 0) { $0["badge"].position = Point(x: 200, y: 20) }
        $0.startAnimation(at: 0)
      }
      let progress = LayerProperty<Double>(
        name: "progress", threshold: 0.001, read: { $0.shadowOpacity }, write: { $0.shadowOpacity = $1 })
      drive.animate("card", at: Self.join) {
        $0[progress].target = 1
        $0[progress].type = .tween(duration: 1, curve: .linear)
        $0[progress].drive("badge", \.position) { Point(x: 300 * $0, y: 20) }
      }
      try drive.validate()
      expectEqual((Self.x(drive, "badge", at: Self.join + 0.5) * 1e6).rounded() / 1e6, 150)
      expectEqual(Self.x(drive, "badge", at: 3.9), 300)
    }
  }

  /// The other way round, at each frame rate: a property animator started after each kind
  /// takes over its value and velocity and shows from then on (its target, 200, at the end).
  @Test(arguments: [24, 60, 120])
  func aPropertyAnimatorAfterEachKindTakesOver(fps: Int) {
    let t = 0.5
    let kinds: [(String, (inout Scene) -> Void)] = [
      ("Pop spring", { $0.pop["card"].add(.spring(to: Point(x: 280, y: 100)), for: \.position, at: 0) }),
      (
        "Pop tween",
        { $0.pop["card"].add(.tween(to: Point(x: 280, y: 100), duration: 2, curve: .linear), for: \.position, at: 0) }
      ),
      ("Pop decay", { $0.pop["card"].add(.decay(velocity: Point(x: 300, y: 0)), for: \.position, at: 0) }),
      ("chain spring", { $0.animate("card", at: 0) { $0.position.target = Point(x: 280, y: 100) } }),
      (
        "chain tween",
        {
          $0.animate("card", at: 0) {
            $0.position.target = Point(x: 280, y: 100)
            $0.position.type = .tween(duration: 2)
          }
        }
      ),
      (
        "layer animation",
        {
          $0.animations.append(
            LayerAnimation(layerID: "card", property: LayerProperty(\.position), duration: 2) {
              Point(x: 80 + 100 * $0, y: 100)
            })
        }
      ),
      (
        "earlier property animator",
        {
          $0.addPropertyAnimator(duration: 2, timingParameters: .cubic(.linear)) {
            $0.addAnimations(at: 0) { $0["card"].position = Point(x: 280, y: 100) }
            $0.startAnimation(at: 0)
          }
        }
      ),
    ]
    for (name, add) in kinds {
      var scene = Self.scene(fps: fps)
      add(&scene)
      scene.addPropertyAnimator(duration: 1) {
        $0.addAnimations(at: t) { $0["card"].position = Point(x: 200, y: 100) }
        $0.startAnimation(at: t)
      }
      Self.expectJoin(scene, at: t, "property animator after a \(name) at \(fps) fps")
      #expect(abs(Self.x(scene, at: 3.9) - 200) < 1e-9, "\(name): the property animator's target shows at the end")
    }
  }

  /// Back and forth on one property: animator, Pop spring, animator again, chain; each join
  /// keeps value and velocity and each later one shows.
  @Test(arguments: [24, 60, 120])
  func handOversBackAndForth(fps: Int) throws {
    var scene = Self.scene(fps: fps)
    scene.addPropertyAnimator(duration: 2) {
      $0.addAnimations(at: 0) { $0["card"].position = Point(x: 280, y: 100) }
      $0.startAnimation(at: 0)
    }
    scene.pop["card"].add(.spring(to: Point(x: 40, y: 100)), for: \.position, at: 0.5)
    scene.addPropertyAnimator(duration: 1) {
      $0.addAnimations(at: 1) { $0["card"].position = Point(x: 240, y: 100) }
      $0.startAnimation(at: 1)
    }
    scene.animate("card", at: 1.5) {
      $0.position.target = Point(x: 120, y: 100)
      $0.position.type = .tween(duration: 1)
    }
    try scene.validate()
    for t in [0.5, 1, 1.5] { Self.expectJoin(scene, at: t, "join at \(t) s, \(fps) fps") }
    expectEqual(Self.x(scene, at: 3.9), 120)
  }

  /// Property animators' animations of one property show in the order they started, not the
  /// order the animators were added; at one instant a property animator is laid over a Pop call
  /// (it takes over from the value the call starts with).
  @Test func propertyAnimatorsInStartOrderAndTheSameInstant() {
    var scene = Self.scene(fps: 60)
    scene.addPropertyAnimator(duration: 1) {
      $0.addAnimations(at: 1) { $0["card"].position = Point(x: 40, y: 100) }
      $0.startAnimation(at: 1)
    }
    scene.addPropertyAnimator(duration: 1) {
      $0.addAnimations(at: 0.5) { $0["card"].position = Point(x: 240, y: 100) }
      $0.startAnimation(at: 0.5)
    }
    expectEqual(Self.x(scene, at: 3.9), 40)

    var tie = Self.scene(fps: 60)
    tie.pop["card"].add(.tween(to: Point(x: 300, y: 100), duration: 2, curve: .linear), for: \.position, at: 0.5)
    tie.addPropertyAnimator(duration: 1) {
      $0.addAnimations(at: 0.5) { $0["card"].position = Point(x: 200, y: 100) }
      $0.startAnimation(at: 0.5)
    }
    expectEqual(Self.x(tie, at: 0.5), 80)
    expectEqual(Self.x(tie, at: 3.9), 200)
  }
}
