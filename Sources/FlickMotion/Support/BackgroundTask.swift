import Foundation

/// Work that runs on a thread of its own while the caller goes on: `flick render`'s glyph check
/// beside a frame's rendering and the encoders' start-up, `flick run`'s finish of one job while
/// it draws the next. ``wait()`` gives its outcome; ``isDone`` says whether it is there yet.
package final class BackgroundTask<Value: Sendable>: Sendable {
  private let outcome = Locked<Result<Value, any Error>?>(nil)
  private let done = DispatchSemaphore(value: 0)

  /// Starts `body` at once, on a drawing thread (``DrawingThread``, what the raster workers get
  /// too: a GIF's finish, say, runs the same code on either).
  package init(_ body: @escaping @Sendable () throws -> Value) {
    let outcome = self.outcome
    let done = self.done
    DrawingThread.start(name: "flick.background") {
      let result = Result { try body() }
      outcome.withLock { $0 = result }
      done.signal()
    }
  }

  /// Whether the work has ended (``wait()`` then returns at once).
  package var isDone: Bool { outcome.withLock { $0 != nil } }

  /// Waits for the work, then returns its value, or throws what it threw (every call alike).
  @discardableResult
  package func wait() throws -> Value {
    if let result = outcome.withLock({ $0 }) { return try result.get() }
    done.wait()
    done.signal()
    // The work stores its result before it signals `done`.
    guard let result = outcome.withLock({ $0 }) else { preconditionFailure("signalled without a result") }
    return try result.get()
  }
}
