import FlickExpectations
import Foundation
import Testing

@testable import FlickTemplates

/// An unquoted key may hold `\uXXXX` escapes, as an ECMAScript IdentifierName may: the character
/// an escape writes must be one the key could hold written as itself (a letter, `$` or `_` first;
/// then also a digit, a mark, ZWNJ or ZWJ). A space or `-` written as an escape was read into the
/// key (`{ \u0020a: 1 }` gave the key " a"); it is refused at its backslash, with its path.
@Suite struct JSON5KeyEscapeTests {
  @Test(arguments: [
    (#"{ \u0061b: 1 }"#, "ab"),
    (#"{ a\u0062: 1 }"#, "ab"),
    (#"{ \u0024x: 1, \u005Fy: 2 }"#, "_y"),
    (#"{ a\u0030: 1 }"#, "a0"),
    (#"{ a\u200Cb: 1 }"#, "a\u{200C}b"),
    (#"{ \u00E9t\u00E9: 1 }"#, "été"),
  ])
  func anEscapeOfAnIdentifierCharacterIsRead(text: String, expected: String) {
    #expect(JSON5ParseMessages.message(text).hasPrefix("parsed"), "\(text)")
    #expect(JSON5ParseMessages.message(text).contains("key: \"\(expected)\""), "\(text)")
  }

  static let start =
    "which cannot start an identifier: expected a letter, '$' or '_' (a quoted key takes any character)"
  static let part =
    "which cannot be part of an identifier: expected a letter, digit, mark, '$', '_', ZWNJ or ZWJ "
    + "(a quoted key takes any character)"

  @Test(arguments: [
    (#"{ \u0020a: 1 }"#, "1:3: the escape writes U+0020, \(start)"),
    (#"{ \u0030a: 1 }"#, "1:3: the escape writes U+0030, \(start)"),
    (#"{ \u002Da: 1 }"#, "1:3: the escape writes U+002D, \(start)"),
    (#"{ \uD83D\uDE00: 1 }"#, "1:3: the escape writes U+1F600, \(start)"),
    (#"{ a\u002Db: 1 }"#, "1:4: the escape writes U+002D, \(part)"),
    (#"{ a\u0020: 1 }"#, "1:4: the escape writes U+0020, \(part)"),
    (#"{ a\u003A: 1 }"#, "1:4: the escape writes U+003A, \(part)"),
    (#"{ a\u0000: 1 }"#, "1:4: the escape writes U+0000, \(part)"),
    (#"{ layers: [{ id\u0021: 1 }] }"#, "1:16: layers[0]: the escape writes U+0021, \(part)"),
  ])
  func anEscapeOfAnyOtherCharacterIsRefusedWhereItIsWritten(text: String, expected: String) {
    expectEqual(JSON5ParseMessages.message(text), expected)
  }

  @Test func aTemplateRefusesItWithItsFileAndPlace() {
    let text = "{ flick: 1,\n  canvas: { width: 10, height: 10, fps: 10, du\\u0020ration: 1 }, layers: [] }"
    do {
      _ = try Template.decode(text, file: "k.json5")
      Issue.record("a key with an escaped space was read")
    } catch {
      expectEqual(error.description, "k.json5:2:47: canvas: the escape writes U+0020, \(Self.part)")
    }
  }
}
