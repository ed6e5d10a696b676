import CSpawn
import FlickMotion
import Foundation

/// A child process Flick starts (ffmpeg for an output, a probe, a merge): the one way Flick
/// starts a process.
///
/// - The child leads a process group of its own, so stopping it stops everything it started
///   too (a wrapper script that runs ffmpeg without `exec`, and whatever that leaves running).
/// - It is registered with ``Cleanup`` (with the temporary `files` it writes) while the registry
///   is locked around its start, so an interruption kills its group and removes the files.
/// - Captured streams are drained on threads of their own while it runs (the last `keep`
///   bytes are kept), so it never blocks on a full pipe.
/// - Every wait is bounded: ``wait(timeout:stall:)`` returns once the child has exited, or when
///   a timeout or a stall passes; after the child exits its pipes get ``grace`` seconds to
///   close (a grandchild may hold them), then the whole group is killed and the child reaped.
///   No EOF is ever awaited from a process that is not the child.
/// - On Linux the child is killed when Flick itself dies (`PR_SET_PDEATHSIG`): children are
///   started from one thread that lives as long as the process (``Spawner``), so a Flick killed
///   outright (SIGKILL) takes its ffmpeg processes with it.
package final class Subprocess: @unchecked Sendable {
  /// Where a standard stream of the child goes.
  package enum Stream: Sendable {
    /// `/dev/null`.
    case null
    /// A pipe: for standard input, ``writeInput(_:stallTimeout:)`` writes to it; for output
    /// and error, it is drained and kept (``outputText``, ``errorText``).
    case pipe
    /// A descriptor of the caller's (the end of a pipe between two children); the caller
    /// closes its own copy once the children are started.
    case descriptor(Int32)
    /// For standard error: the same pipe as standard output.
    case output
  }

  /// How the child ended.
  package enum Ending: Equatable, Sendable {
    /// It exited with this status.
    case exited(Int32)
    /// It was killed by this signal.
    case signalled(Int32)
  }

  /// The child's process id, which is also its process group id.
  package let pid: Int32
  /// The program started, for messages.
  package let executable: String
  /// Seconds the pipes get to close once the child has exited before its group is killed.
  package var grace = 2.0
  private var input: Int32 = -1
  private let output: Capture?
  private let error: Capture?
  private var ending: Ending?

  /// Starts `executable` with `arguments`, registering it and `files` with ``Cleanup``.
  ///
  /// - Parameter keep: Bytes of each captured stream kept (the last ones).
  /// - Throws: ``VideoError/launchFailed(_:)`` naming the program and the system's reason.
  package init(
    executable: String, arguments: [String], input: Stream = .null, output: Stream = .null, error: Stream = .null,
    keep: Int = 65536, files: [String] = []
  ) throws(VideoError) {
    self.executable = executable
    var opened: [Int32] = []  // descriptors to close once the child holds its copies
    func pipeEnds() -> (read: Int32, write: Int32)? { Self.pipe().map { ($0[0], $0[1]) } }
    var childFDs: [Int32] = [-1, -1, -1]
    var inputEnd: Int32 = -1, outputEnd: Int32 = -1, errorEnd: Int32 = -1
    var failed = false
    switch input {
    case .pipe:
      if let ends = pipeEnds() {
        childFDs[0] = ends.read
        inputEnd = ends.write
        opened.append(ends.read)
      } else {
        failed = true
      }
    case .descriptor(let fd): childFDs[0] = fd
    case .null, .output: break
    }
    for (slot, stream) in [(1, output), (2, error)] {
      switch stream {
      case .pipe:
        if let ends = pipeEnds() {
          childFDs[slot] = ends.write
          opened.append(ends.write)
          if slot == 1 { outputEnd = ends.read } else { errorEnd = ends.read }
        } else {
          failed = true
        }
      case .descriptor(let fd): childFDs[slot] = fd
      case .output where slot == 2: childFDs[2] = childFDs[1]
      case .null, .output: break
      }
    }
    func closeAll() { for fd in opened + [inputEnd, outputEnd, errorEnd] where fd >= 0 { close(fd) } }
    if failed {
      closeAll()
      throw .launchFailed("\(quoted: executable): cannot create a pipe: \(quoted: String(cString: strerror(errno)))")
    }
    let fds = childFDs
    let started: Int32 = Cleanup.shared.locked {
      let pid = Spawner.shared.spawn(executable, [executable] + arguments, fds, retryingBusy: 50)
      if pid > 0 {
        for file in files { Cleanup.shared.add(file: file) }
        Cleanup.shared.add(process: pid)
      }
      return pid
    }
    for fd in opened { close(fd) }
    guard started > 0 else {
      for fd in [inputEnd, outputEnd, errorEnd] where fd >= 0 { close(fd) }
      throw .launchFailed("\(quoted: executable): \(quoted: String(cString: strerror(-started)))")
    }
    pid = started
    self.input = inputEnd
    self.output = outputEnd >= 0 ? Capture(fd: outputEnd, keep: keep) : nil
    self.error = errorEnd >= 0 ? Capture(fd: errorEnd, keep: keep) : nil
  }

  deinit {
    stop()
    closeInput()
  }

  /// What the child wrote to its standard output (with its error, for ``Stream/output``).
  package var outputText: String { output?.text ?? "" }
  /// The last of what the child wrote to its standard error.
  package var errorText: String { error?.text ?? "" }
  /// The write end of the child's standard input (-1 when it has none or it was closed).
  package var inputDescriptor: Int32 { input }

  /// Writes `bytes` whole to the child's standard input.
  ///
  /// - Parameter stallTimeout: Seconds the child's group may take nothing and use no CPU (nil:
  ///   block).
  /// - Returns: nil, or why not everything was written.
  func writeInput(_ bytes: UnsafeRawBufferPointer, stallTimeout: Double?) -> PipeWriter.Failure? {
    let pid = self.pid
    return PipeWriter.writeAll(input, bytes, stallTimeout: stallTimeout) { Self.groupCPUTicks(pid) }
  }

  /// Hands `bytes` whole to the child's standard input by reference (``PipeWriter/spliceAll``),
  /// keeping the array in `frames` until the child has read it; then waits until the child has
  /// read every earlier frame, so that only `bytes` stays kept.
  ///
  /// - Parameter stallTimeout: Seconds the child's group may take nothing and use no CPU (nil:
  ///   block).
  /// - Returns: nil, or why not everything was handed over (the frames stay kept: let go of
  ///   them once the child has been reaped).
  func spliceInput(_ bytes: [UInt8], keepingIn frames: inout SplicedFrames, stallTimeout: Double?)
    -> PipeWriter.Failure?
  {
    // Only Linux has vmsplice; a pipe that cannot count its unread bytes takes copies too.
    guard Self.splices, frames.byReference else {
      return bytes.withUnsafeBytes { writeInput($0, stallTimeout: stallTimeout) }
    }
    let pid = self.pid
    let input = self.input
    frames.keep(bytes)
    let failure = bytes.withUnsafeBytes {
      PipeWriter.spliceAll(input, $0, stallTimeout: stallTimeout) { Self.groupCPUTicks(pid) }
    }
    if let failure { return failure }
    return frames.awaitAllButLast(input, stallTimeout: stallTimeout) { Self.groupCPUTicks(pid) }
  }

  /// Whether ``spliceInput(_:keepingIn:stallTimeout:)`` hands frames over by reference here.
  #if os(Linux)
    static let splices = true
  #else
    static let splices = false
  #endif

  /// Closes the child's standard input (it then sees the end of its input); idempotent.
  package func closeInput() {
    guard input >= 0 else { return }
    close(input)
    input = -1
  }

  /// Waits until the child has exited, then gives its pipes ``grace`` seconds, kills what is
  /// left of its group and reaps it.
  ///
  /// - Parameters:
  ///   - timeout: Seconds to wait at most (nil: no bound of its own).
  ///   - stall: Seconds the child's group may go without using CPU (nil: no such bound).
  /// - Returns: How it ended, or nil when the timeout or the stall passed first (it still
  ///   runs: ``stop()`` it).
  package func wait(timeout: Double? = nil, stall: Double? = nil) -> Ending? {
    if let ending { return ending }
    let clock = Stopwatch()
    var idle = Stopwatch()
    var checked = Stopwatch()
    var ticks = stall == nil ? 0 : Self.groupCPUTicks(pid)
    // Woken as the child exits (a pidfd), not at the next of a series of short sleeps.
    let exit = flick_child_open(pid)
    defer { if exit >= 0 { close(exit) } }
    while !hasExited() {
      if let timeout, clock.seconds >= timeout { return nil }
      if let stall, checked.seconds >= 0.5 {
        checked = Stopwatch()
        let now = Self.groupCPUTicks(pid)
        if now != ticks {
          ticks = now
          idle = Stopwatch()
        } else if idle.seconds >= stall {
          return nil
        }
      }
      flick_child_await(exit, 50)
    }
    return reap()
  }

  /// ``wait(timeout:stall:)``, and ``stop()`` when the timeout or the stall passes first.
  ///
  /// - Returns: How it ended, or nil when it was stopped.
  package func waitOrStop(timeout: Double? = nil, stall: Double? = nil) -> Ending? {
    guard let ending = wait(timeout: timeout, stall: stall) else {
      stop()
      return nil
    }
    return ending
  }

  /// Kills the child's whole group (SIGKILL) if it still runs, and reaps it; idempotent.
  package func stop() {
    guard ending == nil else { return }
    if !hasExited() { kill(-pid, SIGKILL) }
    while !hasExited() { usleep(1000) }
    _ = reap()
  }

  /// Whether the child has exited (it is then a zombie until ``reap()``, so its id, which names
  /// its group, is not reused meanwhile); also true when someone else reaped it.
  private func hasExited() -> Bool { flick_child_exited(pid) != 0 }

  /// Once the child has exited: its pipes get ``grace`` seconds to close, then the rest of its
  /// group is killed, its drains stopped, and the child reaped and unregistered.
  private func reap() -> Ending {
    let captures = [output, error].compactMap { $0 }
    let deadline = Stopwatch()
    for capture in captures { _ = capture.awaitEnd(seconds: grace - deadline.seconds) }
    kill(-pid, SIGKILL)  // a grandchild still running (the group leader is a zombie: the id is not reused)
    let after = Stopwatch()
    for capture in captures { _ = capture.awaitEnd(seconds: 1 - after.seconds) }
    for capture in captures { capture.finish() }
    var status: Int32 = 0
    var result: Ending = .signalled(SIGKILL)
    while true {
      let r = waitpid(pid, &status, 0)
      if r == pid {
        let signal = status & 0x7f
        result = signal == 0 ? .exited((status >> 8) & 0xff) : .signalled(signal)
        break
      }
      if r < 0 && errno == EINTR { continue }
      break  // reaped elsewhere (an interruption): it was killed
    }
    Cleanup.shared.remove(process: pid)
    ending = result
    return result
  }

  /// A pipe whose ends are closed on exec (no child inherits them unless given one): the read
  /// end first; nil when the system refuses.
  package static func pipe() -> [Int32]? {
    var fds: [Int32] = [-1, -1]
    return flick_pipe_cloexec(&fds) == 0 ? fds : nil
  }

  /// CPU time (clock ticks) used so far by the processes of group `pgid`, those exited but not
  /// yet reaped included (Linux, one read of each `/proc/PID/stat`; 0 elsewhere): a wrapper's
  /// ffmpeg works while the wrapper itself sleeps.
  package static func groupCPUTicks(_ pgid: Int32) -> Int {
    max(0, flick_group_scan(pgid, nil, 0, nil))
  }

  /// The live processes of group `pgid` (zombies excluded): for tests and checks.
  package static func liveMembers(ofGroup pgid: Int32) -> [Int32] {
    var capacity = 64
    while true {
      var live = 0
      var members = [Int32](repeating: 0, count: capacity)
      guard flick_group_scan(pgid, &members, capacity, &live) >= 0 else { return [] }
      // A group that grew past the buffer between two scans is read again, with room to spare.
      if live <= capacity { return Array(members.prefix(live)) }
      capacity = live * 2
    }
  }
}
