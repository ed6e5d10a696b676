import Foundation

/// Gives the last frame of a finished animated WebP its whole length, so the file plays the
/// render's length to the millisecond.
///
/// A WebP frame's length is a whole number of milliseconds (the 24-bit duration of its `ANMF`
/// chunk). Flick has ffmpeg start every frame at the millisecond nearest its time
/// (`-enc_time_base 1:1000`), but `libwebp_anim` writes the last frame's length truncated: 2.5 s
/// at 24 fps ended at 2,499 ms. This sets the last `ANMF` duration so the frames end at
/// round(frames × 1000 / fps) ms, in place in the temporary file (three bytes; the chunk sizes do
/// not change). Only the headers are read, chunk by chunk: a file is walked, never loaded.
enum WebPFrameEnd {
  /// What happened to the file.
  enum Outcome: Equatable {
    /// The last frame's length went from `from` to `to` milliseconds.
    case lengthened(from: Int, to: Int)
    /// The frames already end at the right time.
    case unchanged
    /// The file was a still image (no `ANMF` chunk), now an animated WebP of that image lasting
    /// the clip (``animated(_:milliseconds:loops:)``).
    case animated(milliseconds: Int)
    /// The file is not the expected structure, or the change is not the truncation this
    /// corrects (more than 1 ms): left as ffmpeg wrote it.
    case skipped(String)
  }

  /// Sets the last frame's length of the WebP at `path` so its frames end at `milliseconds`.
  ///
  /// - Parameters:
  ///   - path: The finished WebP (the output's temporary file).
  ///   - milliseconds: When the last frame should end: round(frames × 1000 / fps).
  /// - Throws: ``VideoError/cannotWrite(path:reason:)`` when the file cannot be read or written.
  static func end(
    _ path: String, at milliseconds: Int, loops: Int = 0, destination: String
  ) throws(VideoError) -> Outcome {
    let fd = open(path, O_RDWR | O_CLOEXEC)
    guard fd >= 0 else {
      throw .cannotWrite(path: destination, reason: "cannot open \(quoted: path) to time its last frame")
    }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0 else {
      throw .cannotWrite(path: destination, reason: "cannot read \(quoted: path) to time its last frame")
    }
    let size = Int(info.st_size)
    guard let head = read(fd, at: 0, count: 12), head[0..<4].elementsEqual("RIFF".utf8),
      head[8..<12].elementsEqual("WEBP".utf8)
    else { return .skipped("not a RIFF WebP file") }
    var at = 12
    var total = 0
    var last: (offset: Int, length: Int)?
    while at + 8 <= size {
      guard let header = read(fd, at: at, count: 8) else { return .skipped("a chunk header cannot be read") }
      let chunkSize = Int(littleEndian: header, at: 4, bytes: 4)
      if header[0..<4].elementsEqual("ANMF".utf8) {
        guard chunkSize >= 16, let length = read(fd, at: at + 20, count: 3) else {
          return .skipped("an ANMF chunk is too short")
        }
        let ms = Int(littleEndian: length, at: 0, bytes: 3)
        total += ms
        last = (at + 20, ms)
      }
      at += 8 + chunkSize + (chunkSize & 1)
    }
    guard at == size else { return .skipped("the chunks do not end with the file") }
    guard let last else { return try animate(fd, size: size, at: milliseconds, loops: loops, path, destination) }
    let wanted = last.length + milliseconds - total
    guard wanted != last.length else { return .unchanged }
    guard abs(wanted - last.length) <= 1, wanted > 0 else {
      return .skipped("the frames end at \(total) ms, not within 1 ms of \(milliseconds)")
    }
    let bytes = [UInt8(wanted & 0xFF), UInt8(wanted >> 8 & 0xFF), UInt8(wanted >> 16 & 0xFF)]
    guard pwrite(fd, bytes, 3, off_t(last.offset)) == 3 else {
      throw .cannotWrite(
        path: destination,
        reason: "cannot time the last frame in \(quoted: path): \(quoted: String(cString: strerror(errno)))")
    }
    return .lengthened(from: last.length, to: wanted)
  }

  /// Rewrites the still WebP open as `fd` (`size` bytes) as an animated one
  /// (``animated(_:milliseconds:loops:)``), in place: the new file is longer and is written from
  /// its start.
  private static func animate(
    _ fd: Int32, size: Int, at milliseconds: Int, loops: Int, _ path: String, _ destination: String
  ) throws(VideoError) -> Outcome {
    guard let bytes = read(fd, at: 0, count: size),
      let file = Self.animated(bytes, milliseconds: milliseconds, loops: loops)
    else { return .skipped("no ANMF chunk") }
    let count = file.count
    let written = file.withUnsafeBytes { pwrite(fd, $0.baseAddress, count, 0) }
    guard written == count, ftruncate(fd, off_t(count)) == 0 else {
      throw .cannotWrite(
        path: destination,
        reason: "cannot make \(quoted: path) an animated WebP: \(quoted: String(cString: strerror(errno)))")
    }
    return .animated(milliseconds: milliseconds)
  }

  /// `count` bytes of `fd` at `offset`; nil when fewer are there.
  private static func read(_ fd: Int32, at offset: Int, count: Int) -> [UInt8]? {
    var bytes = [UInt8](repeating: 0, count: count)
    let n = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, count, off_t(offset)) }
    return n == count ? bytes : nil
  }
}

extension Int {
  /// The unsigned little-endian number in `bytes` bytes of `data` from `offset`.
  fileprivate init(littleEndian data: [UInt8], at offset: Int, bytes: Int) {
    self = (0..<bytes).reduce(0) { $0 | Int(data[offset + $1]) << (8 * $1) }
  }
}
