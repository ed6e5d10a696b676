import FlickMotion
import Foundation

extension GIFSink {
  /// A GIF's encoding pass: one ffmpeg reading every frame back from the spool. (ffmpeg's
  /// `paletteuse` and GIF encoder are one thread each; several processes on parts of the frames
  /// would each carry a colour cache of 90–180 MiB, docs/design.md.)
  /// `step` hears of each frame sent.
  func encodeWhole(_ spool: FrameSpool, reporting step: (RenderProgress.Step) -> Void) throws {
    let process = try abortingOnFailure { try file.launch(ffmpeg, command.arguments, files: [file.path]) }
    encoder = process
    let (destination, frames) = (self.destination, spool.frameCount)
    step(.encodingGIF(destination: destination, frame: 0, frames: frames))
    if let error = Self.replay(
      spool, into: process, stallTimeout: stallTimeout, destination: destination,
      sent: { step(.encodingGIF(destination: destination, frame: $0, frames: frames)) })
    {
      abort()
      throw error
    }
    encoder = nil
    if let error = process.finish(stallTimeout: stallTimeout) {
      abort()
      throw error
    }
  }

  /// Writes the spooled frames to `process`, only those whose entry in `keeps` (indexed by
  /// spooled frame) is true when given, calling `sent` with the number of spooled frames done
  /// after each; nil, or why they did not all go.
  static func replay(
    _ spool: FrameSpool, keeping keeps: [Bool]? = nil, into process: FFmpegProcess,
    stallTimeout: Double?, destination: String, sent: (Int) -> Void = { _ in }
  ) -> VideoError? {
    var writeError: VideoError?
    var index = 0
    guard
      let failure = spool.replay(
        { frame in
          defer {
            index += 1
            sent(index)
          }
          if let keeps, !keeps[index] { return nil }
          writeError = process.write(frame, stallTimeout: stallTimeout)
          return writeError?.description
        })
    else { return nil }
    return writeError ?? .cannotWrite(path: destination, reason: "cannot read the frames back: \(escaped: failure)")
  }
}
