import FlickMotion
import FlickTemplates
import FlickVideo
import Foundation

extension ChunkVerifier {
  /// Checks every MP4 chunk of `merge` with `ffmpeg` before the chunks are joined: its first
  /// video stream has the plan's frame size, it decodes to the end without an error (`-xerror`),
  /// and it holds exactly the frames of its chunk job. An ffmpeg that makes no progress for
  /// `stallTimeout` seconds is stopped.
  ///
  /// - Throws: ``BatchError/invalidInput(_:)`` naming the chunk file and what was expected,
  ///   ``BatchError/environment(_:)`` when ffmpeg cannot run.
  static func verifyVideo(_ merge: BatchPlan.Merge, ffmpeg: String, stallTimeout: Double) throws(BatchError) {
    for chunk in merge.chunks {
      for target in chunk.targets where target.format == .mp4 {
        let path = OutputEntry.entry(target.path)
        let expected = "an H.264 stream of \(merge.width)×\(merge.height) pixels with \(chunk.frames.count) frames"
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
        guard size == (merge.width, merge.height), found.frames == chunk.frames.count else {
          throw .invalidInput(
            "\(quoted: merge.spec.name): chunk \(quoted: path) is \(size.width)×\(size.height) with "
              + "\(found.frames ?? 0) frames; expected \(quoted: expected)")
        }
      }
    }
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
