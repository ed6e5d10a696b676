import FlickExpectations
import Foundation
import Testing

/// `flick trace` on a linked property: the map of the source's value, the chain-rule velocity,
/// and the left limit where the source stops.
@Suite struct LinkTraceCommandTests {
  @Test func traceShowsALinkedPropertyWithItsVelocity() throws {
    let path = try TraceCommandTests.file(
      fps: 30,
      """
      [{ target: "a", animate: { positionX: 300 }, curve: "linear", duration: 1 },
       { at: 0, target: "a", link: { rotation: { from: "positionX", input: [100, 300], output: [0, 2] } } }]
      """)
    let r = try TraceCommandTests.run([path, "--layer", "a", "--property", "rotation", "--times", "0,0.5,1,2"])
    expectEqual(r.status, 0, "\(r.stderr)")
    expectEqual(TraceCommandTests.rows(r.stdout), [[0, 0, 2], [0.5, 1, 2], [1, 2, 0], [2, 2, 0]])
    let left = try TraceCommandTests.run(
      [path, "--layer", "a", "--property", "rotation", "--times", "1", "--side", "left"])
    expectEqual(left.status, 0, "\(left.stderr)")
    expectEqual(TraceCommandTests.rows(left.stdout), [[1, 2, 2]])
  }

  @Test func aCycleIsAnInvalidTemplate() throws {
    let path = try TraceCommandTests.file(
      fps: 30,
      """
      [{ at: 0, target: "a", link: { rotation: { from: "a.opacity", input: [0, 1], output: [0, 1] } } },
       { at: 0, target: "a", link: { opacity: { from: "a.rotation", input: [0, 1], output: [0, 1] } } }]
      """)
    let r = try TraceCommandTests.run([path, "--layer", "a", "--property", "rotation"])
    expectEqual(r.status, 2)
    #expect(r.stderr.contains("links form a cycle: a.opacity ← a.rotation ← a.opacity"), "\(r.stderr)")
  }
}
