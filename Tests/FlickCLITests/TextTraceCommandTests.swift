import FlickExpectations
import Foundation
import Testing

/// `flick trace --property number`: a text layer's counter, springing from 3 to 4, traced through
/// the built binary (value overshoots 4, velocity is continuous, it settles on 4).
@Suite struct TextTraceCommandTests {
  @Test func aSpringingCounterTraces() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("flick-text-trace-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let url = dir.appendingPathComponent("t.json5")
    try """
    { flick: 1, canvas: { width: 200, height: 80, fps: 30, duration: 2 },
      layers: [{ id: "count", size: [80, 40], position: [100, 40], number: 3, format: "%.0f" }],
      timeline: [{ at: 0.5, target: "count", animate: { number: 4 }, curve: "spring(response: 0.5, dampingRatio: 0.5)" }] }
    """.write(to: url, atomically: true, encoding: .utf8)
    let r = try CLITests.run(
      CLITests.flick, ["trace", url.path, "--layer", "count", "--property", "number", "--fps", "30"])
    expectEqual(r.status, 0, "\(r.stderr)")
    let rows = TraceCommandTests.rows(r.stdout)
    expectEqual(rows.count, 60)
    expectEqual(rows.first, [0, 3, 0])
    let peak = rows.map { $0[1] }.max() ?? 0
    expectGreater(peak, 4.1)
    expectLess(peak, 4.5)
    expectLess(abs((rows.last?[1] ?? 0) - 4), 0.01)
    let json = try CLITests.run(
      CLITests.flick,
      ["trace", url.path, "--layer", "count", "--property", "number", "--times", "1", "--format", "json"])
    #expect(
      json.stdout.contains("\"unit\": \"number\"") || json.stdout.contains("\"unit\":\"number\""), "\(json.stdout)")
  }
}
