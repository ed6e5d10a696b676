import CSpawn
import FlickMotion
import Foundation

/// The thread every child process is started from (``Subprocess``).
///
/// Linux's `PR_SET_PDEATHSIG` kills a child when the *thread* that started it ends, not the
/// process: children are therefore started from this one thread, which is never stopped, so they
/// die with Flick and only with Flick.
final class Spawner: @unchecked Sendable {
  static let shared = Spawner()

  private let requests = Locked<[Request]>([])
  private let ready = DispatchSemaphore(value: 0)

  private final class Request: @unchecked Sendable {
    let path: String
    let argv: [String]
    let fds: [Int32]
    var pid: Int32 = 0
    let done = DispatchSemaphore(value: 0)

    init(path: String, argv: [String], fds: [Int32]) {
      self.path = path
      self.argv = argv
      self.fds = fds
    }
  }

  private init() {
    let thread = Thread { [unowned self] in
      while true {
        ready.wait()
        guard let request = requests.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) else { continue }
        request.pid = Self.start(request.path, request.argv, request.fds)
        request.done.signal()
      }
    }
    thread.name = "flick.spawner"
    thread.start()
  }

  /// Starts `path` with `argv` and the child descriptors `fds` (0, 1, 2; -1 for /dev/null) in
  /// a process group of its own; the child's pid, or -errno.
  ///
  /// - Parameter retryingBusy: Attempts more, 20 ms apart, while the exec finds the program busy
  ///   (`ETXTBSY`: a process another thread is starting still holds it open for writing for a
  ///   moment, as a script just written is), as Go's exec does.
  func spawn(_ path: String, _ argv: [String], _ fds: [Int32], retryingBusy: Int = 0) -> Int32 {
    var attempts = 0
    while true {
      let request = Request(path: path, argv: argv, fds: fds)
      requests.withLock { $0.append(request) }
      ready.signal()
      request.done.wait()
      guard request.pid == -ETXTBSY, attempts < retryingBusy else { return request.pid }
      attempts += 1
      usleep(20_000)
    }
  }

  private static func start(_ path: String, _ argv: [String], _ fds: [Int32]) -> Int32 {
    var args: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
    defer { for arg in args { free(arg) } }
    return path.withCString { path in
      args.withUnsafeMutableBufferPointer { args in
        flick_spawn(path, args.baseAddress, environ, fds[0], fds[1], fds[2], getpid())
      }
    }
  }
}

/// One of a child's output streams, drained on a thread of its own into a buffer that keeps
/// the last `keep` bytes; the drain polls, so ``finish()`` can stop it even while another
/// process still holds the pipe open.
final class Capture: Sendable {
  private let data = Locked(Data())
  private let state = Locked((ended: false, stop: false))
  /// Signalled once, as the drain ends (``awaitEnd(seconds:)``).
  private let endSignal = DispatchSemaphore(value: 0)
  private let keep: Int

  init(fd: Int32, keep: Int) {
    self.keep = keep
    let thread = Thread { [self] in
      var buffer = [UInt8](repeating: 0, count: 65536)
      while !state.withLock({ $0.stop }) {
        var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let ready = poll(&pfd, 1, 50)
        if ready < 0 && errno != EINTR { break }
        guard ready > 0 else { continue }
        let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if n < 0 && (errno == EINTR || errno == EAGAIN) { continue }
        guard n > 0 else { break }
        append(buffer[0..<n])
      }
      close(fd)
      state.withLock { $0.ended = true }
      endSignal.signal()
    }
    thread.name = "flick.capture"
    thread.start()
  }

  /// Whether the stream has reached its end (or the drain was stopped).
  var ended: Bool { state.withLock { $0.ended } }

  /// Waits up to `seconds` for the stream to end; whether it has.
  func awaitEnd(seconds: Double) -> Bool {
    if ended { return true }
    guard endSignal.wait(timeout: .now() + max(0, seconds)) == .success else { return ended }
    endSignal.signal()  // for the next waiter
    return true
  }

  /// Stops the drain (if the stream has not ended) and waits until it has closed the pipe.
  func finish() {
    state.withLock { $0.stop = true }
    while !awaitEnd(seconds: 1) {}
  }

  private func append(_ chunk: ArraySlice<UInt8>) {
    data.withLock { data in
      data.append(contentsOf: chunk)
      if data.count > keep { data.removeFirst(data.count - keep) }
    }
  }

  var text: String { data.withLock { String(decoding: $0, as: UTF8.self) } }
}
