import FlickMotion
import Foundation

/// One running ffmpeg: frames go to its standard input through a 1 MiB pipe, its stderr is
/// drained on a thread of its own and the last 64 KiB kept for messages, and it is registered
/// with ``Cleanup`` (with the temporary files it writes) from before it can run until it has
/// been waited for. ``FFmpegEncoder`` runs one at a time, or one per part of a GIF's
/// encoding pass.
final class FFmpegProcess {
  /// The output named in errors (the destination the user asked for).
  let output: String
  private let process = Process()
  private let stdinPipe = Pipe()
  private let stderrDone = DispatchSemaphore(value: 0)
  private let stderrBuffer = StderrBuffer()
  private var waited = false

  /// Starts `executable` with `arguments`, registering `files` as temporary first (atomically
  /// with the launch, so an interruption sees both or neither).
  ///
  /// - Throws: ``VideoError/launchFailed(_:)``.
  init(executable: String, arguments: [String], files: [String], output: String) throws(VideoError) {
    self.output = output
    let stderrPipe = Pipe()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.standardInput = stdinPipe
    process.standardOutput = FileHandle.nullDevice
    process.standardError = stderrPipe
    let process = self.process
    let launchError: String? = Cleanup.shared.locked {
      for file in files { Cleanup.shared.add(file: file) }
      do {
        try process.run()
      } catch {
        for file in files { Cleanup.shared.remove(file: file) }
        return error.localizedDescription
      }
      Cleanup.shared.add(process: process.processIdentifier)
      return nil
    }
    if let launchError {
      waited = true
      throw .launchFailed(launchError)
    }
    PipeWriter.enlarge(stdinPipe.fileHandleForWriting.fileDescriptor)
    let handle = stderrPipe.fileHandleForReading
    let buffer = stderrBuffer
    let done = stderrDone
    Thread.detachNewThread {
      while true {
        let chunk = handle.availableData
        if chunk.isEmpty { break }
        buffer.append(chunk)
      }
      done.signal()
    }
  }

  deinit { kill() }

  /// The last lines ffmpeg wrote to stderr.
  var stderrText: String { stderrBuffer.text }

  /// Writes `bytes` whole to ffmpeg's input.
  ///
  /// - Parameter stallTimeout: Seconds ffmpeg may take nothing and use no CPU (nil: block).
  /// - Returns: nil, or the error that stops the output: ffmpeg stuck, dead (its exit status
  ///   and stderr) or the pipe broken. The process is then waited for but not killed.
  func write(_ bytes: UnsafeRawBufferPointer, stallTimeout: Double?) -> VideoError? {
    let pid = process.processIdentifier
    let failure = PipeWriter.writeAll(stdinPipe.fileHandleForWriting.fileDescriptor, bytes, stallTimeout: stallTimeout) {
      PipeWriter.cpuTicks(of: pid)
    }
    switch failure {
    case nil: return nil
    case .stalled: return .encoderStalled(output: output, seconds: stallTimeout ?? 0)
    case .error(let reason): return waitForFailure(reason: reason)
    }
  }

  /// Closes ffmpeg's input and waits for it to exit.
  ///
  /// - Parameter stallTimeout: Seconds ffmpeg may go without using CPU before it is declared
  ///   stuck (nil: wait however long it takes).
  /// - Returns: nil when it exited with status 0, or why not.
  func finish(stallTimeout: Double?) -> VideoError? {
    try? stdinPipe.fileHandleForWriting.close()
    if let stallTimeout, !waitWhileProgressing(stallTimeout) {
      return .encoderStalled(output: output, seconds: stallTimeout)
    }
    reap()
    return exitError()
  }

  /// Stops ffmpeg (SIGKILL) if it still runs, and waits for it; idempotent.
  func kill() {
    try? stdinPipe.fileHandleForWriting.close()
    guard !waited else { return }
    if process.isRunning { Glibc.kill(process.processIdentifier, SIGKILL) }
    reap()
  }

  /// Waits for the exit and the end of stderr, and unregisters the process.
  private func reap() {
    guard !waited else { return }
    process.waitUntilExit()
    stderrDone.wait()
    Cleanup.shared.remove(process: process.processIdentifier)
    waited = true
  }

  /// Waits for ffmpeg to exit while it keeps using CPU; false when it used none for `timeout`
  /// seconds (stopped, or blocked on something that never comes).
  private func waitWhileProgressing(_ timeout: Double) -> Bool {
    let pid = process.processIdentifier
    var last = PipeWriter.cpuTicks(of: pid)
    var since = Stopwatch()
    var checked = Stopwatch()
    while process.isRunning {
      usleep(2000)
      guard checked.seconds >= 0.5 else { continue }
      checked = Stopwatch()
      let now = PipeWriter.cpuTicks(of: pid)
      if now != last {
        last = now
        since = Stopwatch()
      } else if since.seconds >= timeout {
        return false
      }
    }
    return true
  }

  private func exitError() -> VideoError? {
    switch process.terminationReason {
    case .uncaughtSignal:
      return .ffmpegKilled(output: output, signal: process.terminationStatus, stderr: stderrText)
    case .exit where process.terminationStatus != 0:
      return .ffmpegFailed(output: output, status: process.terminationStatus, stderr: stderrText)
    default:
      return nil
    }
  }

  /// After a failed write: ffmpeg's own failure when it has one, else the pipe's.
  private func waitForFailure(reason: String) -> VideoError {
    try? stdinPipe.fileHandleForWriting.close()
    reap()
    return exitError() ?? .pipeFailed(output: output, reason: reason)
  }
}

/// ffmpeg's stderr, appended by the draining thread and read by the owner; keeps the last 64 KiB.
private final class StderrBuffer: Sendable {
  private let data = Locked(Data())

  func append(_ chunk: Data) {
    data.withLock { data in
      data.append(chunk)
      if data.count > 65536 { data.removeFirst(data.count - 65536) }
    }
  }

  var text: String { data.withLock { String(decoding: $0, as: UTF8.self) } }
}
