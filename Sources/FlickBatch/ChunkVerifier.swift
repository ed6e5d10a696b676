import FlickMotion
import FlickSnapshot
import FlickTemplates
import FlickVideo
import Foundation

/// Checks a merge's chunks before anything is joined (`flick merge`): chunks come from other
/// machines, or from a pull request, and are input like any other.
///
/// - No chunk output, chunk folder or chunk frame is a symbolic link (an outside image would
///   otherwise be joined into the clip), and every one is a regular file (or, for a PNG
///   sequence, a real folder).
/// - Every frame the plan expects from a chunk is there, its PNG header says the plan's frame
///   size (checked before anything is decoded, so a huge header costs nothing), and it decodes
///   completely (chunk structure, CRCs, zlib stream, every row: a truncated frame is refused).
///
/// A failure is ``BatchError/invalidInput(_:)`` (exit 2) naming the chunk file and what was
/// expected; nothing has been written then.
enum ChunkVerifier {
  /// Verifies every chunk of `merge`, whose frames may have at most `maximumPixels` pixels
  /// (`--max-pixels`).
  ///
  /// - Throws: ``BatchError/invalidInput(_:)``.
  static func verify(_ merge: BatchPlan.Merge, maximumPixels: Int) throws(BatchError) {
    let width = merge.width, height = merge.height
    let pixels = width.multipliedReportingOverflow(by: height)
    guard width > 0, height > 0, !pixels.overflow, pixels.partialValue <= maximumPixels else {
      throw .invalidInput(
        "\(quoted: merge.spec.name): the plan's frame size \(width)×\(height) is over the pixel cap of "
          + "\(quoted: maximumPixels) (--max-pixels or FLICK_MAX_PIXELS raises it)")
    }
    var frames: [String] = []
    for chunk in merge.chunks {
      for target in chunk.targets {
        let path = OutputEntry.entry(Stamp.folder(of: target))
        let folder = target.format == .png
        try entry(path, isFolder: folder, merge: merge)
        guard folder else { continue }
        frames += chunk.frames.map { path + "/" + Stamp.frameName($0, digits: merge.digits) }
      }
    }
    // The frames are decoded on every core; the first failure in frame order is reported.
    let paths = frames
    let failures = Locked<[Int: BatchError]>([:])
    let stride = max(1, paths.count / (MachineCPUs.usable * 4))
    DispatchQueue.concurrentPerform(iterations: (paths.count + stride - 1) / stride) { part in
      for i in (part * stride)..<min(paths.count, (part + 1) * stride) {
        do throws(BatchError) {
          try frame(paths[i], width: width, height: height, merge: merge)
        } catch {
          failures.withLock { $0[i] = error }
          return
        }
      }
    }
    if let first = failures.withLock({ $0 }).min(by: { $0.key < $1.key }) { throw first.value }
  }

  /// Refuses a chunk entry that is a link, missing, or not the kind expected.
  private static func entry(_ path: String, isFolder: Bool, merge: BatchPlan.Merge) throws(BatchError) {
    var info = stat()
    guard lstat(path, &info) == 0 else {
      throw .invalidInput("\(quoted: merge.spec.name): chunk \(quoted: path) is missing")
    }
    let kind = info.st_mode & S_IFMT
    if kind == S_IFLNK {
      throw .invalidInput(
        "\(quoted: merge.spec.name): chunk \(quoted: path) is a symbolic link; a chunk must be the "
          + (isFolder ? "folder" : "file") + " its shard wrote")
    }
    guard kind == (isFolder ? S_IFDIR : S_IFREG) else {
      throw .invalidInput(
        "\(quoted: merge.spec.name): chunk \(quoted: path) is not a " + (isFolder ? "folder" : "regular file"))
    }
  }

  /// Checks one chunk frame: a regular file (no link) whose PNG header says `width × height`
  /// and that decodes completely.
  private static func frame(_ path: String, width: Int, height: Int, merge: BatchPlan.Merge) throws(BatchError) {
    try entry(path, isFolder: false, merge: merge)
    let expected = "a PNG of \(width)×\(height) pixels (the plan's frame size)"
    guard let header = header(path) else {
      throw .invalidInput(
        "\(quoted: merge.spec.name): chunk frame \(quoted: path) is not a PNG; expected \(quoted: expected)")
    }
    guard header == (width, height) else {
      throw .invalidInput(
        "\(quoted: merge.spec.name): chunk frame \(quoted: path) is \(header.width)×\(header.height); expected \(quoted: expected)"
      )
    }
    // The frame's own size bounds the decode (the header was checked above); the file may be at
    // most what an uncompressed frame with generous overhead takes.
    let limits = DecodeLimits(maxPixels: width * height, maxFileBytes: width * height * 8 + (1 << 20))
    do {
      _ = try PNGImage(contentsOf: path, limits: limits)
    } catch {
      let reason: String =
        if case .unreadableImage(_, let reason) = error { reason } else { error.description }
      throw .invalidInput(
        "\(quoted: merge.spec.name): chunk frame \(quoted: path) does not decode (\(escaped: reason)); expected \(quoted: expected)"
      )
    }
  }

  /// The width and height of the PNG at `path` from its IHDR chunk, read without following a
  /// link; nil when it is not a PNG.
  static func header(_ path: String) -> (width: Int, height: Int)? {
    let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var bytes = [UInt8](repeating: 0, count: 24)
    let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress, 24) }
    let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    guard n == 24, Array(bytes[0..<8]) == signature, Array(bytes[12..<16]) == Array("IHDR".utf8) else { return nil }
    func word(_ at: Int) -> Int { bytes[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
    return (word(16), word(20))
  }

  private static func quoted(_ path: String) -> String { TemplateText.escaped(path) }
}
