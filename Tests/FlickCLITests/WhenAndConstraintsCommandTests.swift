import FlickExpectations
import FlickTestSupport
import Foundation
import Testing

/// `when` and `constraints` through the built binary: `flick info` lists each crossing with its
/// resolved time (under `--set` too), `flick trace` reads a constrained sublayer's size and
/// position with their velocities, and a crossing that never happens is an invalid template.
@Suite struct WhenAndConstraintsCommandTests {
  static func file(_ timeline: String) throws -> String {
    let dir = try ProcessRunner.temporaryDirectory(prefix: "flick-when")
    let url = dir.appendingPathComponent("t.json5")
    try """
    { flick: 1, canvas: { width: 400, height: 300, fps: 30, duration: 3 },
      parameters: { level: { type: "number", default: 150 } },
      layers: [
        { id: "card", size: [100, 100], position: [200, 150], sublayers: [
          { id: "bar", size: [10, 10], constraints: { left: 10, right: 10, top: 0 } } ] },
        { id: "lamp", size: [10, 10], opacity: 0 } ],
      timeline: \(timeline) }
    """.write(to: url, atomically: true, encoding: .utf8)
    return url.path
  }

  static let grow = #"{ target: "card", animate: { size: [300, 100] }, curve: "linear", duration: 2 }"#

  @Test func infoListsResolvedCrossings() throws {
    let path = try Self.file(
      "[\(Self.grow), { when: { target: \"card\", property: \"size.width\", crosses: \"$level\" }, "
        + "target: \"lamp\", set: { opacity: 1 } }]")
    let r = try CLITests.run(CLITests.flick, ["info", path])
    expectEqual(r.status, 0, "\(r.stderr)")
    #expect(
      r.stdout.contains(
        "crossings (when):\n  0.5 s  card.size.width crosses 150 going up (searched from 0 s) → timeline[1]"),
      "\(r.stdout)")
    let set = try CLITests.run(CLITests.flick, ["info", path, "--set", "level=250"])
    #expect(set.stdout.contains("  1.5 s  card.size.width crosses 250 going up"), "\(set.stdout)")
    let never = try CLITests.run(CLITests.flick, ["info", path, "--set", "level=400"])
    expectEqual(never.status, 2)
    #expect(
      never.stderr.contains(
        "timeline[1].when.crosses: card.size.width never crosses 400 from 0 s on: it moves within 100…300"),
      "\(never.stderr)")
  }

  @Test func traceReadsAConstrainedSublayer() throws {
    let path = try Self.file("[\(Self.grow)]")
    let size = try CLITests.run(
      CLITests.flick, ["trace", path, "--layer", "bar", "--property", "size", "--times", "0,1,2.5"])
    expectEqual(size.status, 0, "\(size.stderr)")
    expectEqual(
      TraceCommandTests.rows(size.stdout), [[0, 80, 10, 100, 0], [1, 180, 10, 100, 0], [2.5, 280, 10, 0, 0]])
    let position = try CLITests.run(
      CLITests.flick, ["trace", path, "--layer", "bar", "--property", "position", "--times", "1"])
    expectEqual(TraceCommandTests.rows(position.stdout), [[1, 100, 5, 50, 0]], "\(position.stdout)")
  }
}
