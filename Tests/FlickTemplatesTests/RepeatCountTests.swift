import FlickExpectations
import FlickScene
import FlickTemplates
import Testing

/// A `repeat` count must be whole: `repeat: 1.9999` played once and `repeat: 2.5` twice, on a
/// group, a sequence and a component instance (the reviewer's files in `Fixtures/timeline/`).
@Suite struct RepeatCountTests {
  /// `repeat: 1.9999` played once and `repeat: 2.5` twice: a count must be whole, on a group, a
  /// sequence, a component instance and a `play`.
  @Test func aFractionalRepeatIsRefused() {
    let group = TimelineFixtureErrors.error("repeat-fraction.json5")
    #expect(group.contains("repeat-fraction.json5:7:"), "\(group)")
    #expect(group.contains("timeline[0].repeat: expected a whole number in 1…100000, found 1.9999"), "\(group)")
    let instance = TimelineFixtureErrors.error("instance-repeat-fraction.json5")
    #expect(instance.contains("instance-repeat-fraction.json5:4:"), "\(instance)")
    #expect(instance.contains("repeat: expected a whole number in 1…100000, found 2.5"), "\(instance)")
    let sequence = TimelineFixtureErrors.error(
      timeline:
        #"[ { repeat: 2.5, sequence: [ { target: "a", animate: { positionX: { by: 10 } }, duration: 0.3 } ] } ]"#)
    #expect(sequence.contains("timeline[0].repeat: expected a whole number in 1…100000, found 2.5"), "\(sequence)")
    // Whole counts still play that many times.
    let two = TimelineFixtureErrors.error(
      timeline:
        #"[ { repeat: 2.0, sequence: [ { target: "a", animate: { positionX: { by: 10 } }, duration: 0.3 } ] } ]"#)
    expectEqual(two, "no error")
  }
}
