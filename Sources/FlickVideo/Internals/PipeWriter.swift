import Foundation

/// Low-level writes to a pipe: whole buffers, retrying on EINTR and partial writes.
enum PipeWriter {
  /// Writes every byte of `bytes` to `fd`.
  ///
  /// - Returns: nil on success, or the `errno` description of the failure (EPIPE when the reader
  ///   has gone).
  static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> String? {
    guard var p = bytes.baseAddress else { return nil }
    var remaining = bytes.count
    while remaining > 0 {
      let n = write(fd, p, remaining)
      if n < 0 {
        if errno == EINTR { continue }
        return String(cString: strerror(errno))
      }
      p += n
      remaining -= n
    }
    return nil
  }

  /// Raises the pipe's capacity to 1 MiB (Linux `F_SETPIPE_SZ`), so a frame crosses in few
  /// system calls; harmless where unsupported.
  static func enlarge(_ fd: Int32) {
    #if os(Linux)
      _ = fcntl(fd, 1031 /* F_SETPIPE_SZ */, 1 << 20)
    #endif
  }

  /// Ignore SIGPIPE once per process, so a dead reader shows up as EPIPE instead of killing us.
  static let ignoreSIGPIPE: Void = {
    signal(SIGPIPE, SIG_IGN)
  }()
}
