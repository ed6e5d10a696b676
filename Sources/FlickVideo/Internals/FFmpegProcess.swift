import FlickMotion
import Foundation

/// One running ffmpeg: frames go to its standard input through a 1 MiB pipe, its stderr is
/// drained and the last 64 KiB kept for messages; it runs as a ``Subprocess`` (a process group
/// of its own, registered with ``Cleanup`` with the temporary files it writes from before it can
/// run until it has been reaped). ``FFmpegSink`` runs one; ``GIFSink`` one at a time, or one per part of a
/// GIF's encoding pass.
final class FFmpegProcess {
  /// The output named in errors (the destination the user asked for).
  let output: String
  private let process: Subprocess
  /// Frames handed to ffmpeg by reference and not yet read (``write(frame:stallTimeout:)``).
  private var spliced = SplicedFrames()

  /// Starts `executable` with `arguments`, registering `files` as temporary first (atomically
  /// with the launch, so an interruption sees both or neither).
  ///
  /// - Throws: ``VideoError/launchFailed(_:)``.
  init(executable: String, arguments: [String], files: [String], output: String) throws(VideoError) {
    self.output = output
    process = try Subprocess(
      executable: executable, arguments: arguments, input: .pipe, output: .null, error: .pipe, files: files)
    PipeWriter.enlarge(process.inputDescriptor)
  }

  deinit { kill() }

  /// The last lines ffmpeg wrote to stderr.
  var stderrText: String { process.errorText }

  /// Writes `bytes` whole to ffmpeg's input.
  ///
  /// - Parameter stallTimeout: Seconds ffmpeg (its process group) may take nothing and use no
  ///   CPU (nil: block).
  /// - Returns: nil, or the error that stops the output: ffmpeg stuck, dead (its exit status
  ///   and stderr) or the pipe broken. The process is then reaped (its group killed if it
  ///   stalled).
  func write(_ bytes: UnsafeRawBufferPointer, stallTimeout: Double?) -> VideoError? {
    failure(process.writeInput(bytes, stallTimeout: stallTimeout), stallTimeout: stallTimeout)
  }

  /// Hands one frame whole to ffmpeg's input by reference, without copying it into the pipe
  /// (``Subprocess/spliceInput(_:keepingIn:stallTimeout:)``): the array is kept until ffmpeg has
  /// read it, and when this returns ffmpeg has read every frame before it. Errors as
  /// ``write(_:stallTimeout:)``.
  func write(frame bytes: [UInt8], stallTimeout: Double?) -> VideoError? {
    failure(process.spliceInput(bytes, keepingIn: &spliced, stallTimeout: stallTimeout), stallTimeout: stallTimeout)
  }

  /// The error a failed write is, after reaping ffmpeg (nil when the write succeeded).
  private func failure(_ failure: PipeWriter.Failure?, stallTimeout: Double?) -> VideoError? {
    switch failure {
    case nil: return nil
    case .stalled: return .encoderStalled(output: output, seconds: stallTimeout ?? 0)
    case .error(let reason):
      process.closeInput()
      guard let ending = process.wait(stall: stallTimeout) else {
        kill()
        return .encoderStalled(output: output, seconds: stallTimeout ?? 0)
      }
      spliced.removeAll()
      return exitError(ending) ?? .pipeFailed(output: output, reason: reason)
    }
  }

  /// Closes ffmpeg's input and waits for it to exit.
  ///
  /// - Parameter stallTimeout: Seconds ffmpeg's group may go without using CPU before it is
  ///   declared stuck (nil: wait however long it takes).
  /// - Returns: nil when it exited with status 0 without reporting a write error
  ///   (``ContainerCheck/reportsWriteError(_:)``), or why not.
  func finish(stallTimeout: Double?) -> VideoError? {
    process.closeInput()
    guard let ending = process.wait(stall: stallTimeout) else {
      return .encoderStalled(output: output, seconds: stallTimeout ?? 0)
    }
    spliced.removeAll()
    return exitError(ending)
  }

  /// Stops ffmpeg and its process group (SIGKILL) if it still runs, and reaps it; idempotent.
  func kill() {
    process.closeInput()
    process.stop()
    spliced.removeAll()
  }

  /// Frames handed over by reference that ffmpeg may not have read yet (tests).
  var framesInPipe: Int { spliced.count }

  /// The failure an ending is (nil for exit status 0 without a reported write error).
  private func exitError(_ ending: Subprocess.Ending) -> VideoError? {
    switch ending {
    case .signalled(let signal):
      return .ffmpegKilled(output: output, signal: signal, stderr: stderrText)
    case .exited(let status) where status != 0:
      return .ffmpegFailed(output: output, status: status, stderr: stderrText)
    case .exited:
      let text = stderrText
      return ContainerCheck.reportsWriteError(text) ? .ffmpegFailed(output: output, status: 0, stderr: text) : nil
    }
  }
}
