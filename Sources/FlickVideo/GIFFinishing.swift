import FlickMotion
import Foundation

/// The last step of a GIF before it is committed: gifsicle `-O3` (``GIFOptimizer``, when
/// installed; the smaller of its file and ffmpeg's is kept) and, with a budget
/// (``OutputBudget``), the search for the first setting on the budget's ladder whose GIF fits.
///
/// Every setting after the output's own is encoded again from the frames the render kept
/// (``FrameSpool``): ffmpeg's `fps`, `scale` and `palettegen=max_colors` over the replayed
/// frames, the identical-frame merge, then gifsicle (`--lossy` on the last steps). Candidates
/// are written to `.NAME.budget.gif.PID.partial` beside the destination (temporaries named like
/// the output's own, which the sweep of stale temporaries knows) and the one chosen replaces the
/// output's temporary file; nothing else is left.
struct GIFFinishing {
  /// The GIF ffmpeg wrote (the output's temporary file), replaced in place.
  let file: String
  /// The destination, for messages and temporary names.
  let destination: String
  /// The frames the GIF was made from, at ``spoolFPS``.
  let spool: FrameSpool
  let spoolFPS: Int
  /// The GIF's own frame rate and the frames' size in pixels.
  let outputFPS: Int
  let width: Int
  let height: Int
  let options: EncodingOptions
  /// For each spooled frame, whether it repeats the one before (nil: frames are not merged).
  let repeats: [Bool]?
  let ffmpeg: FFmpegTool
  let optimizer: GIFOptimizer?
  let stallTimeout: Double?

  /// What a budget chose, for the summary.
  struct Outcome {
    var setting: OutputBudget.Setting
    var bytes: Int
    var encodings: Int
  }

  /// What finishing did: the budget's choice (nil without a budget) and the images the GIF now
  /// stores when the file was rewritten (gifsicle may merge frames that map to the same pixels;
  /// nil when the file is ffmpeg's as it was).
  struct Result {
    var budget: Outcome?
    var images: Int?
  }

  /// Optimises the GIF and fits it to the budget.
  ///
  /// - Throws: ``VideoError/invalidOption(_:)`` when even the last setting does not fit (the
  ///   caller aborts the output), or what an encoding or gifsicle throws.
  func run() throws(VideoError) -> Result {
    let candidate = temporary("budget")
    defer {
      for path in [candidate, temporary("gifsicle"), temporary("budget-merged")] {
        unlink(path)
        Cleanup.shared.remove(file: path)
      }
    }
    let before = Self.size(file)
    let own = try optimize(file, lossy: 0)
    var rewritten = own != before
    guard let budget = options.maxSize else { return Result(images: rewritten ? Self.imageCount(file) : nil) }
    let ladder = OutputBudget.ladder(fps: outputFPS, width: width, hasLossy: optimizer != nil)
    let found = try budget.search(ladder) { (setting) throws(VideoError) -> Int in
      if setting == ladder[0] { return own }
      try encode(setting, into: candidate)
      return try optimize(candidate, lossy: setting.lossy)
    }
    guard let chosen = found.chosen else {
      let limit = OutputBudget.describe(budget.bytes)
      let smallest = ladder.last.map(\.description) ?? ""
      throw .invalidOption(
        "\(quoted: destination) does not fit under --max-size \(escaped: limit): the smallest setting "
          + "(\(escaped: smallest)) makes \(escaped: OutputBudget.describe(found.bytes)); "
          + "raise --max-size, render fewer frames (--frames) or a smaller size (--size)")
    }
    if chosen != ladder[0] {
      try replace(file, with: candidate)
      rewritten = true
    }
    return Result(
      budget: Outcome(setting: chosen, bytes: found.bytes, encodings: found.encodings),
      images: rewritten ? Self.imageCount(file) : nil)
  }

  /// The images (image descriptors) a GIF file stores, or nil when its structure is not a
  /// GIF's. Reads the file mapped, block by block.
  static func imageCount(_ path: String) -> Int? {
    guard let data = try? Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped) else { return nil }
    return data.withUnsafeBytes { (b: UnsafeRawBufferPointer) -> Int? in
      var i = 13
      guard b.count >= i, b[0] == 0x47, b[1] == 0x49, b[2] == 0x46 else { return nil }
      if b[10] & 0x80 != 0 { i += 3 << (Int(b[10] & 7) + 1) }
      /// Skips data sub-blocks from `i`; false when the file ends first.
      func skipSubBlocks() -> Bool {
        while i < b.count {
          let length = Int(b[i])
          i += 1 + length
          if length == 0 { return true }
        }
        return false
      }
      var images = 0
      while i < b.count {
        switch b[i] {
        case 0x21:
          i += 2
          guard skipSubBlocks() else { return nil }
        case 0x2C:
          guard i + 10 <= b.count else { return nil }
          let packed = b[i + 9]
          i += 10
          if packed & 0x80 != 0 { i += 3 << (Int(packed & 7) + 1) }
          i += 1  // LZW minimum code size
          guard skipSubBlocks() else { return nil }
          images += 1
        case 0x3B:
          return images
        default:
          return nil
        }
      }
      return nil
    }
  }

  /// `.NAME.KIND.gif.PID.partial` beside the destination.
  private func temporary(_ kind: String) -> String {
    let url = URL(fileURLWithPath: destination)
    return url.deletingLastPathComponent().appendingPathComponent(
      ".\(url.lastPathComponent).\(kind).gif.\(getpid()).partial"
    ).path
  }

  /// Runs gifsicle on `path` (in place) when there is one and the options allow it, keeping
  /// the smaller file; returns the size kept.
  private func optimize(_ path: String, lossy: Int) throws(VideoError) -> Int {
    if let optimizer, options.optimizesGIF {
      let optimized = temporary("gifsicle")
      try optimizer.optimize(path, to: optimized, lossy: lossy, destination: destination, stallTimeout: stallTimeout)
      if lossy > 0 || Self.size(optimized) < Self.size(path) {
        try replace(path, with: optimized)
      } else {
        unlink(optimized)
        Cleanup.shared.remove(file: optimized)
      }
    }
    return Self.size(path)
  }

  /// Encodes the spooled frames with `setting` into `path`: ffmpeg's palette pass and
  /// encoding pass, then the identical-frame merge.
  private func encode(_ setting: OutputBudget.Setting, into path: String) throws(VideoError) {
    var o = options
    o.gifFPS = setting.fps
    o.gifWidth = setting.width == width ? nil : setting.width
    o.gifPalette = .ffmpeg
    o.gifColors = setting.colors
    let url = URL(fileURLWithPath: destination)
    let stem = url.deletingLastPathComponent().appendingPathComponent(
      ".\(url.lastPathComponent).budget.\(getpid()).palette"
    ).path
    let command = try FFmpegCommand(
      format: .gif, width: width, height: height, fps: spoolFPS, options: o, output: path, palette: stem)
    guard let palettePass = command.palettePass, let palette = command.palettePath else {
      throw .invalidOption("internal: a budget GIF has no palette pass")
    }
    defer {
      unlink(palette)
      Cleanup.shared.remove(file: palette)
    }
    for (arguments, files) in [(palettePass, [palette]), (command.arguments, [path])] {
      try OutputEntry.reserveTemporaries(files, for: destination)
      let process = try FFmpegProcess(executable: ffmpeg.path, arguments: arguments, files: files, output: destination)
      if let error = FFmpegEncoder.replay(
        spool, frames: nil, into: process, stallTimeout: stallTimeout, destination: destination)
      {
        process.kill()
        throw error
      }
      if let error = process.finish(stallTimeout: stallTimeout) { throw error }
    }
    guard var repeats, options.mergesIdenticalFrames, repeats.contains(true) else { return }
    repeats = IdenticalFrameMerger.resampled(repeats, from: spoolFPS, to: setting.fps)
    let merged = temporary("budget-merged")
    try OutputEntry.reserveTemporaries([merged], for: destination)
    do {
      if case .merged = try IdenticalFrameMerger.merge(.gif, input: path, output: merged, repeats: repeats) {
        try replace(path, with: merged)
      }
    } catch let error as VideoError {
      throw error
    } catch {
      throw .cannotWrite(path: destination, reason: "cannot merge identical frames: \(escaped: error)")
    }
  }

  /// Renames `source` over `path` (both temporaries of the destination's).
  private func replace(_ path: String, with source: String) throws(VideoError) {
    let failure: String? = Cleanup.shared.locked {
      rename(source, path) == 0 ? nil : String(cString: strerror(errno))
    }
    Cleanup.shared.remove(file: source)
    if let failure {
      unlink(source)
      throw .cannotWrite(path: destination, reason: "cannot replace \(quoted: path): \(escaped: failure)")
    }
  }

  private static func size(_ path: String) -> Int {
    var info = stat()
    return stat(path, &info) == 0 ? Int(info.st_size) : 0
  }
}
