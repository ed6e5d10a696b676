import Foundation

/// The threads Flick draws on, each with ``stackSize`` bytes of stack whatever the process was
/// given: the painter recurses once per level of a layer tree, and a tree at the drawing cap
/// (``FlickScene/Layer/maximumDrawingDepth``, 128 levels) takes up to 7 MiB of stack. The main
/// thread's stack is what `ulimit -s` says (1 MiB under `ulimit -s 1024`), and a dispatch or
/// Swift concurrency thread's is the system's default, so drawing never runs on them:
/// ``run(_:)`` moves a drawing that starts anywhere else to a thread of its own, and the
/// threads that draw frame after frame (render workers, the studio's, ``BackgroundTask``) are
/// made by ``start(name:_:)``.
package enum DrawingThread {
  /// The stack of every drawing thread: 8 MiB, the 7 MiB the painter may take and room for the
  /// libraries below its deepest level (Cairo, Pango).
  package static let stackSize = 8 << 20

  /// Starts `body` on a new drawing thread named `name` (the thread's name in a debugger, `ps`
  /// and a backtrace).
  package static func start(name: String, _ body: @escaping @Sendable () -> Void) {
    let thread = Thread {
      pthread_setspecific(marker, UnsafeRawPointer(bitPattern: 1))
      body()
    }
    thread.name = name
    thread.stackSize = stackSize
    thread.start()
  }

  /// Whether the calling thread is a drawing thread (made by ``start(name:_:)``).
  package static var isCurrent: Bool { pthread_getspecific(marker) != nil }

  /// Runs `body` on a drawing thread and returns what it returns or throws: on the calling
  /// thread when it is one, else on a new one while the caller waits. Drawing entry points call
  /// it, so drawing keeps within its stack whichever thread asks for a frame.
  package static func run<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
    if isCurrent { return try body() }
    let outcome = withoutActuallyEscaping(body) { body -> Result<T, E> in
      let call = Handoff(body: body)
      let done = DispatchSemaphore(value: 0)
      start(name: "flick.draw") {
        call.run()
        done.signal()
      }
      done.wait()
      // The thread stores the result before it signals `done`, and touches it no more. It is
      // taken out of the handoff, which the finishing thread may still hold: a frame's pixels
      // left there too would be shared, and a frame pool would copy them instead of reusing them.
      guard let result = call.takeResult() else { preconditionFailure("signalled without a result") }
      return result
    }
    return try outcome.get()
  }

  /// The thread-specific key that marks drawing threads.
  private static let marker: pthread_key_t = {
    var key = pthread_key_t()
    let status = pthread_key_create(&key, nil)
    precondition(status == 0, "pthread_key_create failed")
    return key
  }()

  /// A call handed to another thread while its caller waits for it: the caller touches it
  /// again only once that thread has signalled, so nothing is shared while both run.
  private final class Handoff<T, E: Error>: @unchecked Sendable {
    /// The call, let go of once it has run: it must not outlive ``run(_:)``'s
    /// `withoutActuallyEscaping`, and the thread may still hold the handoff then.
    var body: (() throws(E) -> T)?
    var result: Result<T, E>?

    init(body: @escaping () throws(E) -> T) { self.body = body }

    /// The result, no longer held here.
    func takeResult() -> Result<T, E>? {
      defer { result = nil }
      return result
    }

    func run() {
      guard let call = body else { return }
      body = nil
      do throws(E) {
        result = .success(try call())
      } catch {
        result = .failure(error)
      }
    }
  }
}
