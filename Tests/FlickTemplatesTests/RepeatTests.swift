import FlickExpectations
import FlickMotion
import FlickScene
import FlickTemplates
import Testing

/// `repeat` (a count or "forever") and `autoreverses` on groups and sequences: each iteration
/// starts when the previous one has settled and takes over from where it left the layers (value
/// and velocity: a tween continues the velocity it is handed, so these loops use curves that
/// arrive at rest and their iterations repeat exactly).
@Suite struct RepeatTests {
  static func x(_ s: Scene, _ t: Double) -> Double { TimelineTests.x(s, "a", t) }

  @Test func aSequenceRepeatsACountOfTimesOneAfterTheOther() throws {
    let s = try TimelineTests.scene(
      """
      [ { id: "loop", repeat: 3, sequence: [
          { id: "out", target: "a", animate: { positionX: 200 }, curve: "easeInEaseOut", duration: 0.5 },
          { target: "a", animate: { positionX: 100 }, curve: "easeInEaseOut", duration: 0.5 } ] },
        { after: "loop", target: "b", animate: { opacity: 0 }, duration: 0.5 } ]
      """)
    #expect(TimelineTests.near(Self.x(s, 0.25), 150))
    #expect(TimelineTests.near(Self.x(s, 1.25), 150))
    #expect(TimelineTests.near(Self.x(s, 2.75), 150))
    expectEqual(Self.x(s, 3.5), 100)
    expectEqual(s.animations.first { $0.layerID == "b" }?.beginTime, 3)
    expectEqual(s.animations.filter { $0.layerID == "a" }.count, 6)
  }

  @Test func autoreversesPlaysEachIterationBackwards() throws {
    var template = try Template.decode(
      """
      { flick: 1, canvas: { width: 400, height: 400, duration: "auto" },
        layers: [{ id: "a", size: [10, 10], position: [100, 100] }, { id: "b", size: [10, 10] }],
        timeline: [
          { id: "pulse", repeat: 2, autoreverses: true, group: [
              { target: "a", animate: { positionX: 300 }, curve: "easeIn", duration: 1 },
              { target: "a", animate: { opacity: 0.5 }, curve: "linear", duration: 0.5 } ] },
          { after: "pulse", target: "b", animate: { opacity: 0 }, duration: 0.25 } ] }
      """, file: "t.json5")
    let s = template.scene
    let easeIn = TimingFunction.easeIn
    for t in [0.2, 0.5, 0.9] {
      let forward = 100 + 200 * easeIn.progress(at: t)
      #expect(TimelineTests.near(Self.x(s, t), forward, 1e-9))
      #expect(TimelineTests.near(Self.x(s, 2 - t), forward, 1e-9), "backwards at \(2 - t) s")
      #expect(TimelineTests.near(Self.x(s, 2 + t), forward, 1e-9), "second iteration at \(2 + t) s")
      #expect(TimelineTests.near(Self.x(s, 4 - t), forward, 1e-9))
    }
    #expect(TimelineTests.near(TimelineTests.opacity(s, "a", 1.25), 0.5))  // mirrors 0.75 s: the fade had ended
    #expect(TimelineTests.near(TimelineTests.opacity(s, "a", 1.9), 0.9))  // mirrors 0.1 s
    expectEqual(Self.x(s, 4.1), 100)
    expectEqual(s.animations.first { $0.layerID == "b" }?.beginTime, 4)
    #expect(TimelineTests.near(s.duration, TimelineTests.autoEnd(4.25)))
    // Velocity is mirrored: at 1.5 s the layer moves left as fast as it moved right at 0.5 s.
    let p = AnyLayerProperty.named("positionX")!
    let v = template.tracks.trace(p, layerID: "a", at: [0.5, 1.5, 2.5])
    #expect(TimelineTests.near(v[1].velocity[0], -v[0].velocity[0], 1e-6))
    #expect(TimelineTests.near(v[2].velocity[0], v[0].velocity[0], 1e-6))
  }

  @Test func foreverRepeatsUntilTheSceneEnds() throws {
    func template(_ duration: String, _ after: String = "") throws -> Scene {
      try Template.decode(
        """
        { flick: 1, canvas: { width: 400, height: 400, duration: \(duration) },
          layers: [{ id: "a", size: [10, 10], position: [100, 100] }],
          timeline: [ { id: "swing", repeat: "forever", autoreverses: true, sequence: [
              { target: "a", animate: { positionX: 300 }, curve: "easeInEaseOut", duration: 0.5 } ] } \(after) ] }
        """, file: "t.json5"
      ).scene
    }
    let s = try template("3")
    for k in 0..<3 {
      let t = Double(k)
      #expect(TimelineTests.near(Self.x(s, t + 0.25), 200), "out at \(t + 0.25) s")
      #expect(TimelineTests.near(Self.x(s, t + 0.75), 200), "back at \(t + 0.75) s")
      #expect(TimelineTests.near(Self.x(s, t + 0.5), 300))
    }
    expectEqual(s.animations.count, 6)  // 3 round trips fill the 3 s scene
    func message(_ body: () throws -> Scene) -> String {
      do {
        _ = try body()
        return ""
      } catch {
        return "\(error)"
      }
    }
    #expect(message { try template("\"auto\"") }.contains("needs a canvas duration in seconds"))
    #expect(
      message { try template("3", ", { after: \"swing\", target: \"a\", animate: { opacity: 0 } }") }.contains(
        "never ends"))
  }

  @Test func repeatMistakes() {
    #expect(
      TimelineTests.message("[{ repeat: 0, group: [{ target: 'a', animate: { opacity: 0 } }] }]").contains("expected"))
    #expect(
      TimelineTests.message("[{ repeat: 'often', group: [{ target: 'a', animate: { opacity: 0 } }] }]").contains(
        "forever"))
    #expect(
      TimelineTests.message("[{ repeat: 2, group: [{ target: 'a', set: { opacity: 0 } }] }]").contains(
        "must take some time"))
    #expect(
      TimelineTests.message("[{ repeat: 2, target: 'a', animate: { opacity: 0 } }]").contains("'repeat' does not apply")
    )
  }

  /// Ids inside a repeated sequence name the current iteration's entries.
  @Test func idsInsideARepeatNameTheCurrentIteration() throws {
    let s = try TimelineTests.scene(
      """
      [ { repeat: 2, group: [
          { id: "go", target: "a", animate: { positionX: 200 }, curve: "linear", duration: 0.5 },
          { after: "go", target: "a", animate: { positionX: 100 }, curve: "linear", duration: 0.5 } ] } ]
      """)
    expectEqual(s.animations.map(\.beginTime), [0, 0.5, 1, 1.5])
  }

  /// Nested repeats multiply: a repeat of delays compiles no animation, so only a budget of
  /// iterations keeps `repeat: 100000` inside `repeat: 100000` from running for hours.
  @Test func nestedRepeatsOfDelaysFailFastOnTheIterationBudget() throws {
    let error = #expect(throws: TemplateError.self) {
      try TimelineTests.scene(
        """
        [ { repeat: 100000, sequence: [ { repeat: 100000, sequence: [ { delay: 0.001 } ] } ] } ]
        """)
    }
    expectEqual(error?.description.contains("more than 100000 iterations in all"), true, "\(String(describing: error))")
    expectEqual(error?.description.contains("timeline[0]"), true, "\(String(describing: error))")
  }

  /// A repeat whose count times the iterations still to come of the repeats around it passes the
  /// budget is refused before any of it unrolls: the entry after it (a target that does not
  /// exist) is never reached. Unrolling first, `repeat: 100000` in `repeat: 100000` took 4 s
  /// to refuse.
  @Test func nestedRepeatsPastTheBudgetAreRefusedBeforeUnrolling() throws {
    let error = #expect(throws: TemplateError.self) {
      try TimelineTests.scene(
        """
        [ { repeat: 2, sequence: [ { repeat: 60000, sequence: [ { delay: 0.001 } ] },
            { target: "nope", animate: { opacity: 0 }, duration: 0.5 } ] } ]
        """)
    }
    expectEqual(error?.description.contains("more than 100000 iterations in all"), true, "\(String(describing: error))")
    expectEqual(error?.description.contains("timeline[0].sequence[0]"), true, "\(String(describing: error))")
  }

  @Test func aForeverRepeatWithATinyPeriodFailsOnTheIterationBudget() throws {
    let error = #expect(throws: TemplateError.self) {
      try Template.decode(
        """
        { flick: 1, canvas: { width: 100, height: 100, duration: 10 }, layers: [{ id: "a", size: [10, 10] }],
          timeline: [ { repeat: "forever", sequence: [ { delay: 0.00001 } ] } ] }
        """, file: "t.json5")
    }
    expectEqual(error?.description.contains("iterations in all"), true, "\(String(describing: error))")
  }

  @Test func repeatsWithinTheBudgetStillPlay() throws {
    let s = try TimelineTests.scene(
      """
      [ { repeat: 300, sequence: [ { repeat: 300, sequence: [ { delay: 0.001 } ] } ] },
        { target: "a", animate: { positionX: 200 }, curve: "linear", duration: 0.5 } ]
      """)
    expectEqual(s.animations.count, 1)
  }
}
