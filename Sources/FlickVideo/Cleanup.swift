import FlickMotion
import Foundation

/// The temporary files, folders and ffmpeg processes of the outputs in progress, so an
/// interruption can remove and stop them all.
///
/// Sinks register a temporary path before anything can create it, and a process while holding
/// the registry's lock around its launch, so no interruption can slip between the two.
package final class Cleanup: @unchecked Sendable {
  /// The process-wide registry.
  package static let shared = Cleanup()

  private let lock = NSRecursiveLock()
  private var files: Set<String> = []
  /// Folders to remove whole, each with the folders above it that the run made for it (the
  /// deepest first), removed only when they are empty: other runs may share them.
  private var folders: [String: [String]] = [:]
  private var processes: [Int32: Int] = [:]
  /// Set by ``commitLastFile(_:to:)``: every output is in place, an interruption changes nothing.
  private var complete = false

  /// Runs `body` with the registry locked (an interruption waits until it returns).
  package func locked<T>(_ body: () throws -> T) rethrows -> T {
    lock.lock()
    defer { lock.unlock() }
    return try body()
  }

  package func add(file path: String) { locked { _ = files.insert(path) } }

  /// Registers a temporary file another module creates (such as `flick still`'s PNG), so an
  /// interruption removes it; ``forget(temporaryFile:)`` once it has been renamed or removed.
  package func register(temporaryFile path: String) { add(file: path) }
  /// Forgets a file given to ``register(temporaryFile:)``.
  package func forget(temporaryFile path: String) { remove(file: path) }

  /// Removes what an earlier Flick run that was killed outright (SIGKILL, power loss) left in
  /// `folder`: temporary files and folders named `.NAME.PID.partial` (outputs, sequence folders,
  /// a GIF's parts `.NAME.partN.gif.PID.partial` and merged file `.NAME.merged.EXT.PID.partial`),
  /// `.NAME.PID.frames` (a frame spool), `.NAME.PID.palette.png` (or `.pam`, or an older
  /// version's `.bgra`), a two-pass
  /// encoding's logs `.NAME.PID.passlog-0.log…` (``FFmpegCommand/TwoPass/logFiles(_:)``),
  /// `.NAME.PID.tmp`, `.NAME.PID.removing` or `.NAME.PID.old` whose PID is no longer a running
  /// process (an `.old` sequence folder whose NAME is missing is renamed back instead). Entries of
  /// running processes (this one, or another Flick rendering beside it) are left alone.
  /// Temporaries are named only by Flick and only beside the outputs they become, so nothing else
  /// matches; PIDs are those of this machine (a folder shared between machines could see another
  /// machine's PID, which is why only Flick's own suffixes are touched).
  ///
  /// - Parameter outputs: When given, only the temporaries of these output names (`.NAME.…`) are
  ///   looked at: `flick run` sweeps its own job's outputs only, since the shards of a batch on
  ///   other machines may write other outputs into the same folder.
  /// - Returns: The paths removed.
  @discardableResult
  package static func removeStale(in folder: String, outputs: Set<String>? = nil) -> [String] {
    guard let names = hiddenNames(in: folder) else { return [] }
    var removed: [String] = []
    for name in names {
      if let outputs, !outputs.contains(where: { name.utf8.starts(with: ".\($0).".utf8) }) { continue }
      guard let pid = temporaryOwner(name), ownerHasExited(pid) else { continue }
      let path = folder + "/" + name
      var info = stat()
      guard lstat(path, &info) == 0 else { continue }
      let isFolder = (info.st_mode & S_IFMT) == S_IFDIR
      // What each kind of temporary is: a file for an encoder's output (named after a format's
      // extension), a PNG's temporary or a palette; a folder for a PNG sequence being written
      // or removed.
      let stem = outputExtension(of: name)
      let expected: Bool
      if name.hasSuffix(".partial") {
        expected = isFolder || OutputFormat.allCases.contains { $0.rawValue == stem.lowercased() } || stem == "mp4"
      } else if name.hasSuffix(".tmp") {
        expected = !isFolder && stem.lowercased() == "png"
      } else if Self.paletteSuffixes.contains(where: name.hasSuffix) {
        expected = !isFolder
      } else if name.contains(".passlog-0.log") {
        expected = !isFolder
      } else if name.hasSuffix(".frames") {
        expected = !isFolder && OutputFormat.allCases.contains { $0.rawValue == stem.lowercased() }
      } else {
        expected = isFolder
      }
      guard expected else { continue }
      if name.hasSuffix(".old") {
        // A sequence folder renamed aside by a swap that was killed before it finished: when
        // nothing took its place, it goes back rather than away.
        let original = String(name.dropFirst().dropLast(".old".count).dropLast(String(pid).count + 1))
        if !original.isEmpty, access(folder + "/" + original, F_OK) != 0 {
          if AtomicDestination.move(path, to: folder + "/" + original) == nil { removed.append(path) }
          continue
        }
      }
      // A link or file goes itself (never what a link points to); a folder with what it holds.
      let gone = isFolder ? (try? FileManager.default.removeItem(atPath: path)) != nil : unlink(path) == 0
      if gone { removed.append(path) }
    }
    return removed
  }

  /// Whether `pid`, the owner named in a temporary's name, is another process that no longer
  /// runs (so what it left may be removed).
  package static func ownerHasExited(_ pid: Int32) -> Bool {
    pid != getpid() && kill(pid, 0) != 0 && errno == ESRCH
  }

  /// The names in `folder` that start with a dot (every temporary's does), "." and ".." aside;
  /// nil when it cannot be read. Read with `readdir`, the first byte checked before a name
  /// becomes a `String`: an output folder can hold thousands of frames, and every command that
  /// writes into it looks (Foundation's listing made a string of each: 8.6 M instructions of a
  /// `flick still` into a folder of 5,300 files, against 0.25 M).
  static func hiddenNames(in folder: String) -> [String]? {
    guard let directory = opendir(folder) else { return nil }
    defer { closedir(directory) }
    var names: [String] = []
    while let entry = readdir(directory) {
      let name: String? = withUnsafeBytes(of: &entry.pointee.d_name) { raw in
        guard raw.first == UInt8(ascii: ".") else { return nil }
        let bytes = raw.prefix { $0 != 0 }
        guard bytes.count > 2 || bytes.contains(where: { $0 != UInt8(ascii: ".") }) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
      }
      if let name { names.append(name) }
    }
    return names
  }

  /// The extension of the output a temporary belongs to: `mp4` of `.out.mp4.1234.partial`, and
  /// of `..out.gif.1234.merge.1234.partial`, the file of an encoder whose destination is a
  /// merge's own temporary `.out.gif.1234.merge` (``FlickBatch``'s merges).
  static func outputExtension(of name: String) -> String {
    let parts = name.split(separator: ".").dropLast(2)
    if parts.count >= 3, parts.last == "merge", Int32(parts[parts.endIndex - 2]) != nil {
      return String(parts[parts.endIndex - 3])
    }
    return parts.last.map(String.init) ?? ""
  }

  /// A GIF palette's temporary: ffmpeg's PNG, Flick's PAM, and the raw BGRA palettes of older
  /// versions, which a run killed then may have left.
  static let paletteSuffixes = [".palette.png", ".palette.pam", ".palette.bgra"]

  /// The PID in a Flick temporary name (`.out.mp4.1234.partial`), or nil for any other name.
  static func temporaryOwner(_ name: String) -> Int32? {
    // A two-pass encoding's log (`.NAME.PID.passlog-0.log`, `….log.mbtree`, `….temp`): its own
    // suffixes are the encoder's.
    if let log = name.range(of: ".passlog-0.log"),
      FFmpegCommand.TwoPass.logFiles("").contains(String(name[log.lowerBound...].dropFirst(".passlog".count)))
    {
      return temporaryOwner(String(name[..<log.lowerBound]) + ".partial")
    }
    for suffix in [".partial", ".frames", ".tmp", ".removing", ".old"] + paletteSuffixes
    where name.hasSuffix(suffix) {
      var stem = name.dropLast(suffix.count)
      if suffix == ".removing", stem.hasSuffix(".partial") { stem = stem.dropLast(".partial".count) }
      // A palette of one kind (`.NAME.PID.lookahead.palette.png`, `….budget.palette.png`): one
      // word, not a number, between the PID and the suffix.
      if paletteSuffixes.contains(suffix), let dot = stem.lastIndex(of: "."),
        Int32(stem[stem.index(after: dot)...]) == nil, stem[stem.index(after: dot)...].allSatisfy(\.isLetter)
      {
        stem = stem[..<dot]
      }
      guard let dot = stem.lastIndex(of: "."), let pid = Int32(stem[stem.index(after: dot)...]), pid > 0,
        stem.index(after: stem.startIndex) < dot
      else { return nil }
      return pid
    }
    return nil
  }
  /// Puts a finished temporary file in place of `destination` (``FlickMotion/AtomicDestination``:
  /// flushed, renamed over it, the folder flushed) while no signal handler can delete it, then
  /// forgets it; on failure the temporary file is removed.
  ///
  /// - Returns: nil on success, or ``VideoError/cannotWrite(path:reason:)``.
  func commitFile(_ temporaryPath: String, to destination: String) -> VideoError? {
    commit(temporaryPath, to: destination, completing: false).map { .cannotWrite(path: destination, reason: $0.reason) }
  }

  /// ``commitFile(_:to:)`` for the run's last output (`flick still`'s PNG): once it is in place
  /// the run is complete, and an interruption that arrives later no longer ends the process (it
  /// ends on its own with status 0, its output written), rather than exit 130 as if nothing had
  /// been written.
  package func commitLastFile(_ temporaryPath: String, to destination: String) -> AtomicDestination.Failure? {
    commit(temporaryPath, to: destination, completing: true)
  }

  /// The commit of both, under the lock; `completing` marks the run complete when it succeeds.
  private func commit(_ temporaryPath: String, to destination: String, completing: Bool) -> AtomicDestination.Failure? {
    locked {
      defer { files.remove(temporaryPath) }
      let failure = AtomicDestination.commit(temporaryPath, to: destination)
      if failure == nil && completing { complete = true }
      return failure
    }
  }

  package func remove(file path: String) { locked { _ = files.remove(path) } }
  /// Registers a folder an interruption removes whole, and `emptyParents`, the folders above it
  /// this run makes for it (the deepest first; `flick-report` in `flick-report/<template>`),
  /// which it removes only when they are empty (parallel runs may share them).
  package func add(folder path: String, emptyParents: [String] = []) {
    locked { folders[path] = emptyParents }
  }
  package func remove(folder path: String) { locked { _ = folders.removeValue(forKey: path) } }
  package func add(process pid: Int32) { locked { processes[pid, default: 0] += 1 } }
  package func remove(process pid: Int32) { locked { _ = processes.removeValue(forKey: pid) } }
  /// The registered processes (the ffmpeg encoders running now).
  package var processIDs: [Int32] { locked { Array(processes.keys) } }

  /// Kills every registered process with its whole process group (each ``Subprocess`` leads
  /// one), waits until they can no longer write and reaps them (no zombie is left), then removes
  /// every registered file and folder. Leaves the lock held: the caller is about to exit.
  /// Returns false, doing nothing, once the run is complete (``commitLastFile(_:to:)``).
  func interruptAll() -> Bool {
    lock.lock()
    guard !complete else {
      lock.unlock()
      return false
    }
    for pid in processes.keys { kill(-pid, SIGKILL) }
    for pid in processes.keys { Self.reapKilled(pid) }
    for path in files { unlink(path) }
    for (path, parents) in folders {
      Self.removeFolder(path)
      for parent in parents where rmdir(parent) != 0 { break }  // not empty: another run's
    }
    return true
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

  /// Waits until the killed child `pid` has exited, every thread of it, and reaps it (polling,
  /// at most about a second): it can no longer create files after that, and no zombie is left.
  /// Its state in `/proc` is no guide: a multithreaded ffmpeg whose first thread has exited shows
  /// `Z` while its other threads still run, and cannot be reaped yet; that check returned at once
  /// and the `WNOHANG` reap after it left an encoder behind as a zombie.
  private static func reapKilled(_ pid: Int32) {
    for _ in 0..<200 {
      var status: Int32 = 0
      let reaped = waitpid(pid, &status, WNOHANG)
      // Reaped now, or elsewhere (a Subprocess's own wait, which then sees it was killed).
      if reaped == pid || (reaped < 0 && errno != EINTR) { return }
      usleep(5000)
    }
  }
}
