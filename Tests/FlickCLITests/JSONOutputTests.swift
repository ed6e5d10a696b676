import FlickExpectations
import FlickMotion
import FlickTestSupport
import Foundation
import Testing

/// Every JSON text Flick writes by hand parses, whatever a name or a number holds: names go
/// through one string writer (control characters escaped) and numbers through one number
/// writer (`null` for an infinity or NaN, which JSON has no literal for).
@Suite struct JSONOutputTests {
  /// Layer ids with what a JSON string must escape, or may hold as it is.
  static let hostileIDs = [
    "a\n\u{1}b", "tab\there", "quote\"and\\back", "line\u{2028}sep\u{2029}", "del\u{7F}", "esc\u{1B}[31m", "nul\u{0}x",
    "é and 字",
  ]

  /// `s` as a JSON5 string literal (every scalar below U+0020, and the quote and backslash, as `\uXXXX`).
  static func literal(_ s: String) -> String {
    "\""
      + s.unicodeScalars.map {
        $0.value < 0x20 || $0 == "\"" || $0 == "\\" ? String(format: "\\u%04X", $0.value) : String($0)
      }.joined() + "\""
  }

  static func object(_ text: String) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text)")
  }

  @Test func traceJSONParsesForHostileLayerIDs() throws {
    let dir = try ProcessRunner.temporaryDirectory(prefix: "flick-json")
    defer { try? FileManager.default.removeItem(at: dir) }
    // A NUL in a template string is refused at load (TextNulTests), so only the writer meets one.
    let layers = Self.hostileIDs.filter { !$0.contains("\u{0}") }.enumerated().map { i, id in
      "{ id: \(Self.literal(id)), size: [4, 4], position: [\(i * 4 + 2), 2] }"
    }
    let path = dir.appendingPathComponent("ids.json5").path
    try """
    { flick: 1, canvas: { width: 64, height: 64, fps: 4, duration: 1 }, layers: [\(layers.joined(separator: ", "))] }
    """.write(toFile: path, atomically: true, encoding: .utf8)
    for id in Self.hostileIDs where !id.contains("\u{0}") {
      let r = try CLITests.run(
        CLITests.flick, ["trace", path, "--layer", id, "--property", "opacity", "--format", "json"])
      expectEqual(r.status, 0, "\(r.stderr)")
      let object = try Self.object(r.stdout)
      expectEqual(object["layer"] as? String, id)
    }
    // The writer itself, a NUL included (no command line can carry one).
    for id in Self.hostileIDs {
      let text = JSONText.quoted(id)
      let back = try JSONSerialization.jsonObject(with: Data(text.utf8), options: .fragmentsAllowed) as? String
      expectEqual(back, id)
    }
  }

  @Test func infiniteAndNaNNumbersAreNull() throws {
    let dir = try ProcessRunner.temporaryDirectory(prefix: "flick-json")
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = dir.appendingPathComponent("big.json5").path
    try """
    { flick: 1, canvas: { width: 64, height: 64, fps: 10, duration: 1 },
      layers: [{ id: "a", size: [4, 4], position: [2, 2], backgroundColor: "#fff" }],
      timeline: [{ target: "a", animate: { positionX: { from: 1e308, to: -1e308 } }, duration: 0.5, curve: "linear" }] }
    """.write(toFile: path, atomically: true, encoding: .utf8)
    let trace = try CLITests.run(
      CLITests.flick, ["trace", path, "--layer", "a", "--property", "positionX", "--format", "json"])
    expectEqual(trace.status, 0, "\(trace.stderr)")
    let samples = try #require(try Self.object(trace.stdout)["samples"] as? [[String: Any]])
    #expect(samples.contains { $0["velocity"] is NSNull }, "\(trace.stdout)")
    let curve = try CLITests.run(
      CLITests.flick, ["curve", "linear", "--from", "1e308", "--to", "-1e308", "--format", "json"])
    expectEqual(curve.status, 0, "\(curve.stderr)")
    let rows = try #require(try Self.object(curve.stdout)["samples"] as? [[String: Any]])
    #expect(rows.contains { $0["velocity"] is NSNull }, "\(curve.stdout)")
    for v in [Double.infinity, -.infinity, .nan] {
      expectEqual(JSONText.number(v), "null")
      expectEqual(JSONText.number(v, significantDigits: 10), "null")
    }
    expectEqual(JSONText.number(1e308, significantDigits: 10), "1e+308")
    expectEqual(JSONText.number(0.1), "0.1")
  }
}
