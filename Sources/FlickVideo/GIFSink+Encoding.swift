import FlickMotion
import Foundation

extension GIFSink {
  /// A GIF's encoding pass: one ffmpeg reading every frame back from the spool, the one already
  /// running when it reads the palette first (started with the sink, or to take the palette),
  /// else started now. (ffmpeg's `paletteuse` and GIF encoder are one thread each; several
  /// processes on parts of the frames would each carry a colour cache of 90–180 MiB,
  /// docs/design.md.) `step` hears of each frame sent.
  func encodeWhole(_ spool: FrameSpool, reporting step: (RenderProgress.Step) -> Void) throws {
    let process = try runningEncoder()
    let (destination, frames) = (self.destination, spool.frameCount)
    step(.encodingGIF(destination: destination, frame: 0, frames: frames))
    if let error = spool.send(
      to: process, stallTimeout: stallTimeout, destination: destination,
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

  /// The encoding pass's ffmpeg: the one running, else one started now (the sink is aborted if
  /// it cannot start).
  func runningEncoder() throws(VideoError) -> FFmpegProcess {
    if let encoder { return encoder }
    let process = try abortingOnFailure { () throws(VideoError) in
      try file.launch(ffmpeg, command.arguments, files: [file.path])
    }
    encoder = process
    return process
  }
}
