import FlickExpectations
import Foundation
import Testing

@testable import FlickScene

/// The Lottie reader decodes `\u` surrogate pairs with the JSON5 parser's decoder
/// (`UTF16Escape`): a pair is one character, half of one is refused at its escape, saying which
/// half is missing (it said "a lone surrogate in a \u escape", after the escape).
@Suite struct LottieSurrogateTests {
  @Test func aPairIsOneCharacter() throws {
    expectEqual(try LottieJSON.parse(Data(#"{"nm":"A\ud83d\ude00B"}"#.utf8))["nm"]?.text, "A😀B")
  }

  @Test(
    arguments: [
      (#"{"nm": "\uD83D"}"#, 9, #"expected a low surrogate \uDC00–\uDFFF after \uD83D (a lone high surrogate)"#),
      (#"{"nm": "\uD83D\u0041"}"#, 9, #"expected a low surrogate \uDC00–\uDFFF after \uD83D, found \u0041"#),
      (#"{"nm": "x\uDE00"}"#, 10, #"expected a high surrogate \uD800–\uDBFF before \uDE00 (a lone low surrogate)"#),
    ] as [(String, Int, String)])
  func aLoneHalfIsRefusedAtItsEscape(text: String, column: Int, message: String) {
    do {
      _ = try LottieJSON.parse(Data(text.utf8))
      Issue.record("parsed \(text)")
    } catch {
      expectEqual(error.message, message)
      expectEqual(error.column, column)
      expectEqual(error.path, "nm")
    }
  }
}
