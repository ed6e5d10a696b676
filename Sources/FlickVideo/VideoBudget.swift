import FlickMotion

/// How an MP4 (x264) or WebM (VP9) is fitted under `--max-size` (``OutputBudget``): the rules,
/// apart from the encodings (``VideoFitting`` runs them).
///
/// The output's own encoding (constant quality, `--crf`) is kept when it fits. Otherwise the
/// frames the render kept are encoded again in two passes at a target bitrate computed from the
/// budget and the duration (``bitrate(frames:duration:)``, after ``overhead(frames:)`` for the
/// container); a file still over the budget lowers the target by the measured ratio
/// (``retarget(_:measured:frames:)``) and is encoded again, at most ``attempts`` times a rung.
/// A bitrate under the format's quality floor (``floor(_:)``, bits per pixel per frame) is not
/// encoded: the next rung of the ladder (``ladder(fps:width:height:)``: a lower frame rate, then
/// a narrower width) gets the same budget over fewer pixels. The last rung takes the bitrate the
/// budget leaves, floor or not. Every choice depends on measured sizes only, so the same inputs
/// give the same choice and the same bytes.
package struct VideoBudget: Sendable, Equatable {
  /// The size to fit under.
  package var budget: OutputBudget
  /// MP4 or WebM.
  package var format: OutputFormat

  package init(budget: OutputBudget, format: OutputFormat) {
    self.budget = budget
    self.format = format
  }

  /// A frame rate and size on the ladder.
  package struct Rung: Sendable, Hashable, CustomStringConvertible {
    /// Frames per second.
    package var fps: Int
    /// The encoded frames' width and height in pixels.
    package var width: Int
    package var height: Int

    package var description: String { "\(fps) fps, \(width)×\(height)" }

    /// Pixels a second at this rung.
    var pixelRate: Double { Double(fps) * Double(width) * Double(height) }
  }

  /// The lowest frame rate the ladder goes to (a slower output keeps its own).
  static let minimumFPS = 10
  /// Encodings tried on one rung: the first target and up to three lowered ones.
  package static let attempts = 4
  /// The share of the budget the first target aims at, and each lowered target's margin under
  /// the measured ratio (the encoders land within a few per cent of a two-pass target).
  static let margin = 0.97
  /// The lowest bitrate tried, in bits per second (below it the encoders ignore the target).
  static let minimumBitrate = 1_000

  /// The quality floor in bits per pixel per frame: a two-pass target under it lowers the rate
  /// or the width instead (except on the last rung). H.264 0.02, VP9 0.015 (VP9 spends about a
  /// quarter fewer bits for the same quality). At these rates Flick's flat-coloured motion
  /// graphics still look clean; photographic or noisy content does not.
  package static func floor(_ format: OutputFormat) -> Double {
    format == .webm ? 0.015 : 0.02
  }

  /// The rungs tried, in order: the output's own rate and size first; then the rates `fps / k`
  /// (k = 2, 3, 4, …) that are whole numbers, down to 10 fps (every k-th frame, so motion stays
  /// even); then, at the lowest of those rates, the widths of ``OutputBudget/widthFractions``
  /// (not below 120 px, or the full width when narrower; even sides, the height keeping the
  /// aspect ratio).
  package static func ladder(fps: Int, width: Int, height: Int) -> [Rung] {
    var current = Rung(fps: fps, width: width, height: height)
    var rungs = [current]
    for k in 2...max(2, fps) where fps % k == 0 && fps / k >= minimumFPS {
      current.fps = fps / k
      rungs.append(current)
    }
    for eighths in OutputBudget.widthEighths {
      let narrower = even(width * eighths / 8)
      guard narrower >= min(OutputBudget.minimumWidth, width), narrower < current.width else { continue }
      current.width = narrower
      current.height = max(2, even(Int((Double(height) * Double(narrower) / Double(width)).rounded())))
      rungs.append(current)
    }
    return rungs
  }

  private static func even(_ n: Int) -> Int { max(2, n - n % 2) }

  /// Bytes the container adds to the encoded frames, estimated: 2 KB of headers and indexes
  /// and 24 bytes a frame (sample tables, block headers).
  package static func overhead(frames: Int) -> Int { 2_000 + 24 * frames }

  /// The first target bitrate for `frames` frames lasting `duration` seconds: the budget less
  /// the container's overhead, times ``margin``, over the duration; bits per second.
  package func bitrate(frames: Int, duration: Double) -> Int {
    let bits = Double(budget.bytes - Self.overhead(frames: frames)) * 8 * Self.margin
    return max(0, Int(bits / max(duration, 1e-3)))
  }

  /// The next target after a file of `measured` bytes at `bitrate`: lowered by the ratio of the
  /// budget to the measured size (both less the overhead), times ``margin``.
  package func retarget(_ bitrate: Int, measured: Int, frames: Int) -> Int {
    let overhead = Self.overhead(frames: frames)
    let ratio = Double(budget.bytes - overhead) / Double(max(1, measured - overhead))
    return max(0, min(bitrate - 1, Int(Double(bitrate) * min(1, ratio) * Self.margin)))
  }

  /// Bits per pixel per frame at `bitrate` on `rung`.
  package static func bitsPerPixel(_ bitrate: Int, _ rung: Rung) -> Double {
    Double(bitrate) / rung.pixelRate
  }

  /// What the search found: the rung and bitrate whose file fits (nil when none did), its size
  /// or the smallest size made, and the two-pass encodings run.
  package struct Found: Sendable, Equatable {
    package var rung: Rung?
    package var bitrate: Int
    package var bytes: Int
    package var encodings: Int
  }

  /// Searches `ladder` for the first rung and bitrate whose file fits. `frames` gives the frames
  /// a rung encodes, `duration` is the output's length in seconds, and `encode` encodes a rung
  /// at a bitrate and returns the file's size in bytes, or nil when the encoder refuses a bitrate
  /// that low for those frames (x264 does, below what its first pass says the frames need): the
  /// search then goes on with the next rung.
  package func search<Failure: Error>(
    _ ladder: [Rung], frames: (Rung) -> Int, duration: Double,
    encode: (Rung, Int) throws(Failure) -> Int?
  ) throws(Failure) -> Found {
    var smallest = Int.max
    var encodings = 0
    for (i, rung) in ladder.enumerated() {
      let last = i == ladder.count - 1
      let count = frames(rung)
      var rate = bitrate(frames: count, duration: duration)
      for _ in 0..<Self.attempts {
        guard rate >= Self.minimumBitrate, last || Self.bitsPerPixel(rate, rung) >= Self.floor(format) else { break }
        guard let size = try encode(rung, rate) else { break }
        encodings += 1
        if size <= budget.bytes { return Found(rung: rung, bitrate: rate, bytes: size, encodings: encodings) }
        smallest = min(smallest, size)
        rate = retarget(rate, measured: size, frames: count)
      }
    }
    return Found(rung: nil, bitrate: 0, bytes: smallest == .max ? 0 : smallest, encodings: encodings)
  }

  /// `1,234 kb/s (0.063 bits a pixel)`-style text for a bitrate on a rung.
  package static func describe(bitrate: Int, on rung: Rung) -> String {
    let kilobits = (Double(bitrate) / 1000).rounded()
    return "\(Int(kilobits)) kb/s (" + String(format: "%.3f", bitsPerPixel(bitrate, rung)) + " bits a pixel)"
  }
}
