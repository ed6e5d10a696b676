import Foundation

/// The process's standard streams made safe for a tool run headless: a closed stream, or a
/// reader that went away, must never crash Flick or redirect its output.
///
/// `FileHandle.write(_:)` traps on any error (an `EPIPE` when the reader of stderr has gone, an
/// `EBADF` when stderr was closed with `2>&-`), which killed `flick render` with SIGILL (exit 132)
/// after the video was written. And a closed descriptor 0, 1 or 2 would be reused by the next
/// `open`, so messages meant for stderr would land in an output file.
///
///     StandardStream.prepare()              // first thing in main
///     StandardStream.writeError("flick: …\n")
package enum StandardStream {
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

  /// Writes `text` to stderr, retrying partial writes and EINTR; any other failure (the reader
  /// has gone, the stream is closed) drops the text: a diagnostic cannot be allowed to crash
  /// the command it describes or change its exit code.
  package static func writeError(_ text: String) {
    write(text, to: 2)
  }

  /// Writes `text` to stdout the same way.
  package static func writeOutput(_ text: String) {
    write(text, to: 1)
  }

  private static func write(_ text: String, to fd: Int32) {
    var bytes = Array(text.utf8)
    bytes.withUnsafeMutableBytes { buffer in
      guard var p = buffer.baseAddress else { return }
      var remaining = buffer.count
      while remaining > 0 {
        let n = Foundation.write(fd, p, remaining)
        if n < 0 {
          if errno == EINTR { continue }
          return
        }
        p += n
        remaining -= n
      }
    }
  }
}
