import FlickExpectations
import Testing

@testable import FlickMotion

/// `steps(10001)` was refused as if it needed "a whole number of steps ≥ 1"; the message now
/// states the range, 1…10000.
@Suite struct StepsMessageTests {
  @Test func stepsStatesItsRange() {
    for text in ["steps(10001)", "steps(0)", "steps(2.5)"] {
      do {
        _ = try AnimationSpec(parsing: text)
        Issue.record("parsed \(text)")
      } catch {
        #expect(error.message.contains("steps needs a whole number of steps in 1…10000"), "\(error.message)")
      }
    }
    #expect((try? AnimationSpec(parsing: "steps(10000)")) != nil)
  }
}
