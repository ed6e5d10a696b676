import FlickExpectations
import Testing

@testable import FlickTemplates

/// The JSON5 parser classifies ASCII scalars without Unicode property lookups (most of its time
/// went to them): the answers must be those of the properties the JSON5 grammar names.
@Suite struct JSON5ScalarClassTests {
  static let ascii = (0..<128).compactMap { Unicode.Scalar(UInt32($0)) }

  @Test func asciiIdentifierScalarsAreThoseOfTheUnicodeProperties() {
    for c in Self.ascii {
      let p = c.properties
      let start = c == "$" || c == "_" || p.isAlphabetic
      let part =
        start || p.numericType != nil || p.generalCategory == .nonspacingMark || p.generalCategory == .spacingMark
        || p.generalCategory == .connectorPunctuation
      expectEqual(JSON5Parser.isIdentifierStart(c), start, "U+\(String(c.value, radix: 16))")
      expectEqual(JSON5Parser.isIdentifierPart(c), part, "U+\(String(c.value, radix: 16))")
      expectEqual(JSON5Parser.isWhitespace(c), ([" ", "\t", "\n", "\r", "\u{0B}", "\u{0C}"].contains(c)))
    }
    // Beyond ASCII the properties decide.
    #expect(JSON5Parser.isIdentifierStart("é"))
    #expect(JSON5Parser.isIdentifierPart("\u{0301}"))
    #expect(JSON5Parser.isWhitespace("\u{2003}"))
    #expect(!JSON5Parser.isIdentifierStart("\u{2003}"))
  }

  /// A line ends at LF, at CR LF (counted once), at a lone CR, at U+2028 and at U+2029; an
  /// error's column counts from there.
  @Test(
    arguments: [("\n", 2), ("\r\n", 2), ("\r", 2), ("\u{2028}", 2), ("\u{2029}", 2), ("\n\r\n\r", 4)] as [(String, Int)]
  )
  func linesEndWhereJSON5SaysTheyDo(_ ending: String, _ line: Int) {
    do {
      _ = try JSON5Parser.parse("{ a: 1," + ending + "  b: @ }")
      Issue.record("a document with '@' for a value parsed")
    } catch {
      expectEqual(error.line, line, "\(ending.unicodeScalars.map(\.value)): \(error)")
      expectEqual(error.column, 6, "\(ending.unicodeScalars.map(\.value)): \(error)")
    }
  }

  @Test func numbersWithABarePointReadAsBefore() throws {
    let v = try JSON5Parser.parse("[1., 1.e2, .5, 5.E-1, 0.25e+1, -2., +3.5]")
    guard case .array(let items) = v.kind else {
      Issue.record("not an array")
      return
    }
    let numbers = items.map { item -> Double? in if case .number(let d) = item.kind { d } else { nil } }
    expectEqual(numbers, [1, 100, 0.5, 0.5, 2.5, -2, 3.5])
    #expect(throws: JSON5SyntaxError.self) { try JSON5Parser.parse("[.e2]") }
    #expect(throws: JSON5SyntaxError.self) { try JSON5Parser.parse("[01]") }
  }
}
