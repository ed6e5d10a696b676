import FlickExpectations
import FlickScene
import FlickTemplates
import Testing

/// A `duration: "auto"` scene ends on the frame that shows it settled (the reviewer's file in
/// `Fixtures/timeline/`).
@Suite struct AutoDurationTests {
  static func path(_ name: String) -> String {
    FixturePaths.fixtures.appendingPathComponent("timeline/\(name)").path
  }

  /// A move ends at 0.5 s and a `set` after it shows `done`: at 10 fps the scene has 6 frames,
  /// the last at 0.5 s shows `done` (it had 5, 0…0.4 s, and never showed it).
  @Test func anAutomaticDurationRendersTheSettledState() throws {
    let template = try Template.load(path: Self.path("auto-set-after.json5"))
    let scene = template.scene
    expectEqual(scene.frameCount, 6)
    expectEqual(scene.duration, 0.6)
    let last = scene.renderTree(at: scene.time(ofFrame: scene.frameCount - 1))
    expectEqual(last.time, 0.5)
    expectEqual(last.layer(id: "done")?.opacity, 1)
    expectEqual(last.layer(id: "a")?.position.x, 12)
  }

  /// The last frame of an automatic duration is the first frame at or after the settle instant,
  /// for settle instants on and between frames. A sum that rounds a few ulps past a frame (0.1 +
  /// 0.2 is 0.30000000000000004) settles on it: the `set` placed `after` shows at that frame, the
  /// last (the scene had one frame more, and showed the set only there); one that rounds below it
  /// (0.1 + 0.7 is 0.7999999999999999) too.
  @Test func anAutomaticDurationEndsOnTheFrameAfterItSettles() throws {
    for (at, duration, fps, frames) in [
      (0.2, 0.5, 10, 8), (0.0, 0.55, 10, 7), (0.1, 0.2, 10, 4), (0.0, 1.0, 60, 61), (0.25, 0.5, 30, 24),
      (0.1, 0.2, 60, 19), (0.1, 0.7, 60, 49), (0.05, 0.1, 120, 19), (0.1, 0.2, 30, 10), (0.1, 0.7, 24, 21),
    ] {
      let t = try Template.decode(
        """
        { flick: 1, canvas: { width: 10, height: 10, fps: \(fps), duration: "auto" },
          layers: [ { id: "a" }, { id: "b", opacity: 0 } ],
          timeline: [ { id: "m", at: \(at), target: "a", animate: { positionX: 5 }, curve: "linear", duration: \(duration) },
                      { after: "m", target: "b", set: { opacity: 1 } } ] }
        """, file: "auto.json5")
      let s = t.scene
      expectEqual(s.frameCount, frames, "at \(at) for \(duration) at \(fps) fps")
      expectEqual(s.renderTree(at: s.time(ofFrame: frames - 1)).layer(id: "b")?.opacity, 1)
      expectEqual(s.renderTree(at: s.time(ofFrame: frames - 2)).layer(id: "b")?.opacity, 0)
    }
  }

  /// An animation a later one of the same property takes over settles where it is taken over:
  /// a 5 s tween taken over at 0.5 s by a 0.3 s one settles at 0.8 s (the scene lasted 5.1 s,
  /// its last 42 frames one still), and a `spin` that would run forever ends where a `spin` to 0
  /// takes it over (it was refused as "runs forever"). One that does not take the property over
  /// (another property, or `positionX` under a `position` tween) leaves it running.
  @Test func anAnimationTakenOverSettlesWhereItIsTakenOver() throws {
    for (timeline, frames) in [
      (
        #"""
        { at: 0, target: "w", animate: { positionX: 90 }, duration: 5, curve: "linear" },
        { at: 0.5, target: "w", animate: { positionX: 30 }, duration: 0.3, curve: "easeOut" }
        """#, 9
      ),
      (
        #"""
        { id: "up", at: 0.2, target: "w", spin: { to: "300deg", duration: 0.5 } },
        { id: "down", at: 0.8, target: "w", spin: { to: 0, duration: 0.6, curve: "easeOut" } },
        { after: "down", target: "w", set: { backgroundColor: "#FF0000" } }
        """#, 15
      ),
      (
        #"""
        { at: 0, target: "w", animate: { positionX: 90 }, duration: 5, curve: "linear" },
        { at: 0.5, target: "w", animate: { positionY: 30 }, duration: 0.3, curve: "easeOut" }
        """#, 51
      ),
      (
        #"""
        { at: 0, target: "w", animate: { position: [90, 90] }, duration: 5, curve: "linear" },
        { at: 0.5, target: "w", animate: { positionX: 30 }, duration: 0.3, curve: "easeOut" }
        """#, 51
      ),
    ] {
      let t = try Template.decode(
        """
        { flick: 1, canvas: { width: 100, height: 100, fps: 10, duration: "auto" },
          layers: [ { id: "w", size: [20, 20], position: [20, 50] } ],
          timeline: [ \(timeline) ] }
        """, file: "auto-taken-over.json5")
      expectEqual(t.scene.frameCount, frames, "\(timeline)")
    }
  }
}
