import FlickMotion
import Foundation

/// Clean interruption on SIGINT / SIGTERM: every running ffmpeg is killed, every temporary
/// file and folder Flick registered is removed, existing destinations are left as they were,
/// and the process exits with status 130.
///
/// The signal handler itself only records the signal and wakes a watcher thread through a
/// pipe (the only async-signal-safe things to do); the watcher does the cleanup, so it works
/// even while the rendering thread is blocked writing to ffmpeg.
///
/// The same cleanup runs when stdout cannot be written (``FlickMotion/StandardStream``).
///
///     Interruption.install()   // once, before starting outputs
package enum Interruption {
  /// Installs the SIGINT and SIGTERM handlers (idempotent).
  package static func install() {
    _ = installed
  }

  /// The signal that interrupted the run, or 0. Code that fails because ffmpeg died from the same
  /// terminal Ctrl-C checks this to report an interruption rather than an encoder failure.
  package static var pendingSignal: Int32 { interruptSignal }

  /// Blocks forever when an interruption is under way (the watcher thread exits the process);
  /// returns at once otherwise.
  package static func waitIfInterrupted() {
    guard interruptSignal != 0 else { return }
    while true { pause() }
  }

  /// Ends the process `seconds` from now as an interruption does (every ffmpeg killed, every
  /// temporary file removed, destinations untouched), but with exit status `status` and a
  /// message naming the timeout. For `--timeout`.
  package static func exit(after seconds: Double, status: Int32) {
    let thread = Thread {
      Thread.sleep(forTimeInterval: seconds)
      // A run whose outputs are all in place is left to end on its own.
      guard Cleanup.shared.interruptAll() else { return }
      let message =
        "\nflick: stopped after the timeout of \(RenderLimits.format(seconds: seconds)) "
        + "(--timeout or FLICK_TIMEOUT); temporary files removed\n"
      StandardStream.writeError(message)
      _exit(status)
    }
    thread.name = "flick.timeout"
    thread.start()
  }

  private static let installed: Void = {
    var fds: [Int32] = [0, 0]
    guard pipe(&fds) == 0 else { return }
    wakeRead = fds[0]
    wakeWrite = fds[1]
    _ = fcntl(fds[1], F_SETFL, O_NONBLOCK)
    let watcher = Thread {
      var byte: UInt8 = 0
      while read(wakeRead, &byte, 1) < 0 && errno == EINTR {}
      // A run whose outputs are all in place (a still's PNG) is left to end on its own, with
      // status 0: exiting 130 would say that nothing was written.
      guard Cleanup.shared.interruptAll() else { return }
      StandardStream.writeError("\nflick: interrupted; temporary files removed\n")
      _exit(130)
    }
    watcher.name = "flick.interruption"
    watcher.start()
    // stdout that cannot be written ends the process too: the same cleanup first.
    StandardStream.onOutputFailure { _ = Cleanup.shared.interruptAll() }
    signal(SIGINT, onSignal)
    signal(SIGTERM, onSignal)
    // A parent may have started us with these signals blocked (a blocked mask survives exec,
    // and thread pools block everything); unblock them so the handler can run.
    var set = sigset_t()
    sigemptyset(&set)
    sigaddset(&set, SIGINT)
    sigaddset(&set, SIGTERM)
    pthread_sigmask(SIG_UNBLOCK, &set, nil)
  }()
}

nonisolated(unsafe) private var interruptSignal: Int32 = 0
nonisolated(unsafe) private var wakeRead: Int32 = -1
nonisolated(unsafe) private var wakeWrite: Int32 = -1

private func onSignal(_ signal: Int32) {
  interruptSignal = signal
  var byte: UInt8 = 1
  _ = write(wakeWrite, &byte, 1)
}
