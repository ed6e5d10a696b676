import Foundation

/// Measures how fast frames cross the pipe into ffmpeg, with the same writer the encoders use
/// (1 MiB pipe, whole-frame writes), into `ffmpeg -f null` so encoding costs nothing.
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
    let process = Process()
    process.executableURL = URL(fileURLWithPath: ffmpeg.path)
    process.arguments = [
      "-hide_banner", "-nostdin", "-loglevel", "error", "-f", "rawvideo", "-pix_fmt", "bgra",
      "-s", "\(width)x\(height)", "-framerate", "60", "-i", "pipe:0", "-f", "null", "-",
    ]
    let input = Pipe()
    process.standardInput = input
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    do {
      try process.run()
    } catch {
      throw VideoError.launchFailed(error.localizedDescription)
    }
    let fd = input.fileHandleForWriting.fileDescriptor
    PipeWriter.enlarge(fd)
    var frame = [UInt8](repeating: 0, count: width * height * 4)
    for i in stride(from: 0, to: frame.count, by: 4) {
      frame[i] = UInt8(truncatingIfNeeded: i >> 4)
      frame[i + 1] = UInt8(truncatingIfNeeded: i >> 10)
      frame[i + 3] = 255
    }
    let start = DispatchTime.now().uptimeNanoseconds
    for _ in 0..<frames {
      if let failure = frame.withUnsafeBytes({ PipeWriter.writeAll(fd, $0) }) {
        process.terminate()
        process.waitUntilExit()
        throw VideoError.pipeFailed(output: "ffmpeg -f null", reason: failure.description)
      }
    }
    try? input.fileHandleForWriting.close()
    process.waitUntilExit()
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    guard process.terminationReason == .exit, process.terminationStatus == 0 else {
      throw VideoError.ffmpegFailed(output: "ffmpeg -f null", status: process.terminationStatus, stderr: "")
    }
    return Double(frames * frame.count) / seconds
  }
}
