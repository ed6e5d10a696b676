import Foundation

/// Runs a test's blocking wait (on a subprocess that sleeps, a timeout, a poll) on a thread of its
/// own while the test's task is suspended, so the test gives its thread back to the runner.
///
/// Swift Testing runs tests on Swift concurrency's global executor, which on Linux is libdispatch's
/// root queue: as many threads as cores, and one more at most once a second while they are all
/// blocked. A test that waits there for a child that sleeps (a stuck encoder, a stall timeout, a
/// lock) keeps a core idle for as long as it waits; four of them at once idled both cores of the
/// `make test` machine for seconds (docs/benchmarks.md, "`make test` time"). A test whose waits
/// go through ``run(_:)`` is `async`, and other tests run meanwhile.
///
/// `body` runs outside the test's task, where Swift Testing cannot tell which test an issue
/// belongs to: it returns what it saw, and the test checks it (`#expect`) after the `await`.
package enum OffPool {
  /// Runs `body` on a new thread (8 MiB of stack, as the render workers) and returns what it
  /// returns, or throws what it throws, once it has ended.
  package static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
      let thread = Thread { continuation.resume(with: Result { try body() }) }
      thread.name = "flick.test.wait"
      thread.stackSize = 8 << 20
      thread.start()
    }
  }
}
