import FlickExpectations
import FlickMotion
import Foundation
import Testing

@testable import FlickTemplates

/// Hex digits are ASCII: `Character.isHexDigit` also holds for the full-width forms (`Ｆ`, `１`),
/// which `UInt8(_:radix:)` then does not read, so `"#ＦＦ0000"` drew black and `"\u００４１"`
/// read as "A". Colours, JSON5 escapes and `0x` numbers refuse them, naming where.
@Suite struct AsciiHexDigitTests {
  static func decode(background: String) -> String {
    let text = "{ flick: 1, canvas: { width: 8, height: 8, duration: 1, background: \"\(background)\" }, layers: [] }"
    do {
      _ = try Template.decode(text, file: "t.json5")
      return ""
    } catch {
      return error.description
    }
  }

  @Test(arguments: ["#ＦＦ0000", "#１２３", "ＦＦＦ", "#ff00ｆｆ"])
  func fullWidthColourDigitsAreRefused(colour: String) {
    #expect(Color(hex: colour) == nil)
    let message = Self.decode(background: colour)
    #expect(message.contains("t.json5:1:"), "\(message)")
    #expect(message.contains("canvas.background: expected a colour like"), "\(message)")
    if colour.hasPrefix("#") { #expect(message.contains("(hex digits 0-9 a-f)"), "\(message)") }
  }

  @Test func asciiColoursStillRead() throws {
    expectEqual(Color(hex: "#FF0000"), Color(red: 1, green: 0, blue: 0))
    expectEqual(Color(hex: "aBc"), Color(hex: "#AABBCC"))
    expectEqual(Self.decode(background: "#12345678"), "")
  }

  @Test(arguments: [
    ("\"\\u００４１\"", "expected 4 hex digits (0-9, a-f) in escape"),
    ("\"\\x４２\"", "expected 2 hex digits (0-9, a-f) in escape"),
    ("\"\\u+041\"", "expected 4 hex digits (0-9, a-f) in escape"),
    ("0xＦＦ", "expected hex digits (0-9, a-f) after '0x'"),
  ])
  func json5HexEscapesAreAscii(text: String, message: String) {
    do {
      let value = try JSON5Parser.parse(text)
      Issue.record("parsed \(value)")
    } catch {
      #expect(error.description.contains(message), "\(error.description)")
      #expect(error.description.contains("1:"), "\(error.description)")
    }
  }

  @Test func asciiEscapesStillRead() throws {
    expectEqual(try JSON5Parser.parse("\"\\u0041\\x42\""), try JSON5Parser.parse("\"AB\""))
    expectEqual(try JSON5Parser.parse("0xFf"), try JSON5Parser.parse("255"))
  }
}
