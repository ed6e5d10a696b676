import FlickMotion
import Foundation

/// A check that runs on a thread of its own while the caller goes on (the glyph check beside a
/// frame's rendering and the encoders' start-up); ``wait()`` gives its outcome.
final class BackgroundCheck<Value: Sendable>: Sendable {
  private let outcome = Locked<Result<Value, any Error>?>(nil)
  private let done = DispatchSemaphore(value: 0)

  /// Starts `body` at once.
  init(_ body: @escaping @Sendable () throws -> Value) {
    let outcome = self.outcome
    let done = self.done
    Thread.detachNewThread {
      let result = Result { try body() }
      outcome.withLock { $0 = result }
      done.signal()
    }
  }

  /// Waits for the check, then returns its value, or throws what it threw (every call alike).
  @discardableResult
  func wait() throws -> Value {
    if let result = outcome.withLock({ $0 }) { return try result.get() }
    done.wait()
    done.signal()
    // The check stores its result before it signals `done`.
    guard let result = outcome.withLock({ $0 }) else { preconditionFailure("signalled without a result") }
    return try result.get()
  }
}
