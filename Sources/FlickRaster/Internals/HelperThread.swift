import Foundation

/// A thread of its own for work that another thread will wait for: unlike a queue's worker it is
/// running as soon as ``start(_:)`` returns, so ``join()`` cannot wait for work nobody runs. When
/// the system refuses a thread, ``start(_:)`` returns nil and the caller does the work itself.
final class HelperThread {
  private let thread: pthread_t
  private var joined = false

  private init(_ thread: pthread_t) { self.thread = thread }

  /// Runs `body` on a new thread, or returns nil (and never runs it) when none can be made.
  static func start(_ body: @escaping () -> Void) -> HelperThread? {
    final class Box {
      let body: () -> Void
      init(_ body: @escaping () -> Void) { self.body = body }
    }
    let retained = Unmanaged.passRetained(Box(body))
    var thread = pthread_t()
    let status = pthread_create(
      &thread, nil,
      { context in
        guard let context else { return nil }
        Unmanaged<Box>.fromOpaque(context).takeRetainedValue().body()
        return nil
      }, retained.toOpaque())
    guard status == 0 else {
      retained.release()
      return nil
    }
    return HelperThread(thread)
  }

  /// Waits until `body` has returned (at once after the first call).
  func join() {
    guard !joined else { return }
    joined = true
    pthread_join(thread, nil)
  }

  deinit { join() }
}
