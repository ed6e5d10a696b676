import FlickExpectations
@testable import FlickScene
import Foundation
import Testing

/// What bounds the memory a Lottie file takes before anything is drawn: the header is checked
/// before the parse, and the parse builds at most ``LottieJSON/maximumValues`` values.
@Suite struct LottieMemoryTests {
  @Test func theValueBudgetIsLocated() throws {
    let data = Data("{\"a\": [0, 0,\n 0]}".utf8)
    _ = try LottieJSON.parse(data, maximumValues: 5)
    #expect {
      _ = try LottieJSON.parse(data, maximumValues: 4)
    } throws: { error in
      guard let problem = error as? LottieJSON.Problem else { return false }
      return problem.line == 2 && problem.path == "a[2]" && !problem.isSyntax
        && problem.message.hasPrefix("the file has more than 4 JSON values")
    }
  }

  /// A header out of range is reported even when the rest of the file is not JSON: nothing
  /// past the top level was parsed.
  @Test func theHeaderIsCheckedBeforeTheParse() {
    let data = Data(#"{"v":"5.7.0","fr":30,"ip":0,"op":30,"w":99999,"h":100,"layers":[{"ty":4,"ks":{"o":NaN}}]}"#.utf8)
    #expect(
      throws: LottieFileError(
        path: "t.json", line: 1, column: 41, message: "w: must be a number in 1…16384, found 99999")
    ) {
      try LottieFile.decode(data, path: "t.json")
    }
  }
}
