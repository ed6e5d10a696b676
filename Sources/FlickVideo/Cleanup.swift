import Foundation

/// The temporary files, folders and ffmpeg processes of the outputs in progress, so an
/// interruption can remove and stop them all.
///
/// Sinks register a temporary path before anything can create it, and a process while holding
/// the registry's lock around its launch, so no interruption can slip between the two.
public final class Cleanup: @unchecked Sendable {
  /// The process-wide registry.
  public static let shared = Cleanup()

  private let lock = NSRecursiveLock()
  private var files: Set<String> = []
  private var folders: Set<String> = []
  private var processes: [Int32: Int] = [:]

  /// Runs `body` with the registry locked (an interruption waits until it returns).
  func locked<T>(_ body: () throws -> T) rethrows -> T {
    lock.lock()
    defer { lock.unlock() }
    return try body()
  }

  func add(file path: String) { locked { _ = files.insert(path) } }
  /// Renames a finished temporary file over `destination` while no signal handler can delete it,
  /// then forgets it; on failure the temporary file is removed.
  ///
  /// - Returns: nil on success, or ``VideoError/cannotWrite(path:reason:)``.
  func commitFile(_ temporaryPath: String, to destination: String) -> VideoError? {
    locked {
      defer { files.remove(temporaryPath) }
      guard rename(temporaryPath, destination) == 0 else {
        let reason = String(cString: strerror(errno))
        unlink(temporaryPath)
        return .cannotWrite(path: destination, reason: reason)
      }
      return nil
    }
  }

  func remove(file path: String) { locked { _ = files.remove(path) } }
  func add(folder path: String) { locked { _ = folders.insert(path) } }
  func remove(folder path: String) { locked { _ = folders.remove(path) } }
  func add(process pid: Int32) { locked { processes[pid, default: 0] += 1 } }
  func remove(process pid: Int32) { locked { _ = processes.removeValue(forKey: pid) } }

  /// Kills every registered process, waits until they can no longer write, then removes every
  /// registered file and folder. Leaves the lock held: the caller is about to exit.
  func interruptAll() {
    lock.lock()
    for pid in processes.keys { kill(pid, SIGKILL) }
    for pid in processes.keys { Self.waitUntilDead(pid) }
    for path in files { unlink(path) }
    for path in folders { Self.removeFolder(path) }
  }

  /// Removes a folder the rendering thread may still be writing into: moves it aside first (new
  /// writes then fail), then retries the recursive removal until it is gone.
  private static func removeFolder(_ path: String) {
    let aside = path + ".removing"
    let target = rename(path, aside) == 0 ? aside : path
    for _ in 0..<100 {
      try? FileManager.default.removeItem(atPath: target)
      if access(target, F_OK) != 0 { return }
      usleep(2000)
    }
  }

  /// Polls until `pid` is a zombie or gone (at most about a second); a killed process can no
  /// longer create files after that.
  private static func waitUntilDead(_ pid: Int32) {
    for _ in 0..<200 {
      #if os(Linux)
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return }
        if let close = stat.lastIndex(of: ")"), stat.index(close, offsetBy: 2) < stat.endIndex,
          stat[stat.index(close, offsetBy: 2)] == "Z"
        {
          return
        }
      #else
        if kill(pid, 0) != 0 { return }
      #endif
      usleep(5000)
    }
  }
}
