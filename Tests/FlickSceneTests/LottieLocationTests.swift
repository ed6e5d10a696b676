import FlickExpectations
import Testing

@testable import FlickScene

/// A Lottie file's errors name the line and column an editor shows: a line ends at LF, at CR LF
/// or at a CR alone (a lone CR counted as nothing put every error of an old Mac file on line 1).
@Suite struct LottieLocationTests {
  @Test(arguments: ["\n", "\r\n", "\r"])
  func everyLineEndCountsOnce(_ end: String) {
    let text = "{" + end + "  \"v\": \"5.7\"," + end + "  \"fr\": x" + end + "}"
    let bytes = [UInt8](text.utf8)
    let offset = bytes.firstIndex(of: UInt8(ascii: "x")) ?? 0
    let (line, column) = LottieJSON.location(of: offset, in: bytes)
    expectEqual(line, 3, "\(end.unicodeScalars.map(\.value))")
    expectEqual(column, 9, "\(end.unicodeScalars.map(\.value))")
  }
}
