import FlickExpectations
import FlickTestSupport
import Foundation
import Testing

/// Hostile text in every kind of name a template can carry, through the real `flick` binary:
/// each refusal is one line on stderr, with no raw control character, no line a CI runner would
/// read as a command (`::error`), no bidirectional override, and no echo of more than a few
/// hundred characters.
@Suite struct HostileMessageTests {
  /// ESC (a colour), CR, LF and a forged GitHub annotation, NUL, U+2028, a bidi override — as
  /// JSON5 escapes inside a template's string.
  static let payload = #"\u001b[31m\r\n::error file=x::forged\u0000\u2028\u202e"#
  /// The same for the command line (an argument cannot hold NUL).
  static let argument = "\u{1B}[31m\r\n::error file=x::forged\u{2028}\u{202E}"

  static let canvas = "canvas: { width: 32, height: 32, fps: 10, duration: 0.2 }"

  /// The templates, by what carries the payload.
  static let cases: [(String, String)] = [
    ("font family", "layers: [{ id: 't', type: 'text', string: 'hi', fontFamily: '\(payload)' }]"),
    ("layer id", "layers: [{ id: '\(payload)' }, { id: '\(payload)' }]"),
    ("image path", "layers: [{ id: 'a', contents: '\(payload).png' }]"),
    ("style name", "layers: [{ id: 'a', style: '\(payload)' }]"),
    ("component name", "layers: [{ id: 'a', use: '\(payload)' }]"),
    ("Lottie path", "layers: [{ id: 'a', type: 'lottie', source: '\(payload).json' }]"),
    ("SVG path", "layers: [{ id: 'a', path: { svg: '\(payload).svg' } }]"),
    ("key", "layers: [{ id: 'a', '\(payload)': 1 }]"),
    ("enum value", "layers: [{ id: 'a', contentsGravity: '\(payload)' }]"),
    ("parameter name", "parameters: { '\(payload)': { type: 'number', default: 1 } }"),
    ("timeline layer", "layers: [{ id: 'a' }], timeline: [{ at: 0, target: '\(payload)', animate: { opacity: 0 } }]"),
  ]

  /// What a refusal must look like on stderr.
  static func expectOneSafeLine(
    _ r: CLITests.Result, _ what: String, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    expectEqual(r.status, 2, "\(what): exit \(r.status): \(r.stderr)", sourceLocation: sourceLocation)
    let lines = r.stderr.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(
      lines.count == 2 && lines[1].isEmpty, "\(what): not one line: \(r.stderr.debugDescription)",
      sourceLocation: sourceLocation)
    let raw = r.stderr.unicodeScalars.dropLast().filter {
      $0.value < 0x20 || $0.value == 0x7F || $0.value == 0x2028 || $0.value == 0x202E
    }
    #expect(
      raw.isEmpty, "\(what): raw controls \(raw.map(\.value)): \(r.stderr.debugDescription)",
      sourceLocation: sourceLocation)
    #expect(r.stderr.hasPrefix("flick: "), "\(what): \(r.stderr)", sourceLocation: sourceLocation)
    expectLess(r.stderr.utf8.count, 1_500, "\(what): \(r.stderr.utf8.count) bytes", sourceLocation: sourceLocation)
  }

  @Test func hostileNamesInATemplateGiveOneEscapedLine() throws {
    let dir = try CLITests.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    for (what, body) in Self.cases {
      let path = try HostileCLITests.write("{ flick: 1, \(Self.canvas), \(body) }", "t.json5", in: dir)
      let info = try HostileCLITests.run(["info", path])
      Self.expectOneSafeLine(info, "info, \(what)")
      #expect(info.stdout.isEmpty, "\(what): info said \(info.stdout)")
      #expect(info.stderr.contains(#"\u{1B}[31m\r\n::error file=x::forged"#), "\(what): \(info.stderr)")
      let still = try HostileCLITests.run(["still", path, "-o", dir.appendingPathComponent("s.png").path])
      Self.expectOneSafeLine(still, "still, \(what)")
    }
  }

  @Test func hostileParametersOnTheCommandLineGiveOneEscapedLine() throws {
    let dir = try CLITests.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = try HostileCLITests.write(
      "{ flick: 1, parameters: { n: { type: 'number', default: 1 }, c: { type: 'color', default: '#fff' } }, "
        + "\(Self.canvas) }",
      "t.json5", in: dir)
    for assignment in ["\(Self.argument)=1", "n=\(Self.argument)", "c=\(Self.argument)", Self.argument] {
      let r = try HostileCLITests.run(["info", path, "--set", assignment])
      Self.expectOneSafeLine(r, "--set \(assignment.debugDescription)")
    }
    let missing = try HostileCLITests.run(["info", dir.appendingPathComponent("\(Self.argument).json5").path])
    Self.expectOneSafeLine(missing, "template path")
  }

  /// An echo is capped: a 1.5 MB name gives a line of a few hundred bytes.
  @Test func hugeNamesAreEchoedShort() throws {
    let dir = try CLITests.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let huge = String(repeating: "\\u001b", count: 250_000)
    let path = try HostileCLITests.write(
      "{ flick: 1, \(Self.canvas), layers: [{ id: 't', type: 'text', string: 'x', fontFamily: '\(huge)' }] }",
      "t.json5", in: dir)
    let r = try HostileCLITests.run(["info", path])
    Self.expectOneSafeLine(r, "huge font family")
    #expect(r.stderr.contains("… (250000 characters)"), "\(r.stderr)")
  }
}
