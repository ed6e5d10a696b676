import FlickMotion
import Foundation

/// Sequential reads from a file through a fixed buffer (1 MiB), so a file of any length is read
/// with bounded memory. Reads past the end throw ``BufferedFile/Failure/truncated``.
final class BufferedReader {
  private let fd: Int32
  private var buffer: [UInt8]
  private var start = 0
  private var end = 0
  /// Bytes consumed so far (the offset of the next byte).
  private(set) var offset = 0

  /// Opens `path` for reading.
  init(path: String, capacity: Int = 1 << 20) throws {
    fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else {
      throw BufferedFile.Failure.io("cannot open \(quoted: path): \(quoted: String(cString: strerror(errno)))")
    }
    buffer = [UInt8](repeating: 0, count: capacity)
  }

  deinit { close(fd) }

  /// Makes at least `count` (≤ capacity) bytes available; false at the end of the file.
  private func fill(_ count: Int) throws -> Bool {
    if end - start >= count { return true }
    if start > 0 {
      let kept = end - start
      buffer.withUnsafeMutableBytes { raw in
        if kept > 0, let base = raw.baseAddress { memmove(base, base + start, kept) }
      }
      start = 0
      end = kept
    }
    while end - start < count {
      let n = buffer.withUnsafeMutableBytes { raw in
        guard let base = raw.baseAddress else { return 0 }  // no capacity: nothing to read into
        return read(fd, base + end, raw.count - end)
      }
      if n < 0 {
        if errno == EINTR { continue }
        throw BufferedFile.Failure.io(String(cString: strerror(errno)))
      }
      if n == 0 { return false }
      end += n
    }
    return true
  }

  /// Whether the file has no more bytes.
  var atEnd: Bool {
    get throws { try !fill(1) }
  }

  /// The next byte.
  func byte() throws -> UInt8 {
    guard try fill(1) else { throw BufferedFile.Failure.truncated }
    let b = buffer[start]
    start += 1
    offset += 1
    return b
  }

  /// The next `count` bytes (a small record: a header, a chunk's fields).
  func bytes(_ count: Int) throws -> [UInt8] {
    precondition(count <= buffer.count)
    guard try fill(count) else { throw BufferedFile.Failure.truncated }
    let slice = Array(buffer[start..<start + count])
    start += count
    offset += count
    return slice
  }

  /// Passes the next `count` bytes, in pieces, to `body` (nil skips them).
  func stream(_ count: Int, _ body: ((UnsafeRawBufferPointer) throws -> Void)?)
    throws
  {
    var left = count
    while left > 0 {
      guard try fill(1) else { throw BufferedFile.Failure.truncated }
      let n = min(left, end - start)
      if let body {
        let s = start
        try buffer.withUnsafeBytes { raw throws in
          try body(UnsafeRawBufferPointer(rebasing: raw[s..<s + n]))
        }
      }
      start += n
      offset += n
      left -= n
    }
  }
}

/// Sequential writes to a new file through a buffer, with small patches of bytes already
/// written (a header field learnt later); ``close()`` flushes, syncs nothing and closes.
final class BufferedWriter {
  private let fd: Int32
  private var buffer: [UInt8] = []
  private let capacity: Int
  /// Bytes written to the file itself (the buffer holds the ones after them).
  private var flushed = 0
  private var closed = false

  /// Creates `path` as a new temporary file of Flick's own (``OutputEntry/createTemporary(_:mode:)``:
  /// whatever had the name goes, no link is followed), readable as an output would be.
  init(path: String, capacity: Int = 1 << 20) throws {
    switch OutputEntry.createTemporary(path) {
    case .success(let fd): self.fd = fd
    case .failure(let failure):
      throw BufferedFile.Failure.io("cannot create \(quoted: path): \(escaped: failure.reason)")
    }
    self.capacity = capacity
    buffer.reserveCapacity(capacity)
  }

  deinit { if !closed { Foundation.close(fd) } }

  /// The offset of the next byte written.
  var offset: Int { flushed + buffer.count }

  func write(_ bytes: [UInt8]) throws {
    try bytes.withUnsafeBytes { raw throws in try write(raw) }
  }

  func write(_ bytes: UnsafeRawBufferPointer) throws {
    if buffer.count + bytes.count > capacity { try flush() }
    if bytes.count > capacity {
      try writeAll(bytes, at: nil)
      flushed += bytes.count
    } else {
      buffer.append(contentsOf: bytes)
    }
  }

  func write(byte: UInt8) throws {
    if buffer.count + 1 > capacity { try flush() }
    buffer.append(byte)
  }

  /// Overwrites `bytes` at `position` (< ``offset``), whether still buffered or already written.
  func patch(at position: Int, _ bytes: [UInt8]) throws {
    precondition(position >= 0 && position + bytes.count <= offset)
    if position >= flushed {
      buffer.replaceSubrange(position - flushed..<position - flushed + bytes.count, with: bytes)
      return
    }
    if position + bytes.count > flushed { try flush() }
    try bytes.withUnsafeBytes { raw throws in try writeAll(raw, at: position) }
  }

  func flush() throws {
    guard !buffer.isEmpty else { return }
    try buffer.withUnsafeBytes { raw throws in try writeAll(raw, at: nil) }
    flushed += buffer.count
    buffer.removeAll(keepingCapacity: true)
  }

  /// Flushes and closes the file.
  func close() throws {
    try flush()
    closed = true
    guard Foundation.close(fd) == 0 else { throw BufferedFile.Failure.io(String(cString: strerror(errno))) }
  }

  private func writeAll(_ bytes: UnsafeRawBufferPointer, at position: Int?) throws {
    guard let base = bytes.baseAddress else { return }  // an empty buffer: nothing to write
    var done = 0
    while done < bytes.count {
      let n =
        if let position {
          pwrite(fd, base + done, bytes.count - done, off_t(position + done))
        } else {
          Foundation.write(fd, base + done, bytes.count - done)
        }
      if n < 0 {
        if errno == EINTR { continue }
        throw BufferedFile.Failure.io(String(cString: strerror(errno)))
      }
      done += n
    }
  }
}

/// Errors of ``BufferedReader`` and ``BufferedWriter``, and CRC-32 for the chunks they carry.
enum BufferedFile {
  enum Failure: Error, Equatable, CustomStringConvertible {
    /// A read or write failed: the reason.
    case io(String)
    /// The file ended inside a structure.
    case truncated

    var description: String {
      switch self {
      case .io(let reason): return reason
      case .truncated: return "the file ends early"
      }
    }
  }
}

/// CRC-32 (ISO 3309, as PNG uses it), updated piecewise.
struct CRC32 {
  private static let table: [UInt32] = (0..<256).map { n in
    var c = UInt32(n)
    for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
    return c
  }
  private var state: UInt32 = 0xFFFF_FFFF

  mutating func update(_ bytes: UnsafeRawBufferPointer) {
    var c = state
    Self.table.withUnsafeBufferPointer { table in
      for b in bytes { c = table[Int((c ^ UInt32(b)) & 0xFF)] ^ (c >> 8) }
    }
    state = c
  }

  mutating func update(_ bytes: [UInt8]) {
    bytes.withUnsafeBytes { update($0) }
  }

  /// The checksum of everything given so far.
  var value: UInt32 { state ^ 0xFFFF_FFFF }
}
