import FlickMotion
import Foundation

extension GIFSink {
  /// A GIF's encoding pass in one ffmpeg, reading every frame back from the spool.
  func encodeWhole(_ spool: FrameSpool) throws {
    let process = try abortingOnFailure { try file.launch(ffmpeg, command.arguments, files: [file.path]) }
    encoders = [process]
    if let error = Self.replay(spool, frames: nil, into: process, stallTimeout: stallTimeout, destination: destination)
    {
      abort()
      throw error
    }
    encoders = []
    if let error = process.finish(stallTimeout: stallTimeout) {
      abort()
      throw error
    }
  }

  /// Writes the spooled `frames` (all when nil) to `process`, only those whose entry in `keeps`
  /// (indexed by spooled frame) is true when given; nil, or why they did not all go.
  static func replay(
    _ spool: FrameSpool, frames: Range<Int>?, keeping keeps: [Bool]? = nil, into process: FFmpegProcess,
    stallTimeout: Double?, destination: String
  ) -> VideoError? {
    var writeError: VideoError?
    var index = frames?.lowerBound ?? 0
    guard
      let failure = spool.replay(
        frames: frames,
        { frame in
          defer { index += 1 }
          if let keeps, !keeps[index] { return nil }
          writeError = process.write(frame, stallTimeout: stallTimeout)
          return writeError?.description
        })
    else { return nil }
    return writeError ?? .cannotWrite(path: destination, reason: "cannot read the frames back: \(escaped: failure)")
  }

  /// A GIF's encoding pass in `count` ffmpeg processes at once, each encoding a run of the
  /// frames with the frame before and the frame after it (``GIFStitcher/frames(ofPart:starts:frames:)``;
  /// the encoder is one thread, so on `count` cores the pass takes about `1 / count` as long),
  /// joined by ``GIFStitcher`` into the file one process makes. Parts that do not join (a
  /// structure the stitcher does not expect) are encoded again in one process.
  func encodeInParts(_ count: Int, _ spool: FrameSpool, _ pass: FFmpegCommand.GIFEncodingPass) throws {
    let frames = spool.frameCount
    let starts = (0..<count).map { $0 * frames / count }
    let ranges = (0..<count).map { GIFStitcher.frames(ofPart: $0, starts: starts, frames: frames) }
    let paths = (1...count).map { file.partial("part\($0).gif") }
    defer { for path in paths { EncodedFile.discard(path) } }
    do {
      for (path, range) in zip(paths, ranges) {
        encoders.append(try file.launch(ffmpeg, pass.arguments(from: range.lowerBound, output: path), files: [path]))
      }
    } catch {
      abort()
      throw error
    }
    StartupTrace.mark("GIF encoding parts started (\(count))")
    // Each part reads the spool on a thread of its own.
    let errors = Locked<[VideoError?]>(Array(repeating: nil, count: count))
    let parts = encoders
    let stallTimeout = self.stallTimeout
    let destination = self.destination
    // Safe to share: the spool's replays read with their own offsets and buffers, and part `i`'s
    // process is used by iteration `i` alone.
    nonisolated(unsafe) let shared = (spool: spool, parts: parts)
    DispatchQueue.concurrentPerform(iterations: count) { i in
      // A part that fails stops its own replay; the others go on to their ends (each part's
      // process is used by its own thread only) and all are waited for below.
      if let error = Self.replay(
        shared.spool, frames: ranges[i], into: shared.parts[i], stallTimeout: stallTimeout, destination: destination)
      {
        errors.withLock { $0[i] = error }
      }
    }
    var failure = errors.withLock { $0.compactMap { $0 }.first }
    for part in parts {
      let error = part.finish(stallTimeout: stallTimeout)
      if failure == nil { failure = error }
    }
    encoders = []
    StartupTrace.mark("GIF encoding parts finished")
    if let failure {
      abort()
      throw failure
    }
    do {
      try GIFStitcher.stitch(parts: paths, starts: starts, frames: frames, into: file.path)
      encodedParts = count
    } catch is GIFStitcher.Mismatch {
      try encodeWhole(spool)
    } catch {
      abort()
      throw VideoError.cannotWrite(path: destination, reason: "cannot join the GIF's parts: \(escaped: error)")
    }
  }
}
