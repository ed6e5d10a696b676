import FlickMotion
import Foundation

/// Ends the process when its resident memory, with that of the ffmpeg processes it started,
/// comes within a stated margin of the memory cap (`--max-memory`), as an interruption does:
/// every ffmpeg killed, every temporary file removed, destinations untouched, exit status 3
/// and a message naming the size, the cap and the margin.
///
/// A thread reads `/proc/self/statm` and each registered ffmpeg's `/proc/PID/statm` every
/// ``interval`` seconds. It fires at `cap − margin`, so the peak stays under the cap as long as
/// the process grows by less than the margin between two readings; the margin is
/// ``margin(cap:frameBytes:)``: 64 MiB or one frame's pixels (the largest single allocation a
/// render makes at once), whichever is larger, but at most a quarter of the cap. Resident size
/// is what the kernel counts as the processes' own memory (anonymous and file pages mapped);
/// the page cache of files written is not counted. Linux only (elsewhere nothing is watched).
package enum MemoryWatch {
  /// Seconds between two readings (5 ms).
  package static let interval = 0.005

  /// The margin kept below `cap` for a render whose frames have `frameBytes` bytes.
  package static func margin(cap: Int, frameBytes: Int) -> Int {
    min(cap / 4, max(64 << 20, frameBytes))
  }

  /// What a render may use under `cap` (bytes) without the watch stopping it: the cap less
  /// ``margin(cap:frameBytes:)``, where the watch fires. The up-front check compares the memory
  /// estimate with this (``RenderLimits/memoryBudget(frameBytes:)``), not with the cap, so a cap
  /// it accepts is one the watch does not stop a render within its estimate under.
  package static func budget(cap: Int, frameBytes: Int) -> Int {
    cap - margin(cap: cap, frameBytes: frameBytes)
  }

  /// The smallest cap, in bytes, whose ``budget(cap:frameBytes:)`` holds `bytes`: what a
  /// refusal says to raise the cap to.
  package static func capNeeded(for bytes: Int, frameBytes: Int) -> Int {
    // The margin is a quarter of the cap, or a fixed size when that is smaller: the smaller cap of the two.
    let fixed = bytes + max(64 << 20, frameBytes)
    var quarter = bytes / 3 * 4
    while budget(cap: quarter, frameBytes: frameBytes) < bytes { quarter += 1 }
    while quarter > 0, budget(cap: quarter - 1, frameBytes: frameBytes) >= bytes { quarter -= 1 }
    return min(fixed, quarter)
  }

  /// Starts the watch at `cap` (bytes) or, when lower, at `groupLimit`, the memory limit of the
  /// process's control group (``FlickMotion/MachineMemory/groupLimit``: a container's, a pod's,
  /// a Slurm job's), at which the kernel would kill the process outright with its temporaries
  /// left behind; the margin is ``margin(cap:frameBytes:)`` of the lower one. A later call
  /// replaces both.
  package static func start(cap: Int, frameBytes: Int, groupLimit: Int? = MachineMemory.groupLimit) {
    let bound = bound(cap: cap, groupLimit: groupLimit)
    state.withLock { $0 = (bound.bytes, margin(cap: bound.bytes, frameBytes: frameBytes), bound.byGroup) }
    _ = thread
  }

  /// The watch's bound: the cap, or the group's limit when that is lower.
  package static func bound(cap: Int, groupLimit: Int?) -> (bytes: Int, byGroup: Bool) {
    guard let groupLimit, groupLimit > 0, groupLimit < cap else { return (cap, false) }
    return (groupLimit, true)
  }

  /// What the watch says when it stops a run at `resident` bytes.
  package static func message(resident: Int, bound: Int, margin: Int, byGroup: Bool) -> String {
    let start =
      "\nflick: stopped: the process and its ffmpeg use \(RenderLimits.format(bytes: resident)), within "
      + "\(RenderLimits.format(bytes: margin)) of "
    let end = "; temporary files removed\n"
    guard byGroup else {
      return start
        + "the memory cap of \(RenderLimits.format(bytes: bound)) (--max-memory or FLICK_MAX_MEMORY raises it)"
        + end
    }
    return start + "the memory limit of this process's control group (a container's or a job's), "
      + "\(RenderLimits.format(bytes: bound)), at which the system would kill it (a smaller --scale or fewer "
      + "--jobs needs less)" + end
  }

  /// What the watch leaves before it stops the run: its bound less the margin and what the
  /// process and its children use at one reading.
  package struct Headroom: Sendable, Equatable {
    /// Bytes left (negative past the bound).
    package var bytes: Int
    /// Whether the bound is the control group's limit rather than the cap
    /// (``start(cap:frameBytes:groupLimit:)``).
    package var byGroup: Bool

    package init(bytes: Int, byGroup: Bool) {
      self.bytes = bytes
      self.byGroup = byGroup
    }
  }

  /// What the watch leaves now; nil when nothing is watched (no ``start(cap:frameBytes:groupLimit:)``
  /// or a platform without `/proc`). It depends on the memory in use, so it decides only what
  /// cannot change an output's bytes, or fails what it would change.
  package static func headroom() -> Headroom? {
    #if os(Linux)
      let (cap, margin, byGroup) = state.withLock { $0 }
      guard cap > 0 else { return nil }
      return Headroom(bytes: cap - margin - residentBytes(), byGroup: byGroup)
    #else
      return nil
    #endif
  }

  /// The resident size of this process and of every registered ffmpeg, in bytes (0 where unknown).
  package static func residentBytes() -> Int {
    var total = resident(of: "/proc/self/statm")
    for pid in Cleanup.shared.processIDs { total += resident(of: "/proc/\(pid)/statm") }
    return total
  }

  /// The resident size in a `statm` file, in bytes: its second field times the page size.
  /// Read with plain system calls (no allocation beyond the path), as the watch runs often.
  static func resident(of path: String) -> Int {
    #if os(Linux)
      let fd = open(path, O_RDONLY | O_CLOEXEC)
      guard fd >= 0 else { return 0 }
      defer { close(fd) }
      var buffer = [UInt8](repeating: 0, count: 128)
      let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, 127) }
      guard count > 0 else { return 0 }
      var field = 0
      var value = 0
      for byte in buffer[0..<count] {
        if byte == UInt8(ascii: " ") {
          field += 1
          if field > 1 { break }
        } else if field == 1, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
          value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
      }
      return value * pageSize
    #else
      return 0
    #endif
  }

  private static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
  private static let state = Locked<(cap: Int, margin: Int, byGroup: Bool)>((0, 0, false))

  private static let thread: Void = {
    let thread = Thread {
      while true {
        let (cap, margin, byGroup) = state.withLock { $0 }
        let resident = residentBytes()
        if cap > 0, resident > cap - margin { stop(resident: resident, cap: cap, margin: margin, byGroup: byGroup) }
        usleep(useconds_t(interval * 1_000_000))
      }
    }
    thread.name = "flick.memory"
    thread.start()
  }()

  private static func stop(resident: Int, cap: Int, margin: Int, byGroup: Bool) {
    Interruption.stop(status: 3, message: message(resident: resident, bound: cap, margin: margin, byGroup: byGroup))
  }
}
