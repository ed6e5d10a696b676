/// An invalid animation description: empty keyframes, mismatched key times, a malformed spec.
public struct MotionError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What was wrong and what was expected.
  public let message: String

  public init(_ message: String) { self.message = message }

  public var description: String { message }
}
