import FlickMotion
import Foundation

/// Frames kept losslessly in a temporary file for a second encoder pass, so they need not be
/// rendered again (a GIF: palette first, then the frames mapped to it; an MP4 or WebM fitted to
/// `--max-size`: encoded again at a target bitrate, ``VideoFitting``).
///
/// A frame is any packed buffer of `rows` rows of `rowBytes` bytes: BGRA (`width × 4` bytes a
/// row, `height` rows) or an MP4's `yuv420p` planes (`width` bytes a row, `height × 3 / 2` rows:
/// the two chroma planes of an even-sided frame fill whole rows of `width` bytes).
///
/// Each frame is stored as its difference from the one before, row by row: for every row the
/// span from its first to its last changed byte (`UInt32` start, `UInt32` length; 0 when the
/// row is unchanged) in a header, then those spans' bytes. The first frame is stored whole.
/// Finding a span costs one comparison of the row with the previous frame, replaying costs one
/// copy, so the spool takes a small fraction of a render's CPU; a still area, a hold or a pause
/// takes 8 bytes a row on disk, and the file holds what changed, never more than the raw frames
/// plus `8 × height` bytes each. Memory is one scratch record of up to a frame; the previous
/// frame is the caller's array, kept until the next one arrives.
///
/// The spool is a temporary file registered with ``Cleanup`` before it exists, and removed by
/// ``remove()`` (idempotent) on success, failure and abort alike; an interruption removes it
/// with the other temporary files.
final class FrameSpool {
  /// Where the frames are kept.
  let path: String
  /// Frames appended so far.
  private(set) var frameCount = 0
  private let rowBytes: Int
  private let rows: Int
  private var fd: Int32
  /// The last frame appended, the array itself (empty before the first; released by
  /// ``endAppending()``).
  private var previous: [UInt8] = []
  /// One frame's record being assembled (headers, then spans).
  private var record: [UInt8]
  /// A record's headers before its spans are known: `8 × rows` zero bytes, appended as an array
  /// (copied at once; a `repeatElement` was appended byte by byte, 0.7 ms a 540-row frame, in an
  /// unoptimised build).
  private let emptyHeaders: [UInt8]

  /// Creates the spool file at `path` for `width × height` BGRA frames.
  ///
  /// - Throws: ``VideoError/cannotWrite(path:reason:)`` naming `output` when the file cannot
  ///   be created.
  convenience init(path: String, width: Int, height: Int, output: String) throws(VideoError) {
    try self.init(path: path, rowBytes: width * 4, rows: height, output: output)
  }

  /// Creates the spool file at `path` for frames of `rows` rows of `rowBytes` bytes (both ≥ 1).
  ///
  /// - Throws: ``VideoError/cannotWrite(path:reason:)`` naming `output` when the file cannot
  ///   be created.
  init(path: String, rowBytes: Int, rows: Int, output: String) throws(VideoError) {
    precondition(rowBytes > 0 && rows > 0, "a spooled frame has bytes")
    self.path = path
    self.rowBytes = rowBytes
    self.rows = rows
    self.record = []
    self.emptyHeaders = [UInt8](repeating: 0, count: rows * 8)
    Cleanup.shared.add(file: path)
    switch OutputEntry.createTemporary(path, mode: 0o600) {
    case .success(let fd): self.fd = fd
    case .failure(let failure):
      let reason = failure.reason
      Cleanup.shared.remove(file: path)
      throw .cannotWrite(path: output, reason: "cannot create the frame spool \(quoted: path): \(escaped: reason)")
    }
  }

  deinit { remove() }

  /// Appends one packed frame (`rowBytes × rows` bytes).
  ///
  /// - Returns: nil, or the `errno` description of a failed write (a full disk).
  func append(_ frame: [UInt8]) -> String? {
    precondition(frame.count == rowBytes * rows, "spooled frames all have one size")
    record.removeAll(keepingCapacity: true)
    record.reserveCapacity(emptyHeaders.count + frame.count)
    record.append(contentsOf: emptyHeaders)
    let first = frameCount == 0
    frame.withUnsafeBufferPointer { new in
      previous.withUnsafeBufferPointer { old in
        for row in 0..<rows {
          let base = row * rowBytes
          let span: (start: Int, count: Int)
          if !first, let newRows = new.baseAddress, let oldRows = old.baseAddress {
            span = Self.changedSpan(newRows + base, oldRows + base, rowBytes)
          } else {
            span = (0, rowBytes)
          }
          guard span.count > 0 else { continue }
          record.withUnsafeMutableBytes { header in
            header.storeBytes(of: UInt32(span.start).littleEndian, toByteOffset: row * 8, as: UInt32.self)
            header.storeBytes(of: UInt32(span.count).littleEndian, toByteOffset: row * 8 + 4, as: UInt32.self)
          }
          let bytes = UnsafeBufferPointer(rebasing: new[(base + span.start)..<(base + span.start + span.count)])
          record.append(contentsOf: bytes)
        }
      }
    }
    frameCount += 1
    // The frame itself is the next one's reference: kept, not copied (arrays are copy-on-write,
    // so whoever reuses its buffer copies it first while the spool still holds it, and the
    // render pipeline gives a frame's buffer back only after the next frame is delivered).
    previous = frame
    return record.withUnsafeBytes { PipeWriter.writeAll(fd, $0)?.description }
  }

  /// Frees the buffers appending used: call once the last frame is appended, before replaying.
  func endAppending() {
    previous = []
    record = []
  }

  /// Reads the frames back, in order, handing each (packed, `rowBytes × rows` bytes) to `body`,
  /// which returns nil or a failure that stops the replay. Each replay reads with its own offset
  /// and buffers (`pread`), so the spool can be replayed again (a `--max-size` search does).
  ///
  /// - Returns: nil, or the first failure (a read error, a truncated spool, or `body`'s).
  func replay(_ body: (UnsafeRawBufferPointer) -> String?) -> String? {
    var offset = 0
    var frame = [UInt8](repeating: 0, count: rowBytes * rows)
    var header = [UInt8](repeating: 0, count: rows * 8)
    var payloadBuffer: [UInt8] = []
    for _ in 0..<frameCount {
      if let failure = readAll(&header, count: header.count, at: &offset) { return failure }
      var spans: [(start: Int, count: Int)] = []
      spans.reserveCapacity(rows)
      var payload = 0
      for row in 0..<rows {
        let (start, count) = header.withUnsafeBytes {
          (
            Int(UInt32(littleEndian: $0.loadUnaligned(fromByteOffset: row * 8, as: UInt32.self))),
            Int(UInt32(littleEndian: $0.loadUnaligned(fromByteOffset: row * 8 + 4, as: UInt32.self)))
          )
        }
        guard start + count <= rowBytes else { return "the frame spool \(path) is corrupt" }
        spans.append((start, count))
        payload += count
      }
      if payloadBuffer.count < payload { payloadBuffer = [UInt8](repeating: 0, count: payload) }
      if let failure = readAll(&payloadBuffer, count: payload, at: &offset) { return failure }
      var consumed = 0
      payloadBuffer.withUnsafeBufferPointer { source in
        frame.withUnsafeMutableBufferPointer { target in
          guard let targetBase = target.baseAddress, let sourceBase = source.baseAddress else { return }
          for (row, span) in spans.enumerated() where span.count > 0 {
            (targetBase + row * rowBytes + span.start).update(from: sourceBase + consumed, count: span.count)
            consumed += span.count
          }
        }
      }
      if let failure = frame.withUnsafeBytes(body) { return failure }
    }
    return nil
  }

  /// Closes and deletes the spool file; idempotent.
  func remove() {
    guard fd >= 0 else { return }
    close(fd)
    fd = -1
    unlink(path)
    Cleanup.shared.remove(file: path)
  }

  /// Reads exactly `count` bytes at `offset` into the start of `buffer`, advancing `offset`.
  private func readAll(_ buffer: inout [UInt8], count: Int, at offset: inout Int) -> String? {
    buffer.withUnsafeMutableBytes { raw in
      guard count > 0 else { return nil }
      guard let base = raw.baseAddress, raw.count >= count else { return "the read buffer is too small" }
      var done = 0
      while done < count {
        let n = pread(fd, base + done, count - done, off_t(offset + done))
        if n < 0 {
          if errno == EINTR { continue }
          return String(cString: strerror(errno))
        }
        if n == 0 { return "the frame spool \(path) ended early" }
        done += n
      }
      offset += count
      return nil
    }
  }

  /// The span from the first to the last byte where `new` and `old` differ over `count` bytes
  /// (count 0 when they are equal).
  static func changedSpan(_ new: UnsafePointer<UInt8>, _ old: UnsafePointer<UInt8>, _ count: Int) -> (
    start: Int, count: Int
  ) {
    if memcmp(new, old, count) == 0 { return (0, 0) }
    // Blocks of 64 bytes compared by memcmp (which an optimised build expands inline), then byte
    // by byte, from each end: some byte differs, so each walk stops inside the row.
    let block = 64
    var start = 0
    while start + block <= count && memcmp(new + start, old + start, block) == 0 { start += block }
    while new[start] == old[start] { start += 1 }
    var end = count
    while end - block > start && memcmp(new + end - block, old + end - block, block) == 0 { end -= block }
    while new[end - 1] == old[end - 1] { end -= 1 }
    return (start, end - start)
  }
}

extension FrameSpool {
  /// Replays the frames into `process` (an encoder reading them at the spool's layout), only
  /// those whose entry in `keeps` (indexed by spooled frame) is true when given, calling `sent`
  /// with the number of spooled frames done after each; nil, or why they did not all go
  /// (`destination` names the output in the error). Before each frame it asks `stopping`, and
  /// stops there (with an error) when that says so.
  func send(
    to process: FFmpegProcess, keeping keeps: [Bool]? = nil, stallTimeout: Double?, destination: String,
    stopping: () -> Bool = { false }, sent: (Int) -> Void = { _ in }
  ) -> VideoError? {
    var writeError: VideoError?
    var index = 0
    guard
      let failure = replay({ frame in
        defer {
          index += 1
          sent(index)
        }
        if stopping() { return "stopped before frame \(index)" }
        if let keeps, !keeps[index] { return nil }
        writeError = process.write(frame, stallTimeout: stallTimeout)
        return writeError?.description
      })
    else { return nil }
    return writeError ?? .cannotWrite(path: destination, reason: "cannot read the frames back: \(escaped: failure)")
  }
}
