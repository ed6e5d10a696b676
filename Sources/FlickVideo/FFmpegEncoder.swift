import FlickRaster
import Foundation

/// Streams frames into an ffmpeg subprocess that encodes one output file.
///
/// ffmpeg writes to a temporary file beside the destination; ``finish()`` renames it into place
/// only when ffmpeg succeeds, and ``cancel()`` (or any failure) removes it, so the destination is
/// either the complete new file or untouched. ffmpeg's stderr is drained concurrently (it can
/// be large) and kept for error messages.
public final class FFmpegEncoder: @unchecked Sendable {
  /// The destination path.
  public let output: String
  /// The encoded format.
  public let format: OutputFormat
  private let process = Process()
  private let stdinPipe = Pipe()
  private let stderrPipe = Pipe()
  private let temporaryPath: String
  private let stderrDone = DispatchSemaphore(value: 0)
  private let lock = NSLock()
  private var stderrData = Data()
  private var finished = false

  /// Starts ffmpeg for frames of `width × height` pixels at `fps`.
  ///
  /// - Throws: ``VideoError`` when ffmpeg is missing, cannot start, or the size cannot be encoded.
  public init(output: String, format: OutputFormat, width: Int, height: Int, fps: Int) throws(VideoError) {
    _ = PipeWriter.ignoreSIGPIPE
    if format == .mp4 && (width % 2 != 0 || height % 2 != 0) {
      throw .invalidSize(
        width: width, height: height,
        reason: "H.264 in yuv420p needs even sides; use \(width + width % 2)×\(height + height % 2)")
    }
    guard let ffmpeg = Self.findExecutable("ffmpeg") else { throw .ffmpegMissing }
    self.output = output
    self.format = format
    let url = URL(fileURLWithPath: output)
    let directory = url.deletingLastPathComponent().path
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
      throw .cannotWrite(path: output, reason: "the folder \(directory) does not exist")
    }
    temporaryPath = url.deletingLastPathComponent()
      .appendingPathComponent(".\(url.lastPathComponent).\(getpid()).partial").path

    process.executableURL = URL(fileURLWithPath: ffmpeg)
    process.arguments = Self.arguments(format: format, width: width, height: height, fps: fps, output: temporaryPath)
    process.standardInput = stdinPipe
    process.standardOutput = FileHandle.nullDevice
    process.standardError = stderrPipe
    do {
      try process.run()
    } catch {
      throw .launchFailed(error.localizedDescription)
    }
    PipeWriter.enlarge(stdinPipe.fileHandleForWriting.fileDescriptor)
    let handle = stderrPipe.fileHandleForReading
    DispatchQueue.global().async { [self] in
      while true {
        let chunk = handle.availableData
        if chunk.isEmpty { break }
        lock.withLock { stderrData.append(chunk) }
      }
      stderrDone.signal()
    }
  }

  deinit {
    if !finished { cancel() }
  }

  /// The ffmpeg arguments for one output (input is raw BGRA on stdin).
  static func arguments(format: OutputFormat, width: Int, height: Int, fps: Int, output: String) -> [String] {
    var args = [
      "-hide_banner", "-loglevel", "error", "-y",
      "-f", "rawvideo", "-pix_fmt", "bgra", "-s", "\(width)x\(height)", "-framerate", "\(fps)",
      "-i", "pipe:0",
    ]
    switch format {
    case .mp4:
      args += [
        "-vf", "scale=out_color_matrix=bt709:out_range=tv,format=yuv420p",
        "-c:v", "libx264", "-preset", "veryfast", "-crf", "18",
        "-color_primaries", "bt709", "-color_trc", "bt709", "-colorspace", "bt709", "-color_range", "tv",
        "-movflags", "+faststart", "-f", "mp4", output,
      ]
    case .gif:
      args += [
        "-filter_complex", "[0:v]split[a][b];[a]palettegen=stats_mode=diff[p];[b][p]paletteuse=dither=sierra2_4a",
        "-loop", "0", "-f", "gif", output,
      ]
    }
    return args
  }

  /// Sends one frame (its size must match the encoder's).
  ///
  /// - Throws: ``VideoError/pipeFailed(output:reason:)`` or, when ffmpeg has died,
  ///   ``VideoError/ffmpegFailed(output:status:stderr:)``.
  public func write(_ frame: Frame) throws(VideoError) {
    let fd = stdinPipe.fileHandleForWriting.fileDescriptor
    let failure: String? = frame.packedPixels.withUnsafeBytes { PipeWriter.writeAll(fd, $0) }
    if let failure {
      let error = collectFailure(reason: failure)
      cancel()
      throw error
    }
  }

  /// Closes ffmpeg's input, waits for it, and moves the file into place.
  ///
  /// - Throws: ``VideoError`` if ffmpeg failed; the destination is then untouched.
  public func finish() throws(VideoError) {
    try? stdinPipe.fileHandleForWriting.close()
    process.waitUntilExit()
    stderrDone.wait()
    finished = true
    guard process.terminationReason == .exit, process.terminationStatus == 0 else {
      unlink(temporaryPath)
      throw .ffmpegFailed(output: output, status: process.terminationStatus, stderr: stderrText)
    }
    guard rename(temporaryPath, output) == 0 else {
      let reason = String(cString: strerror(errno))
      unlink(temporaryPath)
      throw .cannotWrite(path: output, reason: reason)
    }
  }

  /// Stops ffmpeg and removes the temporary file; the destination is left as it was.
  public func cancel() {
    guard !finished else { return }
    finished = true
    try? stdinPipe.fileHandleForWriting.close()
    if process.isRunning { process.terminate() }
    process.waitUntilExit()
    unlink(temporaryPath)
  }

  private var stderrText: String {
    lock.withLock { String(decoding: stderrData, as: UTF8.self) }
  }

  private func collectFailure(reason: String) -> VideoError {
    try? stdinPipe.fileHandleForWriting.close()
    process.waitUntilExit()
    stderrDone.wait()
    if process.terminationStatus != 0 || process.terminationReason != .exit {
      return .ffmpegFailed(output: output, status: process.terminationStatus, stderr: stderrText)
    }
    return .pipeFailed(output: output, reason: reason)
  }

  /// The full path of `name` on `PATH`, or nil.
  static func findExecutable(_ name: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for dir in path.split(separator: ":") {
      let candidate = "\(dir)/\(name)"
      if access(candidate, X_OK) == 0 { return candidate }
    }
    return nil
  }
}
