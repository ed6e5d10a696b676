import FlickMotion
import Foundation

/// The lock a `flick run` holds on its report while it runs (`REPORT.lock` beside it, with
/// `flock`): the kernel drops it when the process ends, however it ends (SIGKILL, a lost
/// container included), so a reader knows without guessing from clocks whether the report's
/// `running` job is under way (``isHeld(report:)``) or was interrupted.
package final class RunLock: Sendable {
  /// The lock file.
  package let path: String
  private let descriptor: Int32

  /// Takes the lock of the report at `report`, creating its folder and lock file when needed.
  ///
  /// - Throws: ``BatchError/invalidInput(_:)`` when another live run holds it (two runs would
  ///   overwrite one report), ``BatchError/environment(_:)`` when the file cannot be made.
  package init(report: String) throws(BatchError) {
    path = report + ".lock"
    let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
    do {
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    } catch {
      // The real reason (a read-only output folder, a file in the way), not the open's ENOENT.
      throw .environment(
        "cannot create the folder \(quoted: folder) for the lock \(quoted: path): \(escaped: MessageText.reason(error))"
      )
    }
    let fd = open(path, O_RDWR | O_CREAT | O_NONBLOCK | O_CLOEXEC | O_NOFOLLOW, 0o644)
    guard fd >= 0 else {
      throw .environment("cannot open the lock \(quoted: path): \(quoted: String(cString: strerror(errno)))")
    }
    guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
      close(fd)
      throw .invalidInput(
        "another 'flick run' is writing the report \(quoted: report) now (it holds \(quoted: path)); "
          + "wait for it, or give --report PATH")
    }
    descriptor = fd
  }

  deinit {
    flock(descriptor, LOCK_UN)
    close(descriptor)
  }

  /// Whether a live process holds the lock of the report at `report` (false when there is no
  /// lock file: the run that wrote the report is not running here).
  package static func isHeld(report: String) -> Bool {
    let fd = open(report + ".lock", O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOFOLLOW)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    if flock(fd, LOCK_SH | LOCK_NB) == 0 {
      flock(fd, LOCK_UN)
      return false
    }
    return errno == EWOULDBLOCK
  }

  /// This process as a report's ``BatchReport/Owner``.
  package static var owner: BatchReport.Owner {
    let stat = (try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8)) ?? ""
    // Fields after the command name (which may hold spaces) start at field 3: state.
    let fields = stat.split(separator: ")").last.map { $0.split(separator: " ") } ?? []
    let started = fields.count > 19 ? UInt64(fields[19]) ?? 0 : 0
    return BatchReport.Owner(pid: getpid(), host: ProcessInfo.processInfo.hostName, started: started)
  }
}
