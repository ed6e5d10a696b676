import FlickMotion
import Foundation

/// Clean interruption on SIGHUP, SIGINT, SIGQUIT and SIGTERM: every running child (ffmpeg,
/// gifsicle) is killed and reaped, every temporary file and folder Flick registered is removed,
/// existing destinations are left as they were, and the process exits with
/// ``exitStatus(for:)``: 130 for SIGINT and SIGTERM, 128 + the signal for the others (129, 131).
///
/// The signal handler itself only records the signal and wakes a watcher thread through a
/// pipe (the only async-signal-safe things to do); the watcher does the cleanup, so it works
/// even while the rendering thread is blocked writing to ffmpeg.
///
/// A signal the parent left ignored (`nohup` ignores SIGHUP; a script's `&` jobs ignore SIGINT
/// and SIGQUIT) stays ignored. SIGQUIT needs its handler replaced: the Swift runtime's crash
/// backtracer (`SWIFT_BACKTRACE`) takes it when it is not ignored, printed "Program crashed"
/// with a backtrace on Ctrl-\, and then returned, so the render went on and exited 0.
///
/// The same cleanup runs when stdout cannot be written (``FlickMotion/StandardStream``).
///
///     Interruption.install()   // once, before starting outputs
package enum Interruption {
  /// The signals that interrupt a run.
  package static let signals: [Int32] = [SIGHUP, SIGINT, SIGQUIT, SIGTERM]

  /// The exit status after `signal`: 130 for SIGINT and SIGTERM (`flick`'s documented
  /// "interrupted"), 128 + the signal for SIGHUP (129) and SIGQUIT (131), as a shell reports a
  /// process that the signal ended.
  package static func exitStatus(for signal: Int32) -> Int32 {
    signal == SIGINT || signal == SIGTERM ? 130 : 128 + signal
  }

  /// Installs the handlers (idempotent), and ignores SIGXFSZ (``PipeWriter/ignoreSIGPIPE``):
  /// a write past the file-size limit then fails with EFBIG and its output is cleaned up like
  /// any failed output, where the signal killed the process and left its temporaries.
  package static func install() {
    _ = installed
    _ = PipeWriter.ignoreSIGPIPE
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
      stop(
        status: status,
        message: "\nflick: stopped after the timeout of \(RenderLimits.format(seconds: seconds)) "
          + "(--timeout or FLICK_TIMEOUT); temporary files removed\n")
    }
    thread.name = "flick.timeout"
    thread.start()
  }

  /// Ends the process now as an interruption does (every ffmpeg killed, every temporary file
  /// removed, destinations untouched), printing `message` and exiting with `status`; for the
  /// watches (`--timeout`, the memory cap, `--frame-timeout`). Returns, doing nothing, when every
  /// output is already in place: the run is left to end on its own.
  package static func stop(status: Int32, message: String) {
    guard Cleanup.shared.interruptAll() else { return }
    StandardStream.writeError(message)
    _exit(status)
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
      let signal = interruptSignal
      StandardStream.writeError(
        "\nflick: interrupted (\(quoted: Interruption.name(of: signal))); temporary files removed\n")
      _exit(Interruption.exitStatus(for: signal))
    }
    watcher.name = "flick.interruption"
    watcher.start()
    // stdout that cannot be written ends the process too: the same cleanup first.
    StandardStream.onOutputFailure { _ = Cleanup.shared.interruptAll() }
    var set = sigset_t()
    sigemptyset(&set)
    for signal in signals {
      var current = sigaction()
      guard sigaction(signal, nil, &current) == 0, !isIgnored(current) else { continue }
      var action = sigaction()
      action.__sigaction_handler.sa_handler = onSignal
      sigemptyset(&action.sa_mask)
      action.sa_flags = SA_RESTART
      sigaction(signal, &action, nil)
      sigaddset(&set, signal)
    }
    // A parent may have started us with these signals blocked (a blocked mask survives exec,
    // and thread pools block everything); unblock them so the handler can run.
    pthread_sigmask(SIG_UNBLOCK, &set, nil)
  }()

  /// Whether `action` ignores its signal (`SIG_IGN`, the handler whose address is 1).
  private static func isIgnored(_ action: sigaction) -> Bool {
    unsafeBitCast(action.__sigaction_handler.sa_handler, to: Int.self) == 1
  }

  /// `SIGINT` for `SIGINT`, and so on; `signal N` for another.
  static func name(of signal: Int32) -> String {
    switch signal {
    case SIGHUP: "SIGHUP"
    case SIGINT: "SIGINT"
    case SIGQUIT: "SIGQUIT"
    case SIGTERM: "SIGTERM"
    default: "signal \(signal)"
    }
  }
}

nonisolated(unsafe) private var interruptSignal: Int32 = 0
nonisolated(unsafe) private var wakeRead: Int32 = -1
nonisolated(unsafe) private var wakeWrite: Int32 = -1

private func onSignal(_ signal: Int32) {
  interruptSignal = signal
  var byte: UInt8 = 1
  _ = write(wakeWrite, &byte, 1)
}
