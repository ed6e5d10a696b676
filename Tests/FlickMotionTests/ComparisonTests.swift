import FlickExpectations
import FlickMotion
import Testing

/// The comparisons the tests use instead of `#expect(a == b)` (FlickExpectations): silent when
/// their relation holds; otherwise one issue at the caller's line that shows both values and the
/// comment, as `#expect` shows them.
@Suite struct ComparisonTests {
  @Test func relationsThatHoldRecordNothing() {
    expectEqual(3, 3)
    expectEqual("flick", "flick", "a comment is not an issue")
    expectEqual([0.5, 1], [0.5, 1])
    expectEqual(Optional(2), 2)
    expectNotEqual(3, 4)
    expectLess(3, 4)
    expectLessOrEqual(4, 4)
    expectGreater(5.5, 5)
    expectGreaterOrEqual("b", "a")
  }

  @Test func eachFailedRelationRecordsBothValuesTheCommentAndTheCallersLine() {
    let comment: Comment = "frame 7"
    var line = #line + 1
    Self.expectOneIssue("3 == 4", line) { expectEqual(3, 4, comment) }
    line = #line + 1
    Self.expectOneIssue("\"cover\" == \"card\"", line) { expectEqual("cover", "card", comment) }
    line = #line + 1
    Self.expectOneIssue("[1.0, 2.0] == [1.0]", line) { expectEqual([1.0, 2], [1], comment) }
    line = #line + 1
    Self.expectOneIssue("nan == nan", line) { expectEqual(Double.nan, .nan, comment) }
    line = #line + 1
    Self.expectOneIssue("4 != 4", line) { expectNotEqual(4, 4, comment) }
    line = #line + 1
    Self.expectOneIssue("4 < 4", line) { expectLess(4, 4, comment) }
    line = #line + 1
    Self.expectOneIssue("5 <= 4", line) { expectLessOrEqual(5, 4, comment) }
    line = #line + 1
    Self.expectOneIssue("4 > 4", line) { expectGreater(4, 4, comment) }
    line = #line + 1
    Self.expectOneIssue("0.25 >= 0.5", line) { expectGreaterOrEqual(0.25, 0.5, comment) }
  }

  @Test func theMessageNamesBothValuesAndTheOperatorThenTheComment() {
    expectEqual(Comparison.message(1, "==", 2, nil), "Expectation failed: 1 == 2")
    expectEqual(Comparison.message(1, "==", 2, "why"), "Expectation failed: 1 == 2\nwhy")
  }

  /// Runs `body`, which must record exactly one issue: `Expectation failed: <text>`, then the
  /// comment, at `line` of this file.
  static func expectOneIssue(_ text: String, _ line: Int, _ body: () -> Void) {
    let seen = Locked(0)
    withKnownIssue {
      body()
    } matching: { issue in
      seen.withLock { $0 += 1 }
      let comments = issue.comments.map(\.rawValue)
      return comments == ["Expectation failed: \(text)\nframe 7"]
        && issue.sourceLocation?.fileName == "ComparisonTests.swift" && issue.sourceLocation?.line == line
    }
    expectEqual(seen.withLock { $0 }, 1, "issues recorded for \(text)")
  }
}
