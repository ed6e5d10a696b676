import FlickMotion

/// A size an output must fit under (`--max-size`), and the settings tried to fit it.
///
/// Sizes are written with a unit: decimal `B`, `KB` (1,000 bytes), `MB` (1,000,000), `GB`, or
/// binary `KiB` (1,024), `MiB` (1,048,576), `GiB`; a bare number is bytes. Upper or lower case.
///
/// The settings are lowered in one stated order (``ladder(fps:width:frames:minimumFPS:hasLossy:)``):
/// first the frame rate, then the width, then the palette (GIF colours), then lossy LZW
/// (gifsicle `--lossy`); the first setting on that ladder whose file fits is kept. Every
/// setting after the first is encoded again from the frames the render kept (a GIF's spool),
/// never rendered again, and the ladder depends only on the output's size and rate, so the same
/// inputs give the same choice and the same bytes.
///
/// That ladder is a GIF's (``GIFFinishing``); an MP4 or WebM is fitted by a two-pass encoding
/// at a bitrate computed from the budget, then at lower rates and widths (``VideoBudget``).
/// Other outputs are refused (``refusal(for:)``).
package struct OutputBudget: Sendable, Equatable {
  /// The most bytes the output may have (≥ 1).
  package var bytes: Int

  package init(bytes: Int) { self.bytes = bytes }

  /// The size many code-review sites accept for an image (10 MB, decimal): a GIF over it gets
  /// a warning when no budget was given.
  package static let reviewLimit = 10_000_000

  /// Why `--max-size` cannot fit an output of `format`, or nil when it can (GIF, MP4, WebM).
  package static func refusal(for format: OutputFormat) -> String? {
    switch format {
    case .gif, .mp4, .webm:
      return nil
    case .mov:
      return "ProRes is an editing format whose size follows its profile and the frame size, not a budget; "
        + "fit a WebM (VP9, with alpha) or an MP4 instead"
    case .apng:
      return "an APNG is lossless, so only fewer frames or pixels make it smaller; "
        + "fit a GIF or a WebM instead, or lower --fps or --size"
    case .webp:
      return "an animated WebP is written at one fixed quality; fit a GIF, a WebM or an MP4 instead"
    case .png:
      return "a PNG sequence is many files, not one; --max-size fits one file"
    case .bgra:
      return "raw frames take exactly width × height × 4 bytes a frame; lower --size or --frames"
    }
  }

  /// Bytes per unit, lower case; decimal and binary units both.
  static let units: [(String, Int)] = [
    ("kib", 1 << 10), ("mib", 1 << 20), ("gib", 1 << 30),
    ("kb", 1_000), ("mb", 1_000_000), ("gb", 1_000_000_000), ("b", 1),
  ]

  /// Parses `2MB`, `500KB`, `10MiB`, `1.5MB` or `250000`: a ``FlickMotion/DecimalText`` number
  /// (the grammar of every number Flick reads; not `0x10`, `nan` or `inf`) and the unit, with at
  /// most one space between them and none around.
  ///
  /// - Throws: ``VideoError/invalidOption(_:)`` for anything else, or a size under 1 KB.
  package static func parse(_ text: String) throws(VideoError) -> OutputBudget {
    let lower = text.lowercased()
    var number = Substring(lower)
    var unit = 1
    for (name, size) in units where lower.hasSuffix(name) {
      // One space may part the number from its unit (`3 GB`), as in `ls -h` and `du -h`.
      number = lower.dropLast(name.count)
      if number.hasSuffix(" ") { number = number.dropLast() }
      unit = size
      break
    }
    guard let value = DecimalText.optionValue(number), value > 0, value * Double(unit) < 1e15 else {
      throw .invalidOption(
        "--max-size expects a size such as 2MB, 500KB or 10MiB (KB/MB/GB are 1000-based, KiB/MiB/GiB "
          + "1024-based), found '\(quoted: text)'")
    }
    let bytes = Int((value * Double(unit)).rounded(.down))
    guard bytes >= 1_000 else {
      throw .invalidOption("--max-size \(quoted: text) is under 1 KB; no animation fits in it")
    }
    return OutputBudget(bytes: bytes)
  }

  /// `bytes` for messages: `2 MB`, `1.93 MB`, `512 KB` (decimal units, as `ls -h --si`).
  package static func describe(_ bytes: Int) -> String {
    let value = Double(bytes)
    if value >= 1e9 { return DecimalText.format(value / 1e9, decimals: 2) + " GB" }
    if value >= 1e6 { return DecimalText.format(value / 1e6, decimals: 2) + " MB" }
    if value >= 1e3 { return DecimalText.format(value / 1e3, decimals: 2) + " KB" }
    return "\(bytes) B"
  }

  /// One set of encoder settings on the ladder.
  package struct Setting: Sendable, Hashable, CustomStringConvertible {
    /// Frames per second.
    package var fps: Int
    /// Width in pixels (the height keeps the aspect ratio).
    package var width: Int
    /// Palette size (GIF: 2…256 colours).
    package var colors = 256
    /// gifsicle's `--lossy` strength (0: lossless).
    package var lossy = 0

    package var description: String {
      var parts = ["\(fps) fps", "\(width) px wide", "\(quoted: colors) colours"]
      if lossy > 0 { parts.append("lossy \(quoted: lossy)") }
      return parts.joined(separator: ", ")
    }

    /// The setting of a file of `frames` frames, after "fits under 2 MB": `at 20 fps, 480 px
    /// wide, 256 colours`, or for a single frame, whose rate nothing shows, `as one image,
    /// 480 px wide, 256 colours`.
    package func description(frames: Int) -> String {
      guard frames == 1 else { return "at " + description }
      var parts = ["as one image", "\(width) px wide", "\(quoted: colors) colours"]
      if lossy > 0 { parts.append("lossy \(quoted: lossy)") }
      return parts.joined(separator: ", ")
    }
  }

  /// The frame rates tried below `fps`: those GIF delays show exactly (50, 25, 20, 10 per
  /// second), down to `minimumFPS`.
  static let exactRates = [50, 25, 20, 10]
  /// Widths tried, as fractions of the full width (eighths), down to ``minimumWidth``: steps of
  /// at most 0.77× the pixels down to 1/2 (then 0.56× and 0.44×), so a GIF or video that only just
  /// misses its budget at one width is not cut to half of it at the next.
  static let widthEighths = [7, 6, 5, 4, 3, 2]

  /// ``widthEighths`` as help and documentation write them: `7/8, 3/4, 5/8, 1/2, 3/8, 1/4`.
  package static var widthFractions: String {
    widthEighths.map { eighths in
      var (n, d) = (eighths, 8)
      while n % 2 == 0 && d > 1 {
        n /= 2
        d /= 2
      }
      return "\(n)/\(d)"
    }.joined(separator: ", ")
  }
  /// The narrowest width tried, in pixels (or the full width when that is narrower).
  static let minimumWidth = 120
  /// Palette sizes tried below 256.
  static let paletteSizes = [128, 64, 32]
  /// gifsicle `--lossy` strengths tried (it allows 0…200; 20 is barely visible, 200 is coarse).
  static let lossyLevels = [20, 40, 80, 120, 200]

  /// The settings tried, in order: the output's own (`fps`, `width`: a GIF's `--gif-width` when
  /// given) first, then lower frame rates, then (at the lowest rate) narrower widths, then (at the
  /// narrowest) smaller palettes, then (with the smallest palette) stronger lossy LZW when
  /// gifsicle is there. A rate at which the output's `frames` frames (at `fps`; nil: any number)
  /// keep no frame (``FrameSchedule/Output/frameCount``: one frame at 10 fps from 30) is left
  /// out; the search then goes on at the lowest rate that keeps one. A single frame tries no
  /// lower rate: its one image is the same at any.
  package static func ladder(
    fps: Int, width: Int, frames: Int? = nil, minimumFPS: Int = 10, hasLossy: Bool
  ) -> [Setting] {
    var current = Setting(fps: fps, width: width)
    var settings = [current]
    // One frame is the same image at any rate: no lower rate is tried.
    for rate in exactRates where rate < fps && rate >= min(minimumFPS, fps) && frames != 1 {
      if let frames, FrameSchedule.Output(format: .gif, renderFPS: fps, fps: rate, renderFrames: frames).frameCount == 0
      {
        continue
      }
      current.fps = rate
      settings.append(current)
    }
    for eighths in widthEighths {
      let narrower = max(1, width * eighths / 8)
      guard narrower >= min(minimumWidth, width), narrower < current.width else { continue }
      current.width = narrower
      settings.append(current)
    }
    for colors in paletteSizes {
      current.colors = colors
      settings.append(current)
    }
    if hasLossy {
      for level in lossyLevels {
        current.lossy = level
        settings.append(current)
      }
    }
    return settings
  }

  /// How many times its budget a GIF may be for a lossless pass (gifsicle `-O3`) to be worth
  /// trying on it: 2. That pass takes 0.4–10.3 % off Flick's GIFs (every bundled template), never
  /// half, and on a large GIF it takes as long as the encoding (5.3 s of frosted-player's 960 ×
  /// 540 GIF). A GIF over this reach goes on down the ladder without it.
  package static let losslessReach = 2.0

  /// The share of a GIF's bytes the lossless pass is expected to take off before one has run on
  /// it (0.05, within the range above), for guessing the setting the search measures next
  /// (``GIFLookahead``).
  static let expectedLosslessGain = 0.05

  /// The first setting of `ladder` whose file fits (with its size), or nil with the size the
  /// last one made. `measure` encodes one setting and returns its size in bytes; its second
  /// argument names the setting the search measures next should this one not fit, given the
  /// size it would have (``next(in:from:after:)``), so that `measure` may start on it early.
  ///
  /// A setting that differs from the last one measured only in rate and width is skipped when
  /// the size predicted from that measurement (proportional to the frame rate and the pixels)
  /// is over 1.25 × the budget and the next setting is of the same kind, so an output far over
  /// its budget does not pay for an encoding a step. The prediction is made from measured sizes
  /// only, so the search stays deterministic.
  package func search<Failure: Error>(
    _ ladder: [Setting], measure: (Setting, _ following: (_ bytes: Int) -> Setting?) throws(Failure) -> Int
  ) throws(Failure) -> (chosen: Setting?, bytes: Int, encodings: Int) {
    var last: (setting: Setting, bytes: Int)?
    var encodings = 0
    var i = next(in: ladder, from: 0, after: nil)
    while let index = i {
      let setting = ladder[index]
      let size = try measure(setting) { bytes in
        next(in: ladder, from: index + 1, after: (setting, bytes)).map { ladder[$0] }
      }
      encodings += 1
      if size <= bytes { return (setting, size, encodings) }
      last = (setting, size)
      i = next(in: ladder, from: index + 1, after: last)
    }
    return (nil, last?.bytes ?? 0, encodings)
  }

  /// ``search(_:measure:)`` without a look ahead.
  package func search<Failure: Error>(
    _ ladder: [Setting], measure: (Setting) throws(Failure) -> Int
  ) throws(Failure) -> (chosen: Setting?, bytes: Int, encodings: Int) {
    try search(ladder) { (setting, _) throws(Failure) -> Int in try measure(setting) }
  }

  /// The index of the first setting of `ladder` from `start` on that the search measures after
  /// `last` (the setting measured last and its size in bytes; nil before the first), or nil
  /// when none is left: the skip rule of ``search(_:measure:)``.
  func next(in ladder: [Setting], from start: Int, after last: (setting: Setting, bytes: Int)?) -> Int? {
    for i in ladder.indices where i >= start {
      if let last, i + 1 < ladder.count, Self.onlyRateOrWidth(last.setting, ladder[i]),
        Self.onlyRateOrWidth(ladder[i], ladder[i + 1])
      {
        let setting = ladder[i]
        let rate = Double(setting.fps) / Double(last.setting.fps)
        let area = Double(setting.width * setting.width) / Double(last.setting.width * last.setting.width)
        if Double(last.bytes) * rate * area > 1.25 * Double(bytes) { continue }
      }
      return i
    }
    return nil
  }

  /// Whether `b` differs from `a` in frame rate or width only.
  private static func onlyRateOrWidth(_ a: Setting, _ b: Setting) -> Bool {
    a.colors == b.colors && a.lossy == b.lossy
  }
}
