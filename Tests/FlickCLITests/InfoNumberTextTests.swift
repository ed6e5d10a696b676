import FlickExpectations
import FlickTestSupport
import Foundation
import Testing

/// `flick info` prints numbers with one formatter, the studio's (`DecimalText`): it wrote
/// `3. s`, `default 2.`, `default -0.` and `1.–1.5 s` for values that round to whole numbers
/// at 3 decimals. And it shows the characters a template writes as surrogate pair escapes
/// (`\uD83D\uDE00`, Python's `json.dumps` for 😀), where it showed two U+FFFD.
@Suite struct InfoNumberTextTests {
  static func info(_ template: String) throws -> CLITests.Result {
    let dir = try CLITests.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = dir.appendingPathComponent("t.json5").path
    try template.write(toFile: path, atomically: true, encoding: .utf8)
    return try HostileCLITests.run(["info", path])
  }

  @Test func numbersThatRoundToWholeNumbersHaveNoTrailingPoint() throws {
    let r = try Self.info(
      """
      { flick: 1,
        parameters: { w: { type: "number", default: 1.9999 }, n: { type: "number", default: -0.0001 } },
        canvas: { width: 200, height: 100, fps: 10, duration: 2.9999 },
        layers: [ { id: "a", size: [10, 10], position: [0, 0] } ],
        timeline: [ { at: 0.9999, target: "a", animate: { positionX: 200 }, duration: 0.5 },
          { when: { target: "a", property: "positionX", crosses: 99.9999 }, target: "a", set: { opacity: 0.5 } } ] }
      """)
    expectEqual(r.status, 0, "\(r.stderr)")
    #expect(r.stdout.contains("10 fps, 3 s, 30 frames"), "\(r.stdout)")
    #expect(r.stdout.contains("default 2\n"), "\(r.stdout)")
    #expect(r.stdout.contains("default 0\n"), "\(r.stdout)")
    #expect(r.stdout.contains("  1–1.5 s  a.positionX"), "\(r.stdout)")
    #expect(r.stdout.contains("a.positionX crosses 100 going up"), "\(r.stdout)")
    // Every line but the one naming the file (its random folder may hold "-0").
    let report = r.stdout.split(separator: "\n", omittingEmptySubsequences: false)
      .filter { !$0.hasPrefix("file: ") }.joined(separator: "\n")
    #expect(!report.contains(".\n") && !report.contains(". ") && !report.contains(".–"), "\(r.stdout)")
    #expect(!report.contains("-0"), "\(r.stdout)")
  }

  @Test func surrogatePairEscapesShowAsTheirCharacter() throws {
    let r = try Self.info(
      #"""
      { flick: 1, canvas: { width: 120, height: 60, fps: 10, duration: 1 },
        layers: [ { id: "\uD83D\uDE00", position: [60, 30], string: "A\uD83D\uDE00B", fontSize: 24 } ],
        timeline: [ { at: 0.1, target: "\uD83D\uDE00", animate: { opacity: 0 } } ] }
      """#)
    expectEqual(r.status, 0, "\(r.stderr)")
    #expect(r.stdout.contains("😀  text"), "\(r.stdout)")
    #expect(r.stdout.contains("\"A😀B\""), "\(r.stdout)")
    #expect(r.stdout.contains("😀.opacity"), "\(r.stdout)")
    #expect(!r.stdout.contains("\u{FFFD}"), "\(r.stdout)")
  }

  @Test func aLoneSurrogateIsABadInputWithItsPlace() throws {
    let r = try Self.info(
      #"""
      { flick: 1, canvas: { width: 120, height: 60, fps: 10, duration: 1 },
        layers: [ { id: "a\uDE00", size: [1, 1] } ] }
      """#)
    expectEqual(r.status, 2, "\(r.stdout)")
    #expect(
      r.stderr.contains(
        #"t.json5:2:21: layers[0].id: expected a high surrogate \uD800–\uDBFF before \uDE00 (a lone low surrogate)"#),
      "\(r.stderr)")
    expectEqual(r.stdout, "")
  }
}
