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
    package var reason: String
  }

  /// The file's bytes, at most `maximumBytes` of them (all of it), or the first `prefix` bytes
  /// when a prefix is asked for (the header of an image).
  ///
  /// - Parameters:
  ///   - path: The file.
  ///   - maximumBytes: The largest file read; a larger one is refused before reading.
  ///   - kind: What the file is, for the message ("an image file").
  ///   - prefix: Read only this many bytes at most (the size is still checked).
  /// - Throws: ``Problem`` naming the size and the cap, or why the file cannot be read.
  package static func read(
    _ path: String, maximumBytes: Int, kind: String, prefix: Int? = nil
  ) throws(Problem) -> [UInt8] {
    let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    guard fd >= 0 else {
      throw Problem(reason: errno == ENOENT ? "no such file" : "cannot read the file")
    }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
      throw Problem(reason: "not a regular file")
    }
    let size = Int(info.st_size)
    guard size <= maximumBytes else {
      throw Problem(
        reason: "the file is \(size) bytes, more than the \(maximumBytes >> 20) MiB \(quoted: kind) may be")
    }
    guard let bytes = readBytes(fd, count: min(size, prefix ?? size)) else {
      throw Problem(reason: "cannot read the file whole (it changed while read)")
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
