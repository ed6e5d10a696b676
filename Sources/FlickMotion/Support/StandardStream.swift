import Foundation

/// The process's standard streams, and the one way Flick's code writes to them (never `print`,
/// `FileHandle.standardOutput` or `FileHandle.standardError`): a closed stream, a full disk or a
/// reader that went away must never crash Flick, redirect its output or pass unnoticed.
///
/// `FileHandle.write(_:)` traps on any error (`EPIPE` once the reader has gone, `ENOSPC` on a
/// full device, `EBADF` on a closed stream): `flick schema | head -1`, a `flick run` whose stderr
/// reader had gone and `flick render` with stderr closed died with SIGILL (exit 132), the run
/// leaving its temporaries. `print` buffers and forgets errors: `flick info T >/dev/full` exited
/// 0 having written nothing. And a closed descriptor 0, 1 or 2 would be reused by the next
/// `open`, so messages meant for stderr would land in an output file.
///
/// The two streams fail differently:
/// - stderr carries diagnostics (progress, notes, warnings, errors): a line that cannot be
///   written is dropped, and never changes what the command does or its exit status.
/// - stdout carries the command's product (`flick schema`'s JSON, `flick plan -o -`, `info`,
///   `templates`, `--help`, the paths `render` wrote): when it cannot be written the process ends
///   at once, as an interruption does (``onOutputFailure(_:)``: children stopped, temporaries
///   removed), with status 141 and no message when the reader has gone (`EPIPE`; 128 + SIGPIPE,
///   the status of a tool that SIGPIPE ends), else with status 3 and a message on stderr.
///
///     StandardStream.prepare()              // first thing in main
///     StandardStream.writeError("flick: …\n")
///     StandardStream.writeOutputLine(path)
package enum StandardStream {
  /// The exit status when stdout's reader has gone (128 + SIGPIPE).
  package static let brokenPipeStatus: Int32 = 141
  /// The exit status when stdout cannot be written for another reason (`flick`'s "environment").
  package static let failedOutputStatus: Int32 = 3

  /// Opens `/dev/null` on each of descriptors 0, 1 and 2 that is closed, and ignores SIGPIPE so a
  /// vanished reader is an `EPIPE` error rather than a kill. Idempotent.
  package static func prepare() {
    _ = prepared
  }

  private static let prepared: Void = {
    for fd: Int32 in 0...2 where fcntl(fd, F_GETFD) == -1 && errno == EBADF {
      let null = open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY)
      if null >= 0 && null != fd {
        dup2(null, fd)
        close(null)
      }
    }
    signal(SIGPIPE, SIG_IGN)
  }()

  /// Writes `text` to stderr; when that fails (the reader has gone, the stream is closed or
  /// full) the text is dropped: a diagnostic cannot be allowed to crash the command it describes
  /// or change its exit code.
  package static func writeError(_ text: String) {
    _ = write(Data(text.utf8), to: STDERR_FILENO)
  }

  /// Writes `text` to stdout; when that fails the process ends (see the type's notes).
  package static func writeOutput(_ text: String) {
    writeOutput(Data(text.utf8))
  }

  /// Writes `bytes` to stdout, as the text form does.
  package static func writeOutput(_ bytes: Data) {
    guard let failure = write(bytes, to: STDOUT_FILENO) else { return }
    endAfterFailedOutput(failure)
  }

  /// Writes `line` and a line feed to stdout, as ``writeOutput(_:)``.
  package static func writeOutputLine(_ line: String) {
    writeOutput(line + "\n")
  }

  /// Sets what runs before the process ends because stdout failed: FlickVideo's `Interruption`
  /// stops every child and removes every temporary there. Nothing is set before it is installed.
  package static func onOutputFailure(_ body: @escaping @Sendable () -> Void) {
    cleanup.withLock { $0 = body }
  }

  private static let cleanup = Locked<(@Sendable () -> Void)?>(nil)

  /// Ends the process after stdout failed with `code` (an `errno`).
  private static func endAfterFailedOutput(_ code: Int32) -> Never {
    cleanup.withLock { $0 }?()
    if code == EPIPE { _exit(brokenPipeStatus) }
    writeError("flick: cannot write to standard output: \(quoted: String(cString: strerror(code)))\n")
    _exit(failedOutputStatus)
  }

  /// Writes all of `bytes` to `fd`, retrying partial writes, EINTR and a non-blocking stream's
  /// EAGAIN; returns the `errno` of the failure that stopped it, or nil.
  private static func write(_ bytes: Data, to fd: Int32) -> Int32? {
    bytes.withUnsafeBytes { buffer -> Int32? in
      guard var p = buffer.baseAddress else { return nil }
      var remaining = buffer.count
      while remaining > 0 {
        let n = Foundation.write(fd, p, remaining)
        if n < 0 {
          let code = errno
          if code == EINTR { continue }
          if code == EAGAIN || code == EWOULDBLOCK {
            var ready = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            if poll(&ready, 1, -1) >= 0 || errno == EINTR { continue }
          }
          return code
        }
        p += n
        remaining -= n
      }
      return nil
    }
  }
}
