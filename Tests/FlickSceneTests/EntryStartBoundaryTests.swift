import FlickExpectations
import FlickMotion
import FlickScene
import FlickTestSupport
import Testing

/// Every kind of entry of the Swift API whose start is a sum of decimal seconds shows at the frame
/// of that instant: 0.1 + 0.2 is 0.30000000000000004, and an entry placed after motions of 0.1 s
/// and 0.2 s missed the frame at 0.3 s (frame 18 at 60 fps), which still showed the value from
/// before it; sums that round below the frame time (0.1 + 0.7 = 0.7999999999999999) show there too.
@Suite struct EntryStartBoundaryTests {
  /// Sums a few ulps above and below their frame's time, at 24, 30, 60 and 120 fps.
  typealias Case = BoundarySum
  static let cases = BoundarySum.cases

  @Test func theCasesStraddleTheirFrames() {
    for c in Self.cases {
      #expect(c.sum != c.time, "\(c)")
      expectLessOrEqual(abs(c.sum - c.time), 2 * c.time.ulp, "\(c)")
    }
    #expect(Self.cases.contains { $0.sum > $0.time } && Self.cases.contains { $0.sum < $0.time })
  }

  static let key = AnimationKey(object: "dot", key: "positionX")
  /// A linear tween from 500 to 600 in 1 s: at its start 500 at 100 u/s.
  static let jump = PopAnimation<Double>(motion: .tween(duration: 1, curve: .linear), toValue: 600, fromValue: 500)

  static func scene(_ c: Case) -> Scene {
    Scene(
      size: Size(width: 100, height: 100), fps: c.fps, duration: 2,
      layers: [Layer(id: "dot", position: Point(x: 100, y: 0))])
  }

  static func x(_ scene: Scene, at t: Double) -> Double? { scene.renderTree(at: t).layer(id: "dot")?.position.x }

  static func velocity(_ scene: Scene, at t: Double) -> Double? {
    scene.animator?.velocity(of: key, as: Double.self, at: t)
  }

  /// The Pop calls: `add` at a summed time, after a delay (`beginTime`), from a completion
  /// handler, and `set`. Each shows its start (500, at 100 u/s; a `set` 500) at the frame.
  @Test(arguments: cases) func popEntriesStartAtTheFrame(_ c: Case) throws {
    var at = Self.scene(c)
    at.pop["dot"].add(Self.jump, for: .positionX, at: c.sum)
    var delayed = Self.scene(c)
    var late = Self.jump
    late.beginTime = c.last
    delayed.pop["dot"].add(late, for: .positionX, at: c.lead)
    var completed = Self.scene(c)
    completed.pop["dot"].add(
      .tween(to: 50, duration: c.last, curve: .linear), for: .positionX, at: c.lead,
      whenCompleted: { _, next in next.pop["dot"].add(Self.jump, for: .positionX) })
    var set = Self.scene(c)
    set.pop["dot"].add(.tween(to: 50, duration: c.last, curve: .linear), for: .positionX, at: c.lead)
    set.set(.positionX, of: "dot", to: 500, at: c.sum)
    for (name, scene) in [("add", at), ("beginTime", delayed), ("whenCompleted", completed), ("set", set)] {
      try scene.validate()
      let x = try #require(Self.x(scene, at: c.time))
      expectLess(abs(x - 500), 1e-9, "\(name), \(c): \(x)")
      // The velocity of the entry at its start (a tween takes over the velocity arriving there).
      let velocity = try #require(Self.velocity(scene, at: c.time))
      let start = try #require(Self.velocity(scene, at: c.sum))
      expectLess(abs(velocity - start), 1e-6, "\(name), \(c): \(velocity) u/s, \(start) at its start")
    }
  }

  /// A GPUAnimation-style chain: the next group starts when the previous one (`last` seconds)
  /// completes, after a `delay` too; it takes over at 50 and tweens to 600 in 1 s (550 u/s).
  @Test(arguments: cases) func chainGroupsStartAtTheFrame(_ c: Case) throws {
    let first = LayerChain.animate("dot") {
      $0[.positionX].target = 50
      $0[.positionX].type = .tween(duration: c.last, curve: .linear)
    }
    let next: (inout LayerAnimations) -> Void = {
      $0[.positionX].target = 600
      $0[.positionX].type = .tween(duration: 1, curve: .linear)
    }
    var then = Self.scene(c)
    then.run(first.then.animate("dot", next), at: c.lead)
    // The delay is the last part: the first group lasts the others but the first, from the first.
    var delayed = Self.scene(c)
    let head = c.parts.dropFirst().dropLast().reduce(0, +)
    let lead = LayerChain.animate("dot") {
      $0[.positionX].target = 50
      $0[.positionX].type = .tween(duration: head, curve: .linear)
    }
    delayed.run(lead.delay(c.last).animate("dot", next), at: c.parts[0])
    for (name, scene) in [("then", then), ("delay", delayed)] {
      try scene.validate()
      let x = try #require(Self.x(scene, at: c.time))
      expectLess(abs(x - 50), 1e-9, "\(name), \(c): \(x)")
      let velocity = try #require(Self.velocity(scene, at: c.time))
      let start = try #require(Self.velocity(scene, at: c.sum))
      expectLess(abs(velocity - start), 1e-6, "\(name), \(c): \(velocity) u/s, \(start) at its start")
    }
  }

  /// A property animator started at a summed time, or after a delay: running at the frame, its
  /// linear progress rising at 1 per second.
  @Test(arguments: cases) func propertyAnimatorsStartAtTheFrame(_ c: Case) throws {
    for afterDelay in [false, true] {
      var scene = Self.scene(c)
      let animator = scene.addPropertyAnimator(duration: 1, timingParameters: .cubic(.linear)) {
        $0.addAnimations(at: 0) { $0["dot"][.positionX] = 600 }
        if afterDelay { $0.startAnimation(afterDelay: c.last, at: c.lead) } else { $0.startAnimation(at: c.sum) }
      }
      try scene.validate()
      #expect(animator.isRunning(at: c.time), "delay \(afterDelay), \(c)")
      expectLess(abs(animator.progressVelocity(at: c.time) - 1), 1e-9, "delay \(afterDelay), \(c)")
    }
  }

  /// `LayerAnimation`s begun at a summed time, through a `TimedAnimation`'s begin time, or after
  /// a `TimedAnimation`'s delay: each shows its start value, 500, at the frame.
  @Test(arguments: cases) func layerAnimationsStartAtTheFrame(_ c: Case) throws {
    let tween = BasicAnimation(from: 500.0, to: 600, duration: 1, timingFunction: .linear)
    let animations = [
      ("beginTime", LayerAnimation(layerID: "dot", property: .positionX, curve: tween, beginTime: c.sum)),
      (
        "timed",
        LayerAnimation(
          layerID: "dot", property: .positionX, timed: TimedAnimation(tween, timing: MediaTiming(beginTime: c.sum)))
      ),
      (
        "delay",
        LayerAnimation(
          layerID: "dot", property: .positionX, curve: TimedAnimation(tween, timing: MediaTiming(beginTime: c.last)),
          beginTime: c.lead)
      ),
    ]
    for (name, animation) in animations {
      var scene = Self.scene(c)
      scene.animations = [animation]
      let x = try #require(Self.x(scene, at: c.time))
      expectLess(abs(x - 500), 1e-9, "\(name), \(c): \(x)")
    }
  }

  /// Playback fires a start summed a few ulps after a frame at that frame, once.
  @Test(arguments: cases) func playbackFiresTheStartAtTheFrame(_ c: Case) throws {
    var scene = Self.scene(c)
    scene.pop["dot"].add(Self.jump, for: .positionX, at: c.sum)
    var animator = try #require(scene.animator)
    var starts: [Int] = []
    for frame in 0...(c.frame + 2) {
      let fired = try animator.advance(to: Double(frame) / Double(c.fps))
      starts += fired.filter { $0.kind == .start }.map { _ in frame }
    }
    expectEqual(starts, [c.frame], "\(c)")
  }
}
