/// An invalid animation description: empty keyframes, mismatched key times, a malformed spec.
///
/// The position is structured, not baked into the text: ``column`` is the 1-based column in the
/// spec text (templates add the column where the spec starts in their file, or use ``argument``
/// to point at the member of an object form such as `spring: { bounciness: 30 }`);
/// ``description`` is `"column N: message"` when a column is known.
package struct MotionError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What was wrong and what was expected, without the position.
  package let message: String
  /// The 1-based column in the spec text where the problem is, when it is at a place in it.
  package let column: Int?
  /// The argument (label) the problem is about, when there is one (`bounciness` in
  /// `spring(bounciness: 30)`).
  package let argument: String?

  package init(_ message: String, column: Int? = nil, argument: String? = nil) {
    self.message = message
    self.column = column.flatMap { $0 > 0 ? $0 : nil }  // 0: built in code, no text position
    self.argument = argument
  }

  /// `"column N: message"`, or the message alone.
  package var description: String { column.map { "column \(quoted: $0): \(escaped: message)" } ?? message }

  /// The same error with its column moved by `offset` (a spec embedded in a longer text).
  package func shifted(by offset: Int) -> MotionError {
    MotionError(message, column: column.map { $0 + offset }, argument: argument)
  }
}
