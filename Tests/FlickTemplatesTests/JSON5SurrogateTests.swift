import FlickExpectations
import Foundation
import Testing

@testable import FlickTemplates

/// JSON5 reads `\uD83D\uDE00` (a high and a low surrogate escape, how Python's `json.dumps` writes
/// every emoji) as one character, as ES5 does: it read the low half as U+FFFD and so gave two
/// U+FFFD, silently. Half of a pair on its own is refused where it is written, with its path, in
/// a template, a params file and a `--set` list alike (one parser; the decoding is shared with
/// the Lottie reader, `UTF16Escape`).
@Suite struct JSON5SurrogateTests {
  static func string(_ text: String) throws -> String? {
    if case .string(let s) = try JSON5Parser.parse(text).kind { return s }
    return nil
  }

  @Test func aPairIsOneCharacter() throws {
    expectEqual(try Self.string(#""\uD83D\uDE00""#), "😀")
    expectEqual(try Self.string(#"'A\ud83d\ude00B'"#), "A😀B")
    expectEqual(try Self.string(#""\uDBFF\uDFFF\uD800\uDC00""#), "\u{10FFFF}\u{10000}")
    expectEqual(try Self.string(#""\u00e9\u0041""#), "éA")
    // A key (quoted or not) reads its escapes the same way.
    let object = try JSON5Parser.parse(#"{ "\uD83D\uDE00": 1, \u0061b: 2 }"#)
    guard case .object(let members) = object.kind else {
      Issue.record("not an object")
      return
    }
    expectEqual(members.map(\.key), ["😀", "ab"])
  }

  @Test(arguments: [
    // A high surrogate at the end of the string, before a character, before an escape that is
    // not a low one, before another high one; a low one alone or first.
    (
      #"{ a: ["x\uD83D"] }"#, #"1:9: a[0]: expected a low surrogate \uDC00–\uDFFF after \uD83D (a lone high surrogate)"#
    ),
    (#"{ a: "\uD83Dx" }"#, #"1:7: a: expected a low surrogate \uDC00–\uDFFF after \uD83D (a lone high surrogate)"#),
    (#"{ a: "\uD83D\u0041" }"#, #"1:7: a: expected a low surrogate \uDC00–\uDFFF after \uD83D, found \u0041"#),
    (#"{ a: "\uD83D\uD83D\uDE00" }"#, #"1:7: a: expected a low surrogate \uDC00–\uDFFF after \uD83D, found \uD83D"#),
    (#"{ a: "\uDE00" }"#, #"1:7: a: expected a high surrogate \uD800–\uDBFF before \uDE00 (a lone low surrogate)"#),
    (
      #"{ a: "\uDE00\uD83D" }"#,
      #"1:7: a: expected a high surrogate \uD800–\uDBFF before \uDE00 (a lone low surrogate)"#
    ),
    (
      #"{ b: { "k\uDC00": 1 } }"#,
      #"1:10: b: expected a high surrogate \uD800–\uDBFF before \uDC00 (a lone low surrogate)"#
    ),
    (#"{ \uD800: 1 }"#, #"1:3: expected a low surrogate \uDC00–\uDFFF after \uD800 (a lone high surrogate)"#),
    (#""\uD83D\uDE0""#, #"1:13: expected 4 hex digits (0-9, a-f) in escape"#),
  ])
  func aLoneHalfIsRefusedWhereItIsWritten(text: String, expected: String) {
    expectEqual(JSON5ParseMessages.message(text), expected)
  }

  static let template = """
    { flick: 1, canvas: { width: 120, height: 60, fps: 10, duration: 1 },
      layers: [ { id: "\\uD83D\\uDE00", position: [60, 30], string: "A\\uD83D\\uDE00B", fontSize: 24 } ],
      timeline: [ { at: 0.1, target: "\\uD83D\\uDE00", animate: { opacity: 0 } } ] }
    """

  @Test func aTemplateReadsThePairAsOneCharacter() throws {
    let t = try Template.decode(Self.template, file: "e.json5")
    expectEqual(t.scene.renderTree(at: 0).layer(id: "😀")?.text?.string, "A😀B")
  }

  @Test func aTemplateRefusesALoneHalfWithItsPlaceAndPath() {
    let broken = Self.template.replacingOccurrences(of: #"B", fontSize"#, with: #"\uDE00", fontSize"#)
    #expect(throws: TemplateError.self) { try Template.decode(broken, file: "e.json5") }
    do {
      _ = try Template.decode(broken, file: "e.json5")
    } catch {
      expectEqual(
        error.description,
        #"e.json5:2:77: layers[0].string: expected a high surrogate \uD800–\uDBFF before \uDE00 (a lone low surrogate)"#
      )
    }
  }

  @Test func aParamsFileReadsPairsAndRefusesLoneHalves() throws {
    var values = ParameterValues()
    try values.load(text: #"{ title: "Hi \uD83D\uDE00" }"#, file: "p.json5")
    guard case .json(let value, _) = values.entries.last?.source else {
      Issue.record("no value read")
      return
    }
    expectEqual(value.kind, .string("Hi 😀"))
    do {
      try values.load(text: "{\n  title: \"Hi \\uD83D\" }", file: "p.json5")
      Issue.record("a lone high surrogate was read")
    } catch {
      expectEqual(
        error.description,
        #"p.json5:2:14: title: expected a low surrogate \uDC00–\uDFFF after \uD83D (a lone high surrogate)"#)
    }
  }
}
