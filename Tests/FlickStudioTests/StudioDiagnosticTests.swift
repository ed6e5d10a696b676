import FlickExpectations
import Foundation
import Testing

@testable import FlickStudio

/// The diagnostic of a template that does not compile: its line under the message, the caret
/// under the column the template parser counts, whatever the file's line ends.
@Suite struct StudioDiagnosticTests {
  struct Diagnostic: Decodable {
    var line: Int
    var column: Int
    var sourceLine: String?
    var caret: Int
  }

  /// A template of 12 lines whose 10th holds `layer`, after a comment with an emoji of three
  /// Unicode scalars in one character.
  static func template(_ layer: String, lineEnd: String) -> String {
    [
      "{", "  flick: 1,", "  canvas: {", "    width: 40,", "    height: 40,", "    fps: 10,", "    duration: 1,",
      "  },", "  layers: [", "    /* \u{1F469}\u{200D}\u{1F4BB} */ \(layer)", "  ],", "}",
    ].joined(separator: lineEnd) + lineEnd
  }

  static let good = #"{ id: "a", size: [10, 10] },"#
  static let bad = #"{ id: "a", size: [10, 10],, },"#

  /// The error's line is found (no line break left in it) and the caret is at the second comma,
  /// in `/api/template` and in the `error` event, for CR LF, CR, U+2028 and LF line ends alike.
  @Test(arguments: ["\r\n", "\r", "\u{2028}", "\n"])
  func theErrorLineIsShownWhateverTheLineEnds(_ lineEnd: String) throws {
    let h = try StudioHarness(files: ["ends.json5": Self.template(Self.good, lineEnd: lineEnd)])
    #expect(try h.get("/api/template?template=ends.json5").text.contains(#""ok":true"#))
    let events = try EventReader(port: h.port, token: h.token)
    try h.save("ends.json5", Data(Self.template(Self.bad, lineEnd: lineEnd).utf8))
    struct Event: Decodable { var error: Diagnostic }
    let event = try #require(events.wait(for: "error").first, "no error event")
    struct State: Decodable { var error: Diagnostic? }
    let state = try JSONDecoder().decode(State.self, from: h.get("/api/template?template=ends.json5").body)
    for diagnostic in [try JSONDecoder().decode(Event.self, from: Data(event.data.utf8)).error, state.error] {
      let d = try #require(diagnostic)
      expectEqual(d.line, 10)
      expectEqual(d.sourceLine, "    /* \u{1F469}\u{200D}\u{1F4BB} */ \(Self.bad)")
      expectEqual(d.caret, d.column)
      let rest = String(String.UnicodeScalarView((d.sourceLine ?? "").unicodeScalars.dropFirst(d.caret - 1)))
      expectEqual(rest, ", },", "the caret is not at the second comma")
    }
  }
}
