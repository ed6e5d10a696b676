import FlickMotion
import Foundation

/// Reads an asset file (an image a template draws) with its size known before a byte is read.
///
/// The file is opened once (non-blocking, so a FIFO in its place cannot hold the open) and
/// checked with `fstat` on the open descriptor: it must be a regular file of at most the cap.
/// The bytes are read straight into one array, once: a 3 GiB file padded after a 16×16 PNG was
/// read whole, twice over (6.3 GB at its peak), before anything looked at its size.
package enum AssetFile {
  /// The largest image file (PNG, JPEG, WebP) decoded: 256 MiB, as a font file and a PNG
  /// compared by the snapshot tools. A picture at the 16384 × 16384 decode cap is far smaller
  /// compressed; more bytes are padding or damage.
  package static let maximumImageBytes = 256 << 20

  /// Why a file was not read.
  package struct Problem: Error, Equatable {
    /// What stopped the read, for a caller that words its own message (``reason`` is the
    /// reader's wording).
    package enum Cause: Equatable, Sendable {
      /// `open` failed, with its `errno` (`ENOENT`: no such file).
      case cannotOpen(errno: Int32)
      /// The open file is not a regular file: a folder, a FIFO, a device, a socket.
      case notRegular(isFolder: Bool)
      /// The file is over the cap: its size, from `fstat` on the open descriptor.
      case tooLarge(size: Int)
      /// Fewer bytes than `fstat` said could be read (the file shrank while read).
      case changed
    }

    package var cause: Cause
    package var reason: String

    package init(cause: Cause, reason: String) {
      self.cause = cause
      self.reason = reason
    }

    /// Whether there is no such file (`open` failed with `ENOENT`).
    package var isMissing: Bool { cause == .cannotOpen(errno: ENOENT) }
    /// Whether the path is a folder.
    package var isFolder: Bool { cause == .notRegular(isFolder: true) }
  }

  /// What ``read(_:wholeUpTo:headBytes:)`` read: a file's bytes (all of them, or its first
  /// bytes when it is over the cap) and its size.
  package struct Head: Sendable {
    /// The whole file, or its first bytes.
    package var bytes: [UInt8]
    /// The file's size, from `fstat` on the open descriptor.
    package var size: Int
    /// Whether ``bytes`` are the whole file.
    package var isWhole: Bool { bytes.count == size }

    package init(bytes: [UInt8], size: Int) {
      self.bytes = bytes
      self.size = size
    }
  }

  /// The file's bytes, at most `maximumBytes` of them (all of it), or the first `prefix` bytes
  /// when a prefix is asked for (the header of an image).
  ///
  /// - Parameters:
  ///   - path: The file.
  ///   - maximumBytes: The largest file read; a larger one is refused before reading.
  ///   - kind: What the file is, for the message ("an image file").
  ///   - prefix: Read only this many bytes at most (the size is still checked).
  ///   - followingLinks: false to refuse a symbolic link (`O_NOFOLLOW`: `open` fails with
  ///     `ELOOP`), for Flick's own state files in a folder someone else may have written.
  /// - Throws: ``Problem`` naming the size and the cap, or why the file cannot be read.
  package static func read(
    _ path: String, maximumBytes: Int, kind: String, prefix: Int? = nil, followingLinks: Bool = true
  ) throws(Problem) -> [UInt8] {
    try opened(path, followingLinks: followingLinks) { fd, size throws(Problem) in
      guard size <= maximumBytes else {
        throw Problem(
          cause: .tooLarge(size: size),
          reason: "the file is \(size) bytes, more than the \(maximumBytes >> 20) MiB \(quoted: kind) may be")
      }
      return try bytes(fd, count: min(size, prefix ?? size))
    }
  }

  /// The whole file when it is at most `cap` bytes, else only its first `headBytes`, with its
  /// size, from one open: for a reader that tells what a file is by its first bytes and then
  /// loads those same bytes, or refuses the file by its size (`flick render`'s SOURCE, a template
  /// or a Lottie file, each with a cap of its own).
  ///
  /// - Throws: ``Problem`` when the file cannot be opened, is not a regular file or shrank.
  package static func read(_ path: String, wholeUpTo cap: Int, headBytes: Int) throws(Problem) -> Head {
    try opened(path) { fd, size throws(Problem) in
      Head(bytes: try bytes(fd, count: size <= cap ? size : min(size, max(0, headBytes))), size: size)
    }
  }

  /// Opens `path` once (read-only, non-blocking: a FIFO in its place cannot hold the open),
  /// checks with `fstat` on the open descriptor that it is a regular file, and gives `body` the
  /// descriptor and the size.
  private static func opened<T>(
    _ path: String, followingLinks: Bool = true, _ body: (Int32, Int) throws(Problem) -> T
  ) throws(Problem) -> T {
    let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | (followingLinks ? 0 : O_NOFOLLOW))
    guard fd >= 0 else {
      let number = errno
      throw Problem(
        cause: .cannotOpen(errno: number), reason: number == ENOENT ? "no such file" : "cannot read the file")
    }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
      throw Problem(cause: .notRegular(isFolder: (info.st_mode & S_IFMT) == S_IFDIR), reason: "not a regular file")
    }
    return try body(fd, Int(info.st_size))
  }

  /// ``readBytes(_:count:)``, throwing when the file shrank.
  private static func bytes(_ fd: Int32, count: Int) throws(Problem) -> [UInt8] {
    guard let bytes = readBytes(fd, count: count) else {
      throw Problem(cause: .changed, reason: "cannot read the file whole (it changed while read)")
    }
    return bytes
  }

  /// The first `count` bytes of the open file `fd`, read straight into one array (`pread` from
  /// offset 0, resumed after `EINTR`); nil when fewer are there (the file shrank since `fstat`).
  package static func readBytes(_ fd: Int32, count: Int) -> [UInt8]? {
    var failed = false
    let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
      var filled = 0
      while filled < count, let base = buffer.baseAddress {
        let n = pread(fd, base + filled, count - filled, off_t(filled))
        if n < 0 && errno == EINTR { continue }
        guard n > 0 else { break }
        filled += n
      }
      failed = filled < count
      initialized = filled
    }
    return failed ? nil : bytes
  }
}
