import CSpawn
import Foundation

/// Low-level writes to a pipe: whole buffers, retrying on EINTR and partial writes.
enum PipeWriter {
  /// Why a write did not complete.
  enum Failure: Error, Equatable, CustomStringConvertible {
    /// The write failed: the `errno` description (EPIPE when the reader has gone).
    case error(String)
    /// The reader took nothing and made no other progress for the stall timeout.
    case stalled

    var description: String {
      switch self {
      case .error(let reason): return reason
      case .stalled: return "the reader made no progress"
      }
    }
  }

  /// Writes every byte of `bytes` to `fd`.
  ///
  /// - Parameters:
  ///   - stallTimeout: With a timeout (seconds), `fd` is made non-blocking and the write waits
  ///     in `poll` slices; when the reader takes nothing for that long and `progress` (a
  ///     counter that moves while the reader works, such as its CPU time) has not moved
  ///     either, the write gives up with ``Failure/stalled``. Without one, it blocks.
  ///   - progress: Sampled once a second while the pipe is full.
  /// - Returns: nil on success, or the failure.
  static func writeAll(
    _ fd: Int32, _ bytes: UnsafeRawBufferPointer, stallTimeout: Double? = nil, progress: () -> Int = { 0 }
  ) -> Failure? {
    transferAll(fd, bytes, stallTimeout: stallTimeout, progress: progress) { p, count, _ in
      let n = write(fd, p, count)
      return n < 0 ? -Int(errno) : n
    }
  }

  /// Hands every byte of `bytes` to the pipe `fd` by reference (`vmsplice`), as ``writeAll``
  /// writes them: the pipe then holds the pages themselves until its reader has read them, so
  /// the caller keeps the memory unchanged and allocated until then (``SplicedFrames``). Where
  /// the system has no `vmsplice` (or refuses it for this descriptor) the rest is written.
  static func spliceAll(
    _ fd: Int32, _ bytes: UnsafeRawBufferPointer, stallTimeout: Double? = nil, progress: () -> Int = { 0 }
  ) -> Failure? {
    transferAll(fd, bytes, stallTimeout: stallTimeout, progress: progress) { p, count, nonblocking in
      let n = flick_pipe_splice(fd, p, UInt(count), nonblocking ? 1 : 0)
      guard n == -Int(ENOSYS) || n == -Int(EINVAL) || n == -Int(EPERM) else { return n }
      let written = write(fd, p, count)
      return written < 0 ? -Int(errno) : written
    }
  }

  /// The loop of ``writeAll`` and ``spliceAll``: `transfer(pointer, count, nonblocking)` moves
  /// some of the bytes and returns how many, or -errno.
  private static func transferAll(
    _ fd: Int32, _ bytes: UnsafeRawBufferPointer, stallTimeout: Double?, progress: () -> Int,
    transfer: (UnsafeRawPointer, Int, Bool) -> Int
  ) -> Failure? {
    guard var p = bytes.baseAddress else { return nil }
    var remaining = bytes.count
    if stallTimeout != nil {
      let flags = fcntl(fd, F_GETFL)
      if flags >= 0 && flags & O_NONBLOCK == 0 { _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK) }
    }
    var watch = StallWatch()
    while remaining > 0 {
      let n = transfer(p, remaining, stallTimeout != nil)
      if n < 0 {
        let error = Int32(-n)
        if error == EINTR { continue }
        if error == EAGAIN || error == EWOULDBLOCK, let stallTimeout {
          var pfd = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
          if poll(&pfd, 1, 1000) == 0 && watch.stalled(stallTimeout, counter: progress()) { return .stalled }
          continue
        }
        return .error(String(cString: strerror(error)))
      }
      p += n
      remaining -= n
      watch.moved()
    }
    return nil
  }

  /// The CPU time `pid` has used, in clock ticks (Linux `/proc/PID/stat` utime + stime), or 0.
  static func cpuTicks(of pid: Int32) -> Int {
    #if os(Linux)
      guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
        let close = stat.lastIndex(of: ")")
      else { return 0 }
      // Fields after the command name: state is the 3rd field, utime the 14th, stime the 15th.
      let fields = stat[stat.index(after: close)...].split(separator: " ")
      guard fields.count > 12, let user = Int(fields[11]), let system = Int(fields[12]) else { return 0 }
      return user + system
    #else
      return 0
    #endif
  }

  /// Raises the pipe's capacity to 1 MiB (Linux `F_SETPIPE_SZ`), so a frame crosses in few
  /// system calls; harmless where unsupported.
  static func enlarge(_ fd: Int32) {
    #if os(Linux)
      _ = fcntl(fd, 1031 /* F_SETPIPE_SZ */, 1 << 20)
    #endif
  }

  /// Ignore SIGPIPE once per process, so a dead reader shows up as EPIPE instead of killing us,
  /// and SIGXFSZ, so a write past the file-size limit shows up as EFBIG (the output fails and
  /// its temporaries are removed) instead of killing us and leaving them.
  static let ignoreSIGPIPE: Void = {
    signal(SIGPIPE, SIG_IGN)
    signal(SIGXFSZ, SIG_IGN)
  }()
}

/// Elapsed monotonic time since it was made.
struct Stopwatch {
  private let start = DispatchTime.now().uptimeNanoseconds

  /// Seconds since the stopwatch was made.
  var seconds: Double { Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 }
}

/// How long a reader has made no progress: it moves when the reader takes bytes (``moved()``)
/// and, while it takes none, when its `counter` (its CPU time, say) changes.
struct StallWatch {
  private var idle = Stopwatch()
  private var lastCounter = Int.min

  /// The reader took bytes.
  mutating func moved() { idle = Stopwatch() }

  /// The reader took nothing since the last call: whether neither its bytes nor `counter` have
  /// moved for `timeout` seconds.
  mutating func stalled(_ timeout: Double, counter: Int) -> Bool {
    guard counter == lastCounter else {
      lastCounter = counter
      idle = Stopwatch()
      return false
    }
    return idle.seconds >= timeout
  }
}
