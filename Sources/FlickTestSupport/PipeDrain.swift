import Foundation

/// Reads a pipe to its end on a thread of its own, so that a test can read another pipe of the
/// same process, or wait with a time limit, meanwhile. Not the global queue: on Linux that is
/// libdispatch's root queue, the test runner's pool, which adds a thread at most once a second
/// when the ones it has are blocked, so a reader blocked there idled a core (docs/benchmarks.md,
/// "`make test` time"). Used from one thread.
package final class PipeDrain: @unchecked Sendable {
  private var data = Data()
  private let done = DispatchSemaphore(value: 0)
  /// Whether the reader has been seen to finish (its signal is taken once).
  private var ended = false

  /// Starts reading `handle` until its end.
  package init(_ handle: FileHandle) {
    Thread { [self] in
      data = handle.readDataToEndOfFile()
      done.signal()
    }.start()
  }

  /// Whether the pipe has ended by `deadline`.
  package func ended(by deadline: DispatchTime) -> Bool {
    if !ended { ended = done.wait(timeout: deadline) == .success }
    return ended
  }

  /// Everything the pipe carried, once it has ended.
  package func wait() -> Data {
    if !ended {
      done.wait()
      ended = true
    }
    return data
  }
}
