import FlickExpectations
import Foundation
import Testing

@testable import FlickScene

/// Refusals that gave a wrong reason: a path number beyond a Double's range was "expected a number", a Lottie header number longer
/// than 64 characters was shown cut at 64 as if its value were out of range.
@Suite struct MessageAccuracyTests {
  @Test func anOutOfRangePathNumberSaysSo() {
    do {
      _ = try ShapePath(svgPathData: "M0 0 L1e309 0")
      Issue.record("parsed")
    } catch {
      #expect(error.description.contains("the number 1e309 is out of range"), "\(error.description)")
      #expect(error.description.contains("7"), "\(error.description)")
    }
  }

  @Test func aLongHeaderNumberNamesTheLengthRule() {
    let fr = "3" + String(repeating: "0", count: 100_000) + "e-100000"
    let json = #"{"v":"5.7.0","fr":\#(fr),"ip":0,"op":10,"w":10,"h":10,"layers":[]}"#
    do {
      _ = try LottieFile.decode(Data(json.utf8), path: "t.json")
      Issue.record("decoded")
    } catch {
      #expect(error.message.hasPrefix("fr: a number of 100009 characters"), "\(error.message)")
      #expect(error.message.contains("at most 64"), "\(error.message)")
      expectEqual(error.column, 19)
    }
  }
}
