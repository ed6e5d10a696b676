import FlickMotion
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Watches folders with inotify and reports the files that changed in them, a burst of events
/// (an editor's write-to-temporary-and-rename) at a time: once no event came for ``quiet``
/// seconds. Folders are watched rather than files, because a save that renames a new file over
/// the old one replaces the inode a file watch would hold.
package final class FileWatcher: Sendable {
  /// Seconds without events that end a burst.
  static let quiet = 0.05
  /// The most folders watched.
  static let maximumFolders = 1_024

  private let descriptor: Int32
  private let wake: (read: Int32, write: Int32)
  private let folders = Locked<[Int32: String]>([:])
  /// The opened folder, watched again when it is made again (``keep(root:)``).
  private let root = Locked<String?>(nil)
  /// While the root is gone: the watch on the nearest folder above it that exists, that folder,
  /// and the name in it on the way to the root (``guardRoot()``).
  private let rootGuard = Locked<(wd: Int32, folder: String, name: String)?>(nil)
  private let onChange: @Sendable (Set<String>) -> Void
  /// Told once, with a warning, when a folder is left unwatched for ``maximumFolders``.
  private let onLimit: @Sendable (String) -> Void
  /// Whether ``onLimit`` was told.
  private let limitReached = Locked(false)

  /// The warning for a folder left unwatched at the limit.
  static let limitWarning =
    "warning: the studio watches at most \(maximumFolders) folders (8 deep at most); edits in the "
    + "folders past them are not seen until the studio restarts: open a smaller folder to have them reloaded"

  /// Starts the watching thread; `onChange` gets the absolute paths changed in each burst,
  /// `onLimit` the warning when the first folder is left unwatched (by default: standard error).
  ///
  /// - Throws: ``StudioError/cannotWatch(reason:)``.
  init(
    onChange: @escaping @Sendable (Set<String>) -> Void,
    onLimit: @escaping @Sendable (String) -> Void = { StandardStream.writeError($0 + "\n") }
  ) throws(StudioError) {
    self.onLimit = onLimit
    #if os(Linux)
      let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
      guard fd >= 0 else { throw .cannotWatch(reason: String(cString: strerror(errno))) }
      var ends: [Int32] = [0, 0]
      guard pipe(&ends) == 0 else {
        close(fd)
        throw .cannotWatch(reason: String(cString: strerror(errno)))
      }
      descriptor = fd
      wake = (ends[0], ends[1])
      self.onChange = onChange
      let thread = Thread { [self] in run() }
      thread.name = "flick.studio.watch"
      thread.start()
    #else
      throw .cannotWatch(reason: "inotify is Linux only")
    #endif
  }

  /// Adds watches for `paths` (folders), ignoring those already watched.
  func watch(_ paths: Set<String>) {
    #if os(Linux)
      let known = Set(folders.withLock { $0.values })
      // Shallow folders first (the opened folder before its subfolders), should the limit leave some out.
      let depth = { (path: String) in path.utf8.filter { $0 == UInt8(ascii: "/") }.count }
      for folder in paths.subtracting(known).sorted(by: { (depth($0), $0) < (depth($1), $1) }) {
        guard folders.withLock({ $0.count }) < Self.maximumFolders else {
          if !limitReached.withLock({ told in
            defer { told = true }
            return told
          }) {
            onLimit(Self.limitWarning)
          }
          return
        }
        let mask = UInt32(
          IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE | IN_ATTRIB | IN_MOVED_FROM | IN_MOVE_SELF)
        let wd = inotify_add_watch(descriptor, folder, mask)
        if wd >= 0 { folders.withLock { $0[wd] = folder } }
        if wd >= 0, folder == root.withLock({ $0 }) { releaseRootGuard() }
      }
    #endif
  }

  /// Watches `root` (the opened folder) again when it is removed or moved away and made again
  /// under its name: meanwhile the nearest folder above it that exists is watched for the next
  /// name on the way, and nothing else of it is reported. Only `root` itself is reported, once
  /// it is a folder again (not a symbolic link), for the owner to watch it and what it holds.
  func keep(root path: String) {
    root.withLock { $0 = path }
  }

  /// Watches the nearest existing folder above the root for the next name on the way to it (the
  /// watch of a folder that is watched anyway is shared: inotify keeps one per folder, and
  /// `IN_MASK_ADD` leaves its events as they are). Returns `[root]` when the root is a folder
  /// again, made meanwhile; the guard stays until ``watch(_:)`` watches the root.
  private func guardRoot() -> [String] {
    #if os(Linux)
      guard let root = root.withLock({ $0 }) else { return [] }
      for _ in 0..<256 {
        var child = root
        var above = Self.parent(of: root)
        while !Self.isFolder(above) && above != child {
          child = above
          above = Self.parent(of: above)
        }
        if child == root && Self.isFolder(root) { return [root] }
        let mask = UInt32(IN_CREATE | IN_MOVED_TO | IN_ONLYDIR) | UInt32(bitPattern: Int32(IN_MASK_ADD))
        let wd = inotify_add_watch(descriptor, above, mask)
        guard wd >= 0 else {
          releaseRootGuard()
          return []
        }
        let name = URL(fileURLWithPath: child).lastPathComponent
        let previous = rootGuard.withLock { g -> Int32? in
          defer { g = (wd, above, name) }
          return g?.wd
        }
        if let previous, previous != wd, folders.withLock({ $0[previous] == nil }) {
          inotify_rm_watch(descriptor, previous)
        }
        // Made between the look and the watch: one level further down.
        if !Self.isFolder(child) { return [] }
      }
    #endif
    return []
  }

  /// Removes the root's guard (its watch too, unless a folder watch shares it).
  private func releaseRootGuard() {
    #if os(Linux)
      guard
        let wd = rootGuard.withLock({ g -> Int32? in
          defer { g = nil }
          return g?.wd
        })
      else { return }
      if folders.withLock({ $0[wd] == nil }) { inotify_rm_watch(descriptor, wd) }
    #endif
  }

  /// `path` without its last component ("/" for "/x").
  private static func parent(of path: String) -> String {
    let up = URL(fileURLWithPath: path).deletingLastPathComponent().path
    return up.isEmpty ? "/" : up
  }

  /// True when `path` is a folder itself, not a symbolic link (to one or not).
  private static func isFolder(_ path: String) -> Bool {
    var info = stat()
    return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
  }

  /// Stops the thread and closes the descriptors.
  func stop() {
    var byte: UInt8 = 1
    _ = write(wake.write, &byte, 1)
  }

  private func run() {
    #if os(Linux)
      var changed = Set<String>()
      var buffer = [UInt8](repeating: 0, count: 64 * 1024)
      while true {
        var fds = [
          pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0),
          pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0),
        ]
        let timeout: Int32 = changed.isEmpty ? -1 : Int32(Self.quiet * 1000)
        let ready = poll(&fds, 2, timeout)
        if ready < 0 && errno == EINTR { continue }
        if fds[1].revents != 0 || ready < 0 { break }
        if ready == 0 {
          let burst = changed
          changed = []
          onChange(burst)
          continue
        }
        let n = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard n > 0 else { continue }
        changed.formUnion(paths(in: buffer, count: n))
      }
      close(descriptor)
      close(wake.read)
      close(wake.write)
    #endif
  }

  /// The paths named by the inotify events in `buffer[0..<count]`.
  ///
  /// A watched folder that was removed (the kernel drops its watch: `IN_IGNORED`) or moved away
  /// (`IN_MOVE_SELF`: the watch follows the moved folder, not its name) is forgotten, and its own
  /// path reported as changed: a folder made again under that name (a branch checkout deletes and
  /// recreates folders) is then watched anew, where it was skipped as already watched. When that
  /// folder is the root, a watch above it waits for it to be made again (``guardRoot()``).
  private func paths(in buffer: [UInt8], count: Int) -> [String] {
    #if os(Linux)
      var out: [String] = []
      var dropped: [Int32] = []
      var rootEvent = false
      let known = folders.withLock { $0 }
      let guarding = rootGuard.withLock { $0 }
      buffer.withUnsafeBytes { raw in
        var offset = 0
        let header = MemoryLayout<inotify_event>.size
        while offset + header <= count {
          let event = raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
          let nameLength = Int(event.len)
          var name = ""
          if nameLength > 0 {
            let bytes = raw[(offset + header)..<(offset + header + nameLength)]
            name = String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
          }
          if let folder = known[event.wd], !name.isEmpty { out.append(folder + "/" + name) }
          if let guarding, event.wd == guarding.wd,
            name == guarding.name || event.mask & UInt32(IN_IGNORED) != 0
          {
            rootEvent = true
          }
          if event.mask & UInt32(IN_IGNORED | IN_MOVE_SELF) != 0, let folder = known[event.wd] {
            dropped.append(event.wd)
            out.append(folder)
            if folder == root.withLock({ $0 }) { rootEvent = true }
          }
          offset += header + nameLength
        }
      }
      if !dropped.isEmpty {
        for wd in dropped { inotify_rm_watch(descriptor, wd) }
        folders.withLock { map in for wd in dropped { map[wd] = nil } }
      }
      if rootEvent { out += guardRoot() }
      return out
    #else
      return []
    #endif
  }
}
