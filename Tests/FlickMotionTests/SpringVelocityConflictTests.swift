import FlickExpectations
import Testing

@testable import FlickMotion

/// `spring(velocity: 500, normalizedVelocity: 1)` used the normalized velocity and dropped the
/// other silently; a spring takes one of them, and the spec names the second one.
@Suite struct SpringVelocityConflictTests {
  @Test func bothVelocitiesAreRefused() {
    for text in ["spring(velocity: 500, normalizedVelocity: 1)", "snappy(normalizedVelocity: 1, velocity: 10)"] {
      do {
        _ = try AnimationSpec(parsing: text)
        Issue.record("parsed \(text)")
      } catch {
        #expect(error.message.contains("a spring takes one initial velocity"), "\(error.message)")
        expectEqual(error.argument, "normalizedVelocity")
        #expect(error.column != nil)
      }
    }
    #expect((try? AnimationSpec(parsing: "spring(velocity: 500)")) != nil)
    #expect((try? AnimationSpec(parsing: "spring(normalizedVelocity: 1)")) != nil)
  }
}
