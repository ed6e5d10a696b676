import FlickExpectations
import Foundation
import Testing

/// Through the binary: an out-of-range value anywhere in the timeline is exit 2 with
/// `FILE:LINE:COL: json.path: message` and writes nothing; `flick info --properties` prints the
/// catalogue's table, the one in docs/layers.md.
@Suite struct PropertyRangeCommandTests {
  static func template(_ entry: String, in dir: URL) throws -> String {
    let path = dir.appendingPathComponent("t.json5").path
    try """
    { flick: 1, canvas: { width: 64, height: 64, duration: 1 },
      layers: [{ id: "a", size: [10, 10], backgroundColor: "#FF0000" }],
      timeline: [\(entry)] }
    """.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  @Test(arguments: [
    (
      "{ target: \"a\", set: { opacity: 7 } }",
      "t.json5:3:45: timeline[0].set.opacity: expected a number in 0…1, found 7"
    ),
    (
      "{ target: \"a\", duration: 1, animate: { cornerRadius: -40 } }",
      "t.json5:3:67: timeline[0].animate.cornerRadius: expected a number in 0…100000, found -40"
    ),
    (
      "{ target: \"a\", animate: { shadowRadius: { keyframes: { values: [0, 5000] } } } }",
      "t.json5:3:81: timeline[0].animate.shadowRadius.keyframes.values[1]: expected a number in 0…1000, found 5000"
    ),
  ])
  func outOfRangeIsExit2WithThePlace(_ entry: String, _ message: String) throws {
    let dir = try CLITests.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = try Self.template(entry, in: dir)
    let out = dir.appendingPathComponent("still.png").path
    let r = try CLITests.run(CLITests.flick, ["still", path, "-o", out])
    expectEqual(r.status, 2)
    expectEqual(r.stderr, "flick: \(dir.path)/\(message)\n", "\(r.stderr)")
    #expect(!FileManager.default.fileExists(atPath: out))
  }

  @Test func infoPrintsThePropertyTable() throws {
    let r = try CLITests.run(CLITests.flick, ["info", "--properties"])
    expectEqual(r.status, 0, "\(r.stderr)")
    let docs = try String(contentsOf: CLITests.root.appendingPathComponent("docs/layers.md"), encoding: .utf8)
    let lines = r.stdout.split(separator: "\n").map(String.init)
    #expect(lines.count > 40 && lines[0].hasPrefix("| property | value | unit | range |"))
    #expect(docs.contains(lines.joined(separator: "\n")))
  }
}
