import Foundation

/// The one way Flick puts a finished file or folder at its destination, so a reader (or a crash)
/// sees the old output or the new one, never a part of either, and the old output is never
/// removed before the new one is in place.
///
/// A file is written to a temporary beside the destination (same folder, so the same file
/// system: `.NAME.PID.tmp`, created new with `O_EXCL | O_NOFOLLOW`, never through a link planted
/// under that name), flushed to disk (`fsync`), renamed over the destination (a rename replaces
/// the entry, a symbolic link included, and never writes through it), and the folder is flushed
/// (`fsync`), so the rename itself survives a power loss. Writers that fill their own temporary
/// (ffmpeg, a PNG encoder) hand it to ``commit(_:to:)``, which does the last three steps.
///
/// A folder (a PNG sequence) is built complete in a temporary sibling folder and exchanged with
/// the destination in one step (``replaceFolder(_:with:aside:)``: Linux `renameat2` with
/// `RENAME_EXCHANGE`; where that is missing, the old folder is renamed aside first and put back
/// if the second rename fails); the old folder is removed only once the new one is in place.
///
///     try AtomicDestination.write(Data("report".utf8), to: "out/report.json")
package enum AtomicDestination {
  /// Why a destination could not be written; the destination is then as it was.
  package struct Failure: LocalizedError, CustomStringConvertible, Sendable {
    /// The reason, such as `strerror`'s text.
    package var reason: String
    package var description: String { reason }
    package var errorDescription: String? { reason }

    package init(reason: String) { self.reason = reason }
    /// The failure `errno` describes.
    init(errno code: Int32) { self.reason = String(cString: strerror(code)) }
  }

  /// The temporary beside `destination` for this process: `.NAME.PID.tmp` (the name
  /// `Cleanup.removeStale(in:)` recognises once this process has gone).
  package static func temporary(for destination: String) -> String {
    let url = URL(fileURLWithPath: destination)
    return url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(getpid()).tmp").path
  }

  /// Writes `data` to `destination` through a temporary beside it (see the type).
  ///
  /// - Parameters:
  ///   - mode: Permission bits of the new file (default `0o644`, less the umask).
  ///   - temporary: The temporary's path (default ``temporary(for:)``); the caller may have
  ///     registered it for removal on interruption.
  /// - Throws: ``Failure``; the temporary is then gone and the destination untouched.
  package static func write(
    _ data: Data, to destination: String, mode: mode_t = 0o644, temporary: String? = nil
  ) throws(Failure) {
    let temporary = temporary ?? Self.temporary(for: destination)
    try writeTemporary(data, to: temporary, mode: mode)
    if let failure = commit(temporary, to: destination) { throw failure }
  }

  /// Writes `data` into a new file at `temporary` and flushes it, for a caller that puts it in
  /// place later with ``commit(_:to:)`` (several files committed together). Whatever had the name
  /// is removed first (a symbolic link itself, never its target), then the file is created with
  /// `O_EXCL | O_NOFOLLOW`, so a link planted under a predictable temporary name is never written
  /// through.
  ///
  /// - Throws: ``Failure``; the temporary is then gone.
  package static func writeTemporary(_ data: Data, to temporary: String, mode: mode_t = 0o644) throws(Failure) {
    var info = stat()
    if lstat(temporary, &info) == 0 && (info.st_mode & S_IFMT) != S_IFDIR { unlink(temporary) }
    let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
    guard fd >= 0 else { throw Failure(errno: errno) }
    var failure: String?
    data.withUnsafeBytes { buffer in
      guard let base = buffer.baseAddress else { return }  // empty data: nothing to write
      var offset = 0
      while offset < buffer.count {
        let n = Foundation.write(fd, base + offset, buffer.count - offset)
        if n < 0 {
          if errno == EINTR { continue }
          failure = String(cString: strerror(errno))
          return
        }
        offset += n
      }
    }
    if failure == nil && fsync(fd) != 0 { failure = String(cString: strerror(errno)) }
    close(fd)
    if let failure {
      unlink(temporary)
      throw Failure(reason: failure)
    }
  }

  /// Puts the finished file `temporary` (beside `destination`) in place: flushes it, renames
  /// it over the destination and flushes the folder.
  ///
  /// - Returns: nil, or why not; the temporary is then removed and the destination untouched.
  package static func commit(_ temporary: String, to destination: String) -> Failure? {
    var info = stat()
    if lstat(destination, &info) == 0, let kind = specialKind(info.st_mode) {
      unlink(temporary)
      return Failure(reason: "it is " + kind + ", not a regular file; Flick replaces only files")
    }
    guard syncFile(temporary), rename(temporary, destination) == 0 else {
      let failure = Failure(errno: errno)
      unlink(temporary)
      return failure
    }
    syncFolder(containing: destination)
    return nil
  }

  /// The kind of a file that is neither a regular file, a folder nor a symbolic link, in words
  /// ("a character device"), from its `st_mode`; nil for those three. A destination of such a
  /// kind is never replaced (``commit(_:to:)``).
  package static func specialKind(_ mode: mode_t) -> String? {
    switch mode & S_IFMT {
    case S_IFREG, S_IFDIR, S_IFLNK: return nil
    case S_IFCHR: return "a character device"
    case S_IFBLK: return "a block device"
    case S_IFIFO: return "a FIFO"
    case S_IFSOCK: return "a socket"
    default: return "a special file"
    }
  }

  /// Renames `temporary` (a file or folder beside `destination`, already flushed) over
  /// `destination` and, unless `syncsFolder` is false (a caller moving many entries into one
  /// folder flushes it once, ``syncFolder(containing:)``), flushes the folder.
  ///
  /// - Returns: nil, or why not (the temporary is then left as it was).
  package static func move(_ temporary: String, to destination: String, syncsFolder: Bool = true) -> Failure? {
    guard rename(temporary, destination) == 0 else { return Failure(errno: errno) }
    if syncsFolder { syncFolder(containing: destination) }
    return nil
  }

  /// Replaces the folder `destination` with the complete folder `temporary` (beside it): the two
  /// are exchanged in one step where the system can (`renameat2(RENAME_EXCHANGE)`), so the
  /// destination is never missing; otherwise the old folder goes to `aside` first and comes back
  /// if the new one cannot take its place. The old folder is then at `temporary` or `aside`
  /// (the path returned), for the caller to remove now that the new one is in place.
  ///
  /// - Returns: The old folder's path, or the failure (the destination is then untouched).
  package static func replaceFolder(_ destination: String, with temporary: String, aside: String)
    -> Result<String, Failure>
  {
    if let exchange = renameExchange {
      if exchange(AT_FDCWD, temporary, AT_FDCWD, destination, renameExchangeFlag) == 0 {
        syncFolder(containing: destination)
        return .success(temporary)
      }
      // EINVAL: the file system cannot exchange; fall through to the two renames.
      guard errno == EINVAL || errno == ENOSYS else { return .failure(Failure(errno: errno)) }
    }
    guard rename(destination, aside) == 0 else { return .failure(Failure(errno: errno)) }
    guard rename(temporary, destination) == 0 else {
      let failure = Failure(errno: errno)
      rename(aside, destination)
      return .failure(failure)
    }
    syncFolder(containing: destination)
    return .success(aside)
  }

  /// Flushes the file at `path` to disk (`fsync`).
  ///
  /// - Returns: Whether it was flushed (`errno` says why not).
  @discardableResult
  package static func syncFile(_ path: String) -> Bool {
    let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    return fsync(fd) == 0
  }

  /// Flushes every regular file directly in `folder` (links and sub-folders are left alone),
  /// then the folder itself: a folder built complete before ``replaceFolder(_:with:aside:)`` or
  /// ``move(_:to:)``.
  ///
  /// - Returns: nil, or why a file could not be flushed.
  package static func syncContents(ofFolder folder: String) -> Failure? {
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else {
      return Failure(reason: "cannot list \(quoted: folder)")
    }
    for name in names {
      let path = folder + "/" + name
      var info = stat()
      guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { continue }
      guard syncFile(path) else { return Failure(errno: errno) }
    }
    syncFolder(containing: folder + "/.")
    return nil
  }

  /// Flushes the folder holding `path` (its entries: a rename into it is then durable).
  package static func syncFolder(containing path: String) {
    let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
    let fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard fd >= 0 else { return }
    fsync(fd)
    close(fd)
  }

  private typealias RenameAt2 =
    @convention(c) (
      Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32
    ) -> Int32

  /// Linux's `renameat2`, looked up at run time (glibc ≥ 2.28 has it; Swift's Glibc module does
  /// not declare it), or nil.
  private static let renameExchange: RenameAt2? = {
    #if os(Linux)
      guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "renameat2") else { return nil }
      return unsafeBitCast(symbol, to: RenameAt2.self)
    #else
      return nil
    #endif
  }()

  /// `RENAME_EXCHANGE` from `<linux/fs.h>`.
  private static let renameExchangeFlag: UInt32 = 1 << 1
}
