import Testing

// Comparisons for Flick's tests that cost the compiler a fraction of `#expect(a == b)`.
//
// Swift Testing's `#expect(a == b)` expands into a call whose operator closure the type checker
// infers against every overload of `==`: about 11 ms of compile time each in the debug build, and
// Flick's tests made some 2,560 such comparisons (docs/benchmarks.md, "`make test` time"). Each
// function here is one plain generic call, checked once where it is declared. A failure is
// recorded the way `#expect` records it: an issue at the caller's line that shows both values
// and the comment.
//
// `#expect` stays for everything else: a Boolean call (`#expect(s.contains("x"))`), a negation,
// `nil`, `throws:`, and comparisons of values that are not of one type (`Int` against `UInt8`).

/// Expects `lhs == rhs`, as `#expect(lhs == rhs, comment)` does.
package func expectEqual<T: Equatable>(
  _ lhs: T, _ rhs: T, _ comment: Comment? = nil, sourceLocation: SourceLocation = #_sourceLocation
) {
  if lhs != rhs { Comparison.fail(lhs, "==", rhs, comment, sourceLocation) }
}

/// Expects `lhs != rhs`, as `#expect(lhs != rhs, comment)` does.
package func expectNotEqual<T: Equatable>(
  _ lhs: T, _ rhs: T, _ comment: Comment? = nil, sourceLocation: SourceLocation = #_sourceLocation
) {
  if lhs == rhs { Comparison.fail(lhs, "!=", rhs, comment, sourceLocation) }
}

/// Expects `lhs < rhs`, as `#expect(lhs < rhs, comment)` does.
package func expectLess<T: Comparable>(
  _ lhs: T, _ rhs: T, _ comment: Comment? = nil, sourceLocation: SourceLocation = #_sourceLocation
) {
  if !(lhs < rhs) { Comparison.fail(lhs, "<", rhs, comment, sourceLocation) }
}

/// Expects `lhs <= rhs`, as `#expect(lhs <= rhs, comment)` does.
package func expectLessOrEqual<T: Comparable>(
  _ lhs: T, _ rhs: T, _ comment: Comment? = nil, sourceLocation: SourceLocation = #_sourceLocation
) {
  if !(lhs <= rhs) { Comparison.fail(lhs, "<=", rhs, comment, sourceLocation) }
}

/// Expects `lhs > rhs`, as `#expect(lhs > rhs, comment)` does.
package func expectGreater<T: Comparable>(
  _ lhs: T, _ rhs: T, _ comment: Comment? = nil, sourceLocation: SourceLocation = #_sourceLocation
) {
  if !(lhs > rhs) { Comparison.fail(lhs, ">", rhs, comment, sourceLocation) }
}

/// Expects `lhs >= rhs`, as `#expect(lhs >= rhs, comment)` does.
package func expectGreaterOrEqual<T: Comparable>(
  _ lhs: T, _ rhs: T, _ comment: Comment? = nil, sourceLocation: SourceLocation = #_sourceLocation
) {
  if !(lhs >= rhs) { Comparison.fail(lhs, ">=", rhs, comment, sourceLocation) }
}

/// How a failed comparison is recorded.
package enum Comparison {
  /// The issue's text: `Expectation failed: 3 == 4`, each value as Swift Testing describes it
  /// (`String(describingForTest:)`), then the comment on a line of its own.
  package static func message(_ lhs: some Any, _ op: String, _ rhs: some Any, _ comment: Comment?) -> String {
    var text = "Expectation failed: \(String(describingForTest: lhs)) \(op) \(String(describingForTest: rhs))"
    if let comment { text += "\n" + comment.rawValue }
    return text
  }

  static func fail(
    _ lhs: some Any, _ op: String, _ rhs: some Any, _ comment: Comment?, _ sourceLocation: SourceLocation
  ) {
    Issue.record(Comment(rawValue: message(lhs, op, rhs, comment)), sourceLocation: sourceLocation)
  }
}
