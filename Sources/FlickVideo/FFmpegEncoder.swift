import FlickMotion
import FlickRaster
import Foundation

/// Streams frames into an ffmpeg subprocess that encodes one output file.
///
/// ffmpeg writes to a temporary file beside the destination (`.NAME.PID.partial`); ``finish()``
/// waits for ffmpeg and checks it succeeded, ``commit()`` renames the file into place, and
/// ``abort()`` (or any failure) stops ffmpeg and removes the temporary file, so the destination
/// is either the complete new file or untouched. Frames are written whole through a 1 MiB pipe
/// (retrying partial writes and EINTR); ffmpeg's stderr is drained concurrently and kept for
/// error messages.
///
/// A GIF takes two ffmpeg passes over one rasterisation: the frames go to an ffmpeg that makes
/// the palette (`.NAME.PID.palette.png`) and, losslessly, into a spool file beside the output
/// (`.NAME.PID.frames`, see ``FrameSpool``); ``finish()`` then replays the spool into the ffmpeg
/// that encodes with the palette. That second ffmpeg reads exactly the bytes the first did, so the
/// GIF is the one the two passes make from the frames; both temporary files are removed on every
/// exit path. See ``FFmpegCommand``.
final class FFmpegEncoder: FrameSink {
  /// The destination path.
  let destination: String
  /// The encoded format.
  let format: OutputFormat
  /// Frame rate of the encoded file (frames per second).
  let outputFPS: Int
  var wantsStraightAlpha: Bool { format.hasAlpha }
  var workerStep: (@Sendable (PreparedFrame) throws -> Void)? { nil }

  private var process = Process()
  private var stdinPipe = Pipe()
  private var stderrPipe = Pipe()
  private let temporaryPath: String
  private var stderrDone = DispatchSemaphore(value: 0)
  private var stderrBuffer = StderrBuffer()
  private var state = State.running
  private let frameBytes: Int
  private let command: FFmpegCommand
  private let ffmpeg: FFmpegTool
  /// Seconds ffmpeg may go without reading frames or using CPU before it is declared stuck.
  private let stallTimeout: Double?
  /// A GIF's frames, kept for the encoding pass.
  private var spool: FrameSpool?
  /// Whether a frame that repeats the one before is left out of the palette pass: `palettegen`
  /// counts only the pixels that differ from the frame before (`stats_mode=diff`), so such a
  /// frame adds nothing; only without an `fps` filter, whose choice of frames depends on their
  /// number.
  private let palettePassSkipsRepeats: Bool
  /// For a GIF or APNG that merges identical frames: whether each frame written repeats the one
  /// before (``PreparedFrame/repeatsPrevious``); nil for other outputs.
  private var repeats: [Bool]?
  /// The render's frame rate (a GIF's encoded rate may be lower).
  private let inputFPS: Int
  /// Where the merged GIF or APNG is written before it replaces ``temporaryPath``.
  private let mergedPath: String
  /// Images in the finished GIF or APNG when identical frames were merged (nil otherwise).
  package private(set) var mergedImages: Int?
  /// Why identical frames were not merged although some repeated (nil otherwise).
  package private(set) var unmergedReason: String?

  private enum State { case running, finished, committed, aborted }

  /// Starts ffmpeg for frames of `width × height` pixels at `fps`.
  ///
  /// - Throws: ``VideoError`` when the options do not fit the format, the destination folder
  ///   does not exist, or ffmpeg cannot start.
  init(
    destination: String, format: OutputFormat, width: Int, height: Int, fps: Int,
    options: EncodingOptions = EncodingOptions(), ffmpeg: FFmpegTool, stallTimeout: Double? = 120
  ) throws(VideoError) {
    _ = PipeWriter.ignoreSIGPIPE
    let url = URL(fileURLWithPath: destination)
    let directory = url.deletingLastPathComponent().path
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
      throw .cannotWrite(path: destination, reason: "the folder \(directory) does not exist")
    }
    var isDestinationDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: destination, isDirectory: &isDestinationDirectory),
      isDestinationDirectory.boolValue
    {
      throw .cannotWrite(path: destination, reason: "it is a folder")
    }
    let directoryURL = url.deletingLastPathComponent()
    let temporaryPath = directoryURL.appendingPathComponent(".\(url.lastPathComponent).\(getpid()).partial").path
    let palettePath = directoryURL.appendingPathComponent(".\(url.lastPathComponent).\(getpid()).palette.png").path
    let command = try FFmpegCommand(
      format: format, width: width, height: height, fps: fps, options: options, output: temporaryPath,
      palette: palettePath)
    self.destination = destination
    self.format = format
    self.outputFPS = command.outputFPS
    self.temporaryPath = temporaryPath
    self.frameBytes = width * height * 4
    self.command = command
    self.ffmpeg = ffmpeg
    self.stallTimeout = stallTimeout
    self.inputFPS = fps
    // Named like the output's own temporary (`.NAME.merged.EXT.PID.partial`), so the sweep of
    // stale temporaries recognises it.
    self.mergedPath =
      directoryURL.appendingPathComponent(".\(url.lastPathComponent).merged.\(format.rawValue).\(getpid()).partial").path
    if options.mergesIdenticalFrames && (format == .gif || format == .apng) { repeats = [] }
    palettePassSkipsRepeats = command.palettePass != nil && command.outputFPS == fps
    if command.palettePass != nil {
      spool = try FrameSpool(
        path: directoryURL.appendingPathComponent(".\(url.lastPathComponent).\(getpid()).frames").path,
        width: width, height: height, output: destination)
    }
    try launch(command.palettePass ?? command.arguments, files: [temporaryPath] + (command.palettePath.map { [$0] } ?? []))
  }

  /// Starts ffmpeg with `arguments` (registering `files` as temporary first, atomically with the
  /// launch, so an interruption sees both or neither) and drains its stderr.
  private func launch(_ arguments: [String], files: [String]) throws(VideoError) {
    let process = Process()
    let stdinPipe = Pipe()
    let stderrPipe = Pipe()
    process.executableURL = URL(fileURLWithPath: ffmpeg.path)
    process.arguments = arguments
    process.standardInput = stdinPipe
    process.standardOutput = FileHandle.nullDevice
    process.standardError = stderrPipe
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
    self.process = process
    self.stdinPipe = stdinPipe
    self.stderrPipe = stderrPipe
    if let launchError {
      state = .aborted
      throw .launchFailed(launchError)
    }
    PipeWriter.enlarge(stdinPipe.fileHandleForWriting.fileDescriptor)
    let handle = stderrPipe.fileHandleForReading
    let buffer = StderrBuffer()
    let done = DispatchSemaphore(value: 0)
    stderrBuffer = buffer
    stderrDone = done
    Thread.detachNewThread {
      while true {
        let chunk = handle.availableData
        if chunk.isEmpty { break }
        buffer.append(chunk)
      }
      done.signal()
    }
  }

  deinit {
    abort()
  }

  /// Sends one frame (its size must match the encoder's).
  ///
  /// - Throws: ``VideoError/ffmpegFailed(output:status:stderr:)`` or
  ///   ``VideoError/ffmpegKilled(output:signal:stderr:)`` when ffmpeg has died,
  ///   ``VideoError/pipeFailed(output:reason:)`` otherwise.
  func write(_ frame: PreparedFrame) throws {
    let bytes = frame.bytes(straight: wantsStraightAlpha)
    guard bytes.count == frameBytes else {
      abort()
      throw VideoError.invalidSize(
        width: frame.frame.width, height: frame.frame.height,
        reason: "the renderer made a frame of another size than \(destination) was started with")
    }
    let fd = stdinPipe.fileHandleForWriting.fileDescriptor
    let pid = process.processIdentifier
    let failure =
      palettePassSkipsRepeats && frame.repeatsPrevious
      ? nil
      : bytes.withUnsafeBytes {
        PipeWriter.writeAll(fd, $0, stallTimeout: stallTimeout) { PipeWriter.cpuTicks(of: pid) }
      }
    switch failure {
    case nil: break
    case .stalled:
      abort()
      throw VideoError.encoderStalled(output: destination, seconds: stallTimeout ?? 0)
    case .error(let reason):
      let error = waitForFailure(reason: reason)
      abort()
      throw error
    }
    if let spool, let failure = spool.append(bytes) {
      abort()
      throw VideoError.cannotWrite(path: destination, reason: "cannot keep the frames in \(spool.path): \(failure)")
    }
    repeats?.append(frame.repeatsPrevious)
  }

  /// Closes ffmpeg's input and waits for it to complete the temporary file.
  ///
  /// - Throws: ``VideoError`` if ffmpeg failed; the temporary file is then removed.
  func finish() throws {
    guard state == .running else { return }
    try waitForExit()
    if let spool {
      // The palette exists: encode the frames with it, read back from the spool.
      try launch(command.arguments, files: [])
      let fd = stdinPipe.fileHandleForWriting.fileDescriptor
      let pid = process.processIdentifier
      var pipeFailure: PipeWriter.Failure?
      if let failure = spool.replay({ frame in
        pipeFailure = PipeWriter.writeAll(fd, frame, stallTimeout: stallTimeout) { PipeWriter.cpuTicks(of: pid) }
        return pipeFailure?.description
      }) {
        let error: VideoError
        switch pipeFailure {
        case .stalled?: error = .encoderStalled(output: destination, seconds: stallTimeout ?? 0)
        case .error(let reason)?: error = waitForFailure(reason: reason)
        case nil: error = .cannotWrite(path: destination, reason: "cannot read the frames back: \(failure)")
        }
        abort()
        throw error
      }
      try waitForExit()
      spool.remove()
      self.spool = nil
    }
    removePalette()
    try mergeIdenticalFrames()
    state = .finished
  }

  /// Rewrites a finished GIF or APNG with each run of identical frames merged into one frame
  /// (``IdenticalFrameMerger``): into ``mergedPath``, which then replaces the temporary file, so
  /// the destination is still untouched until ``commit()``. A file whose structure is not the
  /// expected one stays as ffmpeg wrote it; a read or write failure aborts the output.
  private func mergeIdenticalFrames() throws(VideoError) {
    guard var repeats, repeats.contains(true) else { return }
    if format == .gif { repeats = IdenticalFrameMerger.resampled(repeats, from: inputFPS, to: outputFPS) }
    Cleanup.shared.add(file: mergedPath)
    defer { Cleanup.shared.remove(file: mergedPath) }
    let outcome: IdenticalFrameMerger.Outcome
    do {
      outcome = try IdenticalFrameMerger.merge(format, input: temporaryPath, output: mergedPath, repeats: repeats)
    } catch {
      unlink(mergedPath)
      abort()
      throw .cannotWrite(path: destination, reason: "cannot merge identical frames: \(error)")
    }
    switch outcome {
    case .merged(let kept, _):
      let failure: String? = Cleanup.shared.locked {
        rename(mergedPath, temporaryPath) == 0 ? nil : String(cString: strerror(errno))
      }
      if let failure {
        unlink(mergedPath)
        abort()
        throw .cannotWrite(path: destination, reason: "cannot replace the unmerged file: \(failure)")
      }
      mergedImages = kept
    case .unchanged(let reason):
      unlink(mergedPath)
      unmergedReason = reason
    }
  }

  /// Closes ffmpeg's input and waits for it; a failure aborts and is thrown.
  private func waitForExit() throws(VideoError) {
    try? stdinPipe.fileHandleForWriting.close()
    if let stallTimeout, !waitWhileProgressing(stallTimeout) {
      abort()
      throw .encoderStalled(output: destination, seconds: stallTimeout)
    }
    process.waitUntilExit()
    stderrDone.wait()
    Cleanup.shared.remove(process: process.processIdentifier)
    if let error = exitError() {
      abort()
      throw error
    }
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

  private func removePalette() {
    guard let palette = command.palettePath else { return }
    unlink(palette)
    Cleanup.shared.remove(file: palette)
  }

  /// Renames the finished temporary file over the destination.
  ///
  /// - Throws: ``VideoError/cannotWrite(path:reason:)``.
  func commit() throws {
    guard state == .finished else { return }
    let failure = Cleanup.shared.commitFile(temporaryPath, to: destination)
    state = failure == nil ? .committed : .aborted
    if let failure { throw failure }
  }

  /// Stops ffmpeg and removes the temporary file; the destination is left as it was.
  func abort() {
    guard state == .running || state == .finished else { return }
    state = .aborted
    try? stdinPipe.fileHandleForWriting.close()
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
    Cleanup.shared.remove(process: process.processIdentifier)
    unlink(temporaryPath)
    Cleanup.shared.remove(file: temporaryPath)
    removePalette()
    spool?.remove()
    spool = nil
    unlink(mergedPath)
  }

  /// The last lines ffmpeg wrote to stderr.
  var stderrText: String { stderrBuffer.text }

  private func exitError() -> VideoError? {
    switch process.terminationReason {
    case .uncaughtSignal:
      return .ffmpegKilled(output: destination, signal: process.terminationStatus, stderr: stderrText)
    case .exit where process.terminationStatus != 0:
      return .ffmpegFailed(output: destination, status: process.terminationStatus, stderr: stderrText)
    default:
      return nil
    }
  }

  private func waitForFailure(reason: String) -> VideoError {
    try? stdinPipe.fileHandleForWriting.close()
    process.waitUntilExit()
    stderrDone.wait()
    return exitError() ?? .pipeFailed(output: destination, reason: reason)
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
