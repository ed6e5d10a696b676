import Foundation

/// Runs a call that is given a FIFO in place of a file, so a regression that opens or reads it
/// (and would wait for a writer forever) fails its test instead of hanging the suite.
package enum FIFOGuard {
  final class Outcome: @unchecked Sendable {
    let done = DispatchSemaphore(value: 0)
    var threw = false
  }

  /// Runs `body` on a thread of its own; whether it ended within `seconds`, and whether it threw.
  /// A call still blocked on `fifo` is released (a writer opens and closes it) before this returns.
  package static func ends(
    fifo: String, within seconds: Double = 5, _ body: @escaping @Sendable () throws -> Void
  ) -> (ended: Bool, threw: Bool) {
    let outcome = Outcome()
    Thread {
      do { try body() } catch { outcome.threw = true }
      outcome.done.signal()
    }.start()
    guard outcome.done.wait(timeout: .now() + seconds) == .success else {
      let fd = open(fifo, O_WRONLY | O_NONBLOCK)
      if fd >= 0 { close(fd) }
      _ = outcome.done.wait(timeout: .now() + 5)
      return (false, outcome.threw)
    }
    return (true, outcome.threw)
  }

  /// A FIFO at `path` (`mkfifo`, mode 0600); throws when it cannot be made.
  package static func make(_ path: String) throws {
    guard mkfifo(path, 0o600) == 0 else { throw CocoaError(.fileWriteUnknown) }
  }

  /// A sparse file of `bytes` bytes at `path` (no disk space used): a file over a cap.
  package static func sparseFile(_ path: String, bytes: Int) throws {
    guard FileManager.default.createFile(atPath: path, contents: nil), truncate(path, off_t(bytes)) == 0 else {
      throw CocoaError(.fileWriteUnknown)
    }
  }
}
