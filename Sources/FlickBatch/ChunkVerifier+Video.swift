import FlickMotion
import FlickTemplates
import FlickVideo
import Foundation

extension ChunkVerifier {
  /// The most MP4 chunks of `width × height` frames one ffmpeg checks at once: each ffmpeg costs
  /// its start-up (about 0.08 s of CPU, most of it the dynamic linker), and the decoders of one
  /// run side by side, so a group is as many chunks (at most 8) as have together no more pixels
  /// a frame than one 1920 × 1080 frame: its decoders hold about what one 1080p decoder holds.
  /// 1 (each chunk alone) from 1080p up.
  static func videoGroup(width: Int, height: Int) -> Int {
    let pixels = width.multipliedReportingOverflow(by: height)
    guard !pixels.overflow, pixels.partialValue > 0 else { return 1 }
    return max(1, min(8, 1920 * 1080 / pixels.partialValue))
  }

  /// Checks every MP4 chunk of `merge` with `ffmpeg` before the chunks are joined: its first
  /// video stream has the plan's frame size, it decodes to the end without an error (`-xerror`),
  /// and it holds exactly the frames of its chunk job. An ffmpeg that makes no progress for
  /// `stallTimeout` seconds is stopped.
  ///
  /// Chunks are checked ``videoGroup(width:height:)`` at a time by one ffmpeg, each decoder held
  /// to the plan's frame size (`-max_pixels`); a group with any error, stall or fact that is not
  /// the plan's is checked again a chunk at a time, which names the chunk at fault as a check of
  /// it alone does.
  ///
  /// - Throws: ``BatchError/invalidInput(_:)`` naming the chunk file and what was expected,
  ///   ``BatchError/environment(_:)`` when ffmpeg cannot run.
  static func verifyVideo(_ merge: BatchPlan.Merge, ffmpeg: String, stallTimeout: Double) throws(BatchError) {
    let chunks = merge.chunks.flatMap { chunk in
      chunk.targets.filter { $0.format == .mp4 }.map {
        VideoChunk(path: OutputEntry.entry($0.path), frames: chunk.frames.count)
      }
    }
    let size = videoGroup(width: merge.width, height: merge.height)
    var next = 0
    while next < chunks.count {
      let group = Array(chunks[next..<min(chunks.count, next + size)])
      next += group.count
      if group.count > 1, groupDecodes(group, merge: merge, ffmpeg: ffmpeg, stallTimeout: stallTimeout) { continue }
      for chunk in group { try verifyAlone(chunk, merge: merge, ffmpeg: ffmpeg, stallTimeout: stallTimeout) }
    }
  }

  /// An MP4 chunk file and the frames its chunk job rendered.
  struct VideoChunk {
    var path: String
    var frames: Int
  }

  /// Whether one ffmpeg decodes every chunk of `group` to its end, each at the plan's frame size
  /// with its job's frames. False on anything else, for the chunks to be checked one by one.
  private static func groupDecodes(
    _ group: [VideoChunk], merge: BatchPlan.Merge, ffmpeg: String, stallTimeout: Double
  ) -> Bool {
    var arguments = ["-hide_banner", "-nostdin", "-xerror", "-v", "verbose"]
    for chunk in group { arguments += ["-max_pixels", String(merge.width * merge.height), "-i", chunk.path] }
    for index in group.indices { arguments += ["-map", "\(index):v:0", "-f", "null", "-"] }
    guard let process = try? Subprocess(executable: ffmpeg, arguments: arguments, output: .null, error: .pipe)
    else { return false }
    guard let ending = process.wait(stall: stallTimeout) else {
      process.stop()
      return false
    }
    guard ending == .exited(0) else { return false }
    let facts = groupFacts(process.errorText, inputs: group.count)
    return group.indices.allSatisfy { index in
      facts.sizes[index].map { $0 == (merge.width, merge.height) } == true && facts.frames[index] == group[index].frames
    }
  }

  /// Checks one MP4 chunk with an ffmpeg of its own (``verifyVideo(_:ffmpeg:stallTimeout:)``).
  private static func verifyAlone(
    _ chunk: VideoChunk, merge: BatchPlan.Merge, ffmpeg: String, stallTimeout: Double
  ) throws(BatchError) {
    let path = chunk.path
    let expected = "an H.264 stream of \(merge.width)×\(merge.height) pixels with \(chunk.frames) frames"
    let process: Subprocess
    do {
      process = try Subprocess(
        executable: ffmpeg,
        arguments: [
          "-hide_banner", "-nostdin", "-xerror", "-i", path, "-map", "0:v:0", "-f", "null", "-progress",
          "pipe:1", "-nostats", "-",
        ], output: .pipe, error: .pipe)
    } catch {
      throw .environment("cannot check the chunk \(quoted: path): \(escaped: error.description)")
    }
    guard let ending = process.wait(stall: stallTimeout) else {
      process.stop()
      throw .environment("ffmpeg made no progress checking the chunk \(quoted: path); stopped it")
    }
    let found = Self.videoFacts(output: process.outputText, error: process.errorText)
    guard ending == .exited(0), let size = found.size else {
      throw .invalidInput(
        "\(quoted: merge.spec.name): chunk \(quoted: path) does not decode; expected \(quoted: expected)")
    }
    guard size == (merge.width, merge.height), found.frames == chunk.frames else {
      throw .invalidInput(
        "\(quoted: merge.spec.name): chunk \(quoted: path) is \(size.width)×\(size.height) with "
          + "\(found.frames ?? 0) frames; expected \(quoted: expected)")
    }
  }

  /// From the `-v verbose` log of one ffmpeg decoding several inputs each into a null output of
  /// its own: each input's first video stream size (its "Input #N" section's first `Stream`
  /// line with `Video:`) and each output's frames (the final "Output stream #N:0 (video): F
  /// frames encoded" lines), by index; nil where the log does not say.
  static func groupFacts(_ log: String, inputs: Int) -> (sizes: [(width: Int, height: Int)?], frames: [Int?]) {
    var sizes = [(width: Int, height: Int)?](repeating: nil, count: inputs)
    var frames = [Int?](repeating: nil, count: inputs)
    var input: Int?
    for line in log.split(separator: "\n") {
      if line.hasPrefix("Input #") {
        input = Int(line.dropFirst("Input #".count).prefix { $0.isNumber })
      } else if line.hasPrefix("Output #") || line.hasPrefix("Stream mapping") {
        input = nil
      } else if let index = input, sizes.indices.contains(index), sizes[index] == nil,
        line.hasPrefix("  Stream #\(index):"), line.contains("Video:")
      {
        sizes[index] = videoFacts(output: "", error: String(line)).size
      } else if line.hasPrefix("  Output stream #"), line.contains("(video):"),
        let index = Int(line.dropFirst("  Output stream #".count).prefix { $0.isNumber }),
        frames.indices.contains(index),
        let encoded = line.split(separator: ":").last?.split(separator: " ").first.flatMap({ Int($0) })
      {
        frames[index] = encoded
      }
    }
    return (sizes, frames)
  }

  /// The frame size of the first video stream (from ffmpeg's input summary on stderr) and the
  /// frames decoded (the last `frame=` of `-progress`).
  static func videoFacts(output: String, error: String) -> (size: (width: Int, height: Int)?, frames: Int?) {
    let frames = output.split(separator: "\n").last { $0.hasPrefix("frame=") }.flatMap { Int($0.dropFirst(6)) }
    guard let stream = error.split(separator: "\n").first(where: { $0.contains("Stream #") && $0.contains("Video:") })
    else { return (nil, frames) }
    for field in stream.split(separator: ",") {
      let words = field.split(separator: " ")
      guard let first = words.first else { continue }
      let sides = first.split(separator: "x")
      if sides.count == 2, let w = Int(sides[0]), let h = Int(sides[1]) { return ((w, h), frames) }
    }
    return (nil, frames)
  }
}
