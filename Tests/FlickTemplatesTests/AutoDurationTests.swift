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
}
