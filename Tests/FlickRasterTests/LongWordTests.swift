@testable import FlickRaster
import FlickExpectations
import Testing

/// Wrapped text with very long words is laid out in linear time: break opportunities are added
/// inside runs longer than ``TextLayout/longestWord`` and nowhere else.
@Suite struct LongWordTests {
  @Test func proseIsUnchanged() {
    let prose = "The quick brown fox jumps over the lazy dog. " + String(repeating: "x", count: TextLayout.longestWord)
    expectEqual(TextLayout.breakingLongWords(prose), prose)
  }

  @Test func longRunsGetAZeroWidthSpaceEveryLongestWordCharacters() {
    let word = String(repeating: "a", count: 1000)
    let broken = TextLayout.breakingLongWords("x " + word + " y")
    let runs = broken.split(whereSeparator: { $0 == " " || $0 == "\u{200B}" })
    #expect(runs.allSatisfy { $0.count <= TextLayout.longestWord })
    expectEqual(broken.replacingOccurrences(of: "\u{200B}", with: ""), "x " + word + " y")
    expectEqual(broken.unicodeScalars.filter { $0 == "\u{200B}" }.count, (1000 - 1) / TextLayout.longestWord)
  }
}
