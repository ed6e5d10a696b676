import Foundation

/// Writes frames as raw premultiplied BGRA, one after another, into a temporary file beside the
/// destination that ``commit()`` renames into place.
final class RawVideoWriter: FrameSink {
  let destination: String
  let wantsStraightAlpha = false
  var workerStep: (@Sendable (PreparedFrame) throws -> Void)? { nil }
  private let temporaryPath: String
  private var fd: Int32
  private var state = SinkState.running
  private(set) var report = SinkReport()

  /// Creates the temporary file for `destination`.
  ///
  /// - Throws: What ``OutputEntry/checkDestination(_:folder:naming:)`` throws for a destination
  ///   no output can be put at (a symbolic link, a device, a folder, a folder that may not be
  ///   written), ``VideoError/cannotWrite(path:reason:)``.
  init(destination: String) throws(VideoError) {
    try OutputEntry.checkDestination(destination, folder: false)
    let url = URL(fileURLWithPath: destination)
    temporaryPath =
      url.deletingLastPathComponent()
      .appendingPathComponent(".\(url.lastPathComponent).\(getpid()).partial").path
    self.destination = destination
    Cleanup.shared.add(file: temporaryPath)
    switch OutputEntry.createTemporary(temporaryPath) {
    case .success(let fd): self.fd = fd
    case .failure(let failure):
      Cleanup.shared.remove(file: temporaryPath)
      throw .cannotWrite(path: destination, reason: failure.reason)
    }
  }

  deinit {
    abort()
  }

  func write(_ frame: PreparedFrame) throws {
    if let failure = frame.premultiplied.withUnsafeBytes({ PipeWriter.writeAll(fd, $0) }) {
      abort()
      throw VideoError.cannotWrite(path: destination, reason: failure.description)
    }
  }

  func finish() throws {
    guard state == .running else { return }
    let failed = close(fd) != 0
    fd = -1
    if failed {
      let reason = String(cString: strerror(errno))
      abort()
      throw VideoError.cannotWrite(path: destination, reason: reason)
    }
    state = .finished
  }

  func flushForCommit() throws {
    guard state == .finished else { return }
    try EncodedFile.flush(temporaryPath, for: destination)
  }

  func commit() throws {
    guard state == .finished else { return }
    let failure = Cleanup.shared.commitFile(temporaryPath, to: destination)
    state = failure == nil ? .committed : .aborted
    if let failure { throw failure }
    report.bytes = SinkReport.fileSize(destination)
  }

  func abort() {
    guard state == .running || state == .finished else { return }
    state = .aborted
    if fd >= 0 {
      close(fd)
      fd = -1
    }
    unlink(temporaryPath)
    Cleanup.shared.remove(file: temporaryPath)
  }
}
