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
  /// stream (the one the join takes from each chunk) decodes as H.264 video to its end without an
  /// error (`-xerror`), every frame is the plan's size in 8-bit 4:2:0, and it holds exactly the
  /// frames of its chunk job. The size is the plan's made even, as ffmpeg pads an MP4 with odd
  /// sides (``FlickVideo/FFmpegCommand/mp4Size(width:height:)``, `pad`). An ffmpeg that makes no
  /// progress for `stallTimeout` seconds is stopped.
  ///
  /// Nothing printed from the chunk is trusted: a chunk's metadata is printed in ffmpeg's log
  /// verbatim, new lines and all, so a log line can be forged by the file it describes. ffmpeg
  /// itself refuses a frame of another size (``sizeCheck(width:height:)``) or of more pixels
  /// than the plan's (`-max_pixels`, before the frame is allocated), and the facts read are the
  /// `framecrc` lines it writes for each frame, which hold numbers only (``frameFacts(_:streams:)``).
  ///
  /// Chunks are checked ``videoGroup(width:height:)`` at a time by one ffmpeg; a group with any
  /// error, stall or fact that is not the plan's is checked again a chunk at a time, which names
  /// the chunk at fault as a check of it alone does.
  ///
  /// - Parameter maximumPixels: The pixel cap (`--max-pixels`) of the one-frame decode that
  ///   finds a refused chunk's size for its message.
  /// - Throws: ``BatchError/invalidInput(_:)`` naming the chunk file and what was expected,
  ///   ``BatchError/environment(_:)`` when ffmpeg cannot run or makes no progress.
  static func verifyVideo(
    _ merge: BatchPlan.Merge, ffmpeg: String, stallTimeout: Double, maximumPixels: Int
  ) throws(BatchError) {
    let chunks = merge.chunks.flatMap { chunk in
      chunk.targets.filter { $0.format == .mp4 }.map {
        VideoChunk(path: OutputEntry.entry($0.path), frames: chunk.frames.count)
      }
    }
    let sides = FFmpegCommand.mp4Size(width: merge.width, height: merge.height)
    let check = VideoCheck(
      name: merge.spec.name, width: sides.width, height: sides.height, ffmpeg: ffmpeg, stallTimeout: stallTimeout,
      maximumPixels: maximumPixels)
    let size = videoGroup(width: merge.width, height: merge.height)
    var next = 0
    while next < chunks.count {
      let group = Array(chunks[next..<min(chunks.count, next + size)])
      next += group.count
      if group.count > 1, case .checked(let facts) = try check.run(group), check.holds(facts, for: group) { continue }
      for chunk in group { try check.alone(chunk) }
    }
  }

  /// An MP4 chunk file and the frames its chunk job rendered.
  struct VideoChunk {
    var path: String
    var frames: Int
  }

  /// What the `framecrc` lines say of one decoded stream.
  struct FrameFacts: Equatable {
    /// The frames decoded.
    var frames = 0
    /// Whether every frame's 2 × 2 corner took 6 bytes, as 8-bit 4:2:0 does.
    var allFourTwoZero = true
  }

  /// Per stream, from ffmpeg's `framecrc` output (`#` header lines, then one line per frame:
  /// `stream, dts, pts, duration, size, checksum`): the frames and whether each frame's size was
  /// that of a 2 × 2 8-bit 4:2:0 picture. A line that is not six fields, or names a stream
  /// outside `0..<streams`, makes the whole answer nil.
  static func frameFacts(_ text: String, streams: Int) -> [FrameFacts]? {
    var facts = [FrameFacts](repeating: FrameFacts(), count: streams)
    for line in text.split(separator: "\n") where !line.hasPrefix("#") {
      let fields = line.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
      guard fields.count == 6, let stream = Int(fields[0]), facts.indices.contains(stream), let bytes = Int(fields[4])
      else { return nil }
      facts[stream].frames += 1
      if bytes != 6 { facts[stream].allFourTwoZero = false }
    }
    return facts
  }

  /// The video filter that makes ffmpeg refuse a frame that is not `width × height`: a crop to
  /// the plan's size of a frame of another size is a crop to 0, which fails the filter (once at
  /// the first frame, and again when a later frame changes size), then a crop to its 2 × 2
  /// corner, so that `framecrc` hashes 6 bytes a frame.
  static func sizeCheck(width: Int, height: Int) -> String {
    "crop=w=if(eq(iw\\,\(width))\\,\(width)\\,0):h=if(eq(ih\\,\(height))\\,\(height)\\,0):x=0:y=0,crop=2:2:0:0"
  }
}

/// One merge's MP4 chunk checks (``ChunkVerifier/verifyVideo(_:ffmpeg:stallTimeout:maximumPixels:)``).
private struct VideoCheck {
  /// The clip's name, for messages.
  let name: String
  /// The size of every frame of every chunk.
  let width: Int
  let height: Int
  let ffmpeg: String
  let stallTimeout: Double
  let maximumPixels: Int
  /// The demuxer every chunk is read with.
  var mp4: String { OutputFormat.mp4.ffmpegDemuxer }

  /// How one ffmpeg over some chunks ended.
  enum Outcome {
    /// It decoded every chunk to its end: the facts of each, in order.
    case checked([ChunkVerifier.FrameFacts])
    /// It exited with an error, or wrote what is not `framecrc` lines.
    case failed
    /// It made no progress for the stall timeout, and was stopped.
    case stalled
  }

  /// Decodes the first stream of each chunk of `chunks` with one ffmpeg, each held to the
  /// plan's size (``ChunkVerifier/sizeCheck(width:height:)``) and to one frame more than its job's.
  ///
  /// - Throws: ``BatchError/environment(_:)`` when ffmpeg cannot start.
  func run(_ chunks: [ChunkVerifier.VideoChunk]) throws(BatchError) -> Outcome {
    let cap = String(FFmpegCommand.decoderPixels(width: width, height: height))
    var arguments = ["-hide_banner", "-nostdin", "-xerror", "-v", "error"]
    // Each chunk is read as an MP4 (its format named, not guessed: a chunk that is an ffconcat
    // list would have ffmpeg read the files it names) through a `file:` URL.
    for chunk in chunks {
      arguments += ["-max_pixels", cap, "-f", mp4, "-c:v", "h264", "-i", OutputFormat.ffmpegFile(chunk.path)]
    }
    let check = ChunkVerifier.sizeCheck(width: width, height: height)
    for (index, chunk) in chunks.enumerated() {
      arguments += [
        "-map", "\(index):0", "-filter:\(index)", check, "-frames:\(index)", String(chunk.frames + 1),
      ]
    }
    arguments += ["-f", "framecrc", "-"]
    // About 60 bytes a frame line: all of them are kept.
    let lines = chunks.reduce(16 * chunks.count) { $0 + $1.frames + 1 }
    let process: Subprocess
    do {
      process = try Subprocess(executable: ffmpeg, arguments: arguments, output: .pipe, error: .null, keep: 96 * lines)
    } catch {
      guard chunks.count > 1 else {
        throw .environment("cannot check the chunk \(quoted: chunks[0].path): \(escaped: error.description)")
      }
      throw .environment("cannot check the MP4 chunks of \(quoted: name): \(escaped: error.description)")
    }
    guard let ending = process.waitOrStop(stall: stallTimeout) else { return .stalled }
    guard ending == .exited(0), let facts = ChunkVerifier.frameFacts(process.outputText, streams: chunks.count)
    else { return .failed }
    return .checked(facts)
  }

  /// Whether `facts` are the plan's for each chunk of `chunks`.
  func holds(_ facts: [ChunkVerifier.FrameFacts], for chunks: [ChunkVerifier.VideoChunk]) -> Bool {
    facts.count == chunks.count && zip(facts, chunks).allSatisfy { $0.allFourTwoZero && $0.frames == $1.frames }
  }

  /// Checks one chunk with an ffmpeg of its own, naming it and what it is when it is not the plan's.
  func alone(_ chunk: ChunkVerifier.VideoChunk) throws(BatchError) {
    let path = chunk.path
    let expected = "an H.264 stream of \(width)×\(height) pixels with \(chunk.frames) frames"
    switch try run([chunk]) {
    case .stalled:
      throw .environment("ffmpeg made no progress checking the chunk \(quoted: path); stopped it")
    case .checked(let facts) where holds(facts, for: [chunk]):
      return
    case .checked(let facts) where !facts[0].allFourTwoZero:
      throw .invalidInput(
        "\(quoted: name): chunk \(quoted: path) is not 8-bit 4:2:0 (yuv420p); expected \(quoted: expected)")
    case .checked(let facts):
      let frames = facts[0].frames
      throw .invalidInput(
        "\(quoted: name): chunk \(quoted: path) is \(width)×\(height) with \(frames) frames; "
          + "expected \(quoted: expected)")
    case .failed:
      guard let size = firstFrameSize(path), size != (width, height) else {
        throw .invalidInput("\(quoted: name): chunk \(quoted: path) does not decode; expected \(quoted: expected)")
      }
      throw .invalidInput(
        "\(quoted: name): chunk \(quoted: path) is \(size.width)×\(size.height); expected \(quoted: expected)")
    }
  }

  /// The size of a chunk's first frame, for the message of a chunk refused: from the `framecrc`
  /// header of a decode of that one frame, under the pixel cap; nil when it does not decode.
  private func firstFrameSize(_ path: String) -> (width: Int, height: Int)? {
    let arguments = [
      "-hide_banner", "-nostdin", "-xerror", "-v", "error", "-max_pixels", String(maximumPixels), "-f", mp4,
      "-c:v", "h264", "-i", OutputFormat.ffmpegFile(path), "-map", "0:0", "-frames:v", "1", "-f", "framecrc", "-",
    ]
    guard let process = try? Subprocess(executable: ffmpeg, arguments: arguments, output: .pipe, error: .null),
      process.waitOrStop(stall: stallTimeout) == .exited(0),
      let line = process.outputText.split(separator: "\n").first(where: { $0.hasPrefix("#dimensions 0: ") })
    else { return nil }
    let sides = line.dropFirst("#dimensions 0: ".count).split(separator: "x").compactMap { Int($0) }
    return sides.count == 2 ? (sides[0], sides[1]) : nil
  }
}
