/// A control call the ``Animator`` or ``PropertyAnimator`` cannot honour.
public struct AnimatorError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What was wrong, the state it was in and what is allowed.
  public let message: String

  public init(_ message: String) { self.message = message }

  public var description: String { message }
}
