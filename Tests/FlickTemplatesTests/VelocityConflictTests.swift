import FlickExpectations
import FlickScene
import FlickTemplates
import Testing

/// Two velocities for one motion are refused where they are written: a spring with `velocity` and
/// `normalizedVelocity`, a property `velocity` beside a spring or decay that gives its own (the
/// reviewer's files in `Fixtures/timeline/`).
@Suite struct VelocityConflictTests {
  /// A spring with both `velocity` and `normalizedVelocity`, and a property `velocity` beside a
  /// motion that gives its own: each is refused where it is written.
  @Test func twoVelocitiesForOneMotionAreRefused() {
    let spring = TimelineFixtureErrors.error("spring-two-velocities.json5")
    #expect(spring.contains("spring-two-velocities.json5:7:"), "\(spring)")
    #expect(spring.contains("normalizedVelocity"), "\(spring)")
    #expect(spring.contains("a spring takes one initial velocity"), "\(spring)")
    let twice = TimelineFixtureErrors.error("velocity-twice.json5")
    #expect(twice.contains("velocity-twice.json5:7:"), "\(twice)")
    #expect(twice.contains("timeline[0].animate.positionX.velocity: the velocity is given twice"), "\(twice)")
    for timeline in [
      #"[ { target: "a", animate: { positionX: { to: 100, velocity: 500, curve: "spring(normalizedVelocity: 2)" } } } ]"#,
      #"[ { target: "a", animate: { positionX: { velocity: 500, decay: { velocity: 100 } } } } ]"#,
      #"[ { spring: { velocity: 100 }, group: [ { target: "a", animate: { positionX: { to: 100, velocity: 500 } } } ] } ]"#,
      #"[ { target: "a", property: "positionX", to: 100, velocity: 500, curve: "spring(velocity: 100)" } ]"#,
    ] {
      let message = TimelineFixtureErrors.error(timeline: timeline)
      #expect(message.contains("the velocity is given twice"), "\(timeline): \(message)")
    }
    // One velocity, in either place, is fine.
    for timeline in [
      #"[ { target: "a", animate: { positionX: { to: 100, velocity: 500 } }, spring: {} } ]"#,
      #"[ { target: "a", animate: { positionX: { to: 100 } }, curve: "spring(normalizedVelocity: 2)" } ]"#,
    ] {
      expectEqual(TimelineFixtureErrors.error(timeline: timeline), "no error")
    }
  }
}
