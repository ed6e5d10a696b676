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
  private let onChange: @Sendable (Set<String>) -> Void

  /// Starts the watching thread; `onChange` gets the absolute paths changed in each burst.
  ///
  /// - Throws: ``StudioError/cannotWatch(reason:)``.
  init(onChange: @escaping @Sendable (Set<String>) -> Void) throws(StudioError) {
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
      for folder in paths.subtracting(known) {
        guard folders.withLock({ $0.count }) < Self.maximumFolders else { return }
        let mask = UInt32(
          IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE | IN_ATTRIB | IN_MOVED_FROM | IN_MOVE_SELF)
        let wd = inotify_add_watch(descriptor, folder, mask)
        if wd >= 0 { folders.withLock { $0[wd] = folder } }
      }
    #endif
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
  /// recreates folders) is then watched anew, where it was skipped as already watched.
  private func paths(in buffer: [UInt8], count: Int) -> [String] {
    #if os(Linux)
      var out: [String] = []
      var dropped: [Int32] = []
      let known = folders.withLock { $0 }
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
          if event.mask & UInt32(IN_IGNORED | IN_MOVE_SELF) != 0, let folder = known[event.wd] {
            dropped.append(event.wd)
            out.append(folder)
          }
          offset += header + nameLength
        }
      }
      if !dropped.isEmpty {
        for wd in dropped { inotify_rm_watch(descriptor, wd) }
        folders.withLock { map in for wd in dropped { map[wd] = nil } }
      }
      return out
    #else
      return []
    #endif
  }
}
