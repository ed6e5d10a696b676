import FlickExpectations
import Foundation
import Testing

/// Through the built binary: `-q` prints nothing at all on success (render, still, snapshot),
/// and a text transition is a traced property track (`--property transitionProgress`).
@Suite struct QuietAndTransitionCommandTests {
  static func folder() throws -> URL {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("flick-quiet-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    return dir
  }

  /// A template with a bare angle above a full turn and a character no font has: two warnings.
  static let warned = """
    { flick: 1, canvas: { width: 100, height: 60, fps: 10, duration: 0.3 },
      layers: [{ id: "t", position: [50, 30], string: "A\u{2FE0}", transform: { rotation: 45 } }],
      timeline: [{ at: 0.1, target: "t", set: { string: "B" }, transition: { kind: "roll", duration: 0.1 } }] }
    """

  @Test func quietPrintsNothingOnSuccess() throws {
    let dir = try Self.folder()
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = dir.appendingPathComponent("t.json5").path
    try Self.warned.write(toFile: path, atomically: true, encoding: .utf8)
    let loud = try CLITests.run(CLITests.flick, ["render", path, "-o", dir.appendingPathComponent("l.mp4").path])
    expectEqual(loud.status, 0, "\(loud.stderr)")
    #expect(loud.stderr.contains("warning"), "\(loud.stderr)")
    #expect(loud.stdout.contains("l.mp4"), "\(loud.stderr)")
    for (command, output) in [
      ["render", path, "-o", dir.appendingPathComponent("v.mp4").path, "-q"],
      ["render", path, "-o", dir.appendingPathComponent("v.gif").path, "--quiet"],
      ["still", path, "--time", "0.15", "-o", dir.appendingPathComponent("s.png").path, "-q"],
      ["snapshot", path, "--out", dir.appendingPathComponent("snap").path, "-q"],
    ].map({ ($0, $0[0]) }) {
      let r = try CLITests.run(CLITests.flick, command)
      expectEqual(r.status, 0, "\(output): \(r.stderr)")
      #expect(r.stdout.isEmpty, "\(output): stdout \(r.stdout) stderr \(r.stderr)")
      #expect(r.stderr.isEmpty, "\(output): stdout \(r.stdout) stderr \(r.stderr)")
    }
    #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("v.gif").path))
    #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("snap/manifest.json").path))
  }

  @Test func aTextTransitionTracesItsProgress() throws {
    let dir = try Self.folder()
    defer { try? FileManager.default.removeItem(at: dir) }
    let url = dir.appendingPathComponent("t.json5")
    try """
    { flick: 1, canvas: { width: 200, height: 80, fps: 10, duration: 1 },
      layers: [{ id: "count", position: [100, 40], number: 9 }],
      timeline: [{ at: 0.2, target: "count", set: { number: 10 }, transition: { duration: 0.5, curve: "linear" } }] }
    """.write(to: url, atomically: true, encoding: .utf8)
    let r = try CLITests.run(
      CLITests.flick,
      ["trace", url.path, "--layer", "count", "--property", "transitionProgress", "--times", "0.1,0.45,0.9"])
    expectEqual(r.status, 0, "\(r.stderr)")
    let rows = TraceCommandTests.rows(r.stdout)
    expectEqual(rows.count, 3)
    expectEqual(rows.first?[1], 1)
    #expect(abs((rows.dropFirst().first?[1] ?? 0) - 0.5) < 1e-9 && abs((rows.dropFirst().first?[2] ?? 0) - 2) < 1e-9)
    expectEqual(rows.last?[1], 1)
  }
}
