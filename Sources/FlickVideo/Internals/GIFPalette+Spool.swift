import Foundation

extension GIFPalette {
  /// The palette of the spooled frames `keeps` marks (indexed by spooled frame), in order: what
  /// `palettegen=stats_mode=diff` makes of those frames sent to it, as a `--max-size` candidate
  /// at the GIF's own width and 256 colours sends them (``GIFFinishing``). Each kept frame is
  /// compared with the kept frame before it, as ffmpeg compares the frames it is sent.
  ///
  /// - Returns: The palette (``size`` entries), nil when `stopping` said to stop (asked before
  ///   each frame), or why there is none: the spool's read failure, or no frame kept.
  static func of(
    _ spool: FrameSpool, keeping keeps: [Bool], stopping: () -> Bool
  ) -> Result<[UInt32]?, SpoolFailure> {
    var statistics = GIFPalette()
    var index = 0
    var stopped = false
    let failure = spool.replay { frame in
      defer { index += 1 }
      if stopping() {
        stopped = true
        return "stopped"
      }
      if keeps[index] { statistics.append(copying: frame) }
      return nil
    }
    if stopped { return .success(nil) }
    if let failure { return .failure(SpoolFailure(reason: failure)) }
    guard let palette = statistics.palette() else { return .failure(SpoolFailure(reason: "no frame is kept")) }
    return .success(palette)
  }

  /// Why the spool could not be read back.
  struct SpoolFailure: Error {
    var reason: String
  }

  /// Writes `palette` as the PAM image an encoding pass reads (``pam(_:)``) at the temporary
  /// `path`, registered with ``Cleanup`` before it exists and created as Flick's own file.
  ///
  /// - Throws: ``VideoError/cannotWrite(path:reason:)`` naming `destination`.
  static func writePAM(_ palette: [UInt32], to path: String, for destination: String) throws(VideoError) {
    Cleanup.shared.add(file: path)
    do {
      let image = pam(palette)
      let writer = try BufferedWriter(path: path, capacity: image.count)
      try writer.write(image)
      try writer.close()
    } catch {
      throw .cannotWrite(path: destination, reason: "cannot write the palette \(quoted: path): \(escaped: error)")
    }
  }
}
