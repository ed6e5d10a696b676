import FlickExpectations
import Foundation
import Testing

@testable import FlickScene

/// A `\u` escape in a Lottie file and a character reference in an SVG picture take ASCII digits
/// only: `UInt32(_:radix:)` alone also reads a sign ("+041") and full-width digits are not hex
/// digits of JSON or XML.
@Suite struct HexEscapeTests {
  @Test(arguments: ["\\u+041", "\\u-000", "\\u００４１"])
  func lottieEscapesNeedFourAsciiHexDigits(escape: String) {
    do {
      _ = try LottieJSON.parse(Data("{\"nm\":\"\(escape)\"}".utf8))
      Issue.record("parsed \(escape)")
    } catch {
      #expect(error.message.contains("four hex digits (0-9, a-f)"), "\(error.message)")
    }
    expectEqual((try? LottieJSON.parse(Data(#"{"nm":"\u0041"}"#.utf8)))?["nm"]?.text, "A")
  }

  @Test(arguments: ["&#x+41;", "&#+65;", "&#x-0;", "&#６５;"])
  func xmlCharacterReferencesNeedAsciiDigits(reference: String) {
    #expect(throws: XMLTokenizer.SyntaxError.self) { try XMLTokenizer.decodeEntities(reference, at: 0) }
    expectEqual(try? XMLTokenizer.decodeEntities("&#x41;&#66;", at: 0), "AB")
  }
}
