import Foundation

/// Measures how fast frames cross the pipe into ffmpeg, the way the encoders' frames do (1 MiB
/// pipe, whole frames handed over by reference where the system can, ``SplicedFrames``), into
/// `ffmpeg -f null` so encoding costs nothing.
///
/// A benchmark helper (`flick render --measure-pipe WxH`); it reads the monotonic clock, which
/// the render path never does.
package enum PipeThroughput {
  /// Streams `frames` copies of a `width × height` BGRA frame into ffmpeg's null muxer.
  ///
  /// - Returns: Bytes per second, measured from the first write to ffmpeg's exit.
  /// - Throws: ``VideoError`` when ffmpeg cannot start or fails.
  package static func measure(ffmpeg: FFmpegTool, width: Int, height: Int, frames: Int) throws -> Double {
    _ = PipeWriter.ignoreSIGPIPE
    let process = try Subprocess(
      executable: ffmpeg.path,
      arguments: [
        "-hide_banner", "-nostdin", "-loglevel", "error", "-f", "rawvideo", "-pix_fmt", "bgra",
        "-s", "\(width)x\(height)", "-framerate", "60", "-i", "pipe:0", "-f", "null", "-",
      ], input: .pipe)
    PipeWriter.enlarge(process.inputDescriptor)
    var frame = [UInt8](repeating: 0, count: width * height * 4)
    for i in stride(from: 0, to: frame.count, by: 4) {
      frame[i] = UInt8(truncatingIfNeeded: i >> 4)
      frame[i + 1] = UInt8(truncatingIfNeeded: i >> 10)
      frame[i + 3] = 255
    }
    var inPipe = SplicedFrames()
    let start = DispatchTime.now().uptimeNanoseconds
    for _ in 0..<frames {
      if let failure = process.spliceInput(frame, keepingIn: &inPipe, stallTimeout: nil) {
        process.stop()
        throw VideoError.pipeFailed(output: "ffmpeg -f null", reason: failure.description)
      }
    }
    process.closeInput()
    let ending = process.wait()
    inPipe.removeAll()
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    guard ending == .exited(0) else {
      let status: Int32 = if case .exited(let s)? = ending { s } else { -1 }
      throw VideoError.ffmpegFailed(output: "ffmpeg -f null", status: status, stderr: "")
    }
    return Double(frames * frame.count) / seconds
  }
}
