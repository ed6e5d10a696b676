import FlickMotion
import Foundation

/// The temporary file an encoded output is written to beside its destination
/// (`.NAME.PID.partial`) until commit, the other temporaries named after it, and the steps both
/// encoding sinks (``FFmpegSink``, ``GIFSink``) take on it: start an ffmpeg that writes it, check
/// it was written, merge its identical frames, put it in place, remove it.
final class EncodedFile {
  /// The destination path.
  let destination: String
  /// The encoded format.
  let format: OutputFormat
  /// The temporary file ffmpeg writes (`.NAME.PID.partial`).
  let path: String
  /// The destination's folder.
  private let folder: URL
  /// The destination's file name.
  private let name: String

  /// Checks that `destination` can be written (``OutputEntry/checkDestination(_:folder:naming:)``:
  /// not a link, a device or a folder, in a folder that exists and may be written) and names its
  /// temporary.
  ///
  /// - Throws: ``VideoError/linkedOutput(path:)``, ``VideoError/invalidOption(_:)`` or
  ///   ``VideoError/cannotWrite(path:reason:)``.
  init(destination: String, format: OutputFormat) throws(VideoError) {
    _ = PipeWriter.ignoreSIGPIPE
    try OutputEntry.checkDestination(destination, folder: false)
    let url = URL(fileURLWithPath: destination)
    self.destination = destination
    self.format = format
    self.folder = url.deletingLastPathComponent()
    self.name = url.lastPathComponent
    self.path = folder.appendingPathComponent(".\(name).\(getpid()).partial").path
  }

  /// A temporary beside the destination, `.NAME.PID` followed by `suffix` (`.frames`, `.palette`).
  func sibling(_ suffix: String) -> String {
    folder.appendingPathComponent(".\(name).\(getpid())\(suffix)").path
  }

  /// A temporary output file of kind `kind` (`merged.gif`, `part2.gif`):
  /// `.NAME.KIND.PID.partial`, named like the output's own temporary so the sweep of stale
  /// temporaries (``Cleanup/removeStale(in:)``) recognises it.
  func partial(_ kind: String) -> String {
    folder.appendingPathComponent(".\(name).\(kind).\(getpid()).partial").path
  }

  /// Starts ffmpeg with `arguments`, registering `files` as temporaries first (created empty by
  /// Flick, atomically with the launch, so an interruption sees both or neither); on failure
  /// the files are removed again.
  ///
  /// - Throws: ``VideoError/cannotWrite(path:reason:)`` or ``VideoError/launchFailed(_:)``.
  func launch(_ ffmpeg: FFmpegTool, _ arguments: [String], files: [String]) throws(VideoError) -> FFmpegProcess {
    do {
      try OutputEntry.reserveTemporaries(files, for: destination)
      return try FFmpegProcess(executable: ffmpeg.path, arguments: arguments, files: files, output: destination)
    } catch {
      for file in files { Self.discard(file) }
      throw error
    }
  }

  /// Fails when ffmpeg exited without writing the file (a program that exits 0 without writing
  /// it is no ffmpeg: the check then says what it is), rather than at the rename, or left it
  /// incomplete (``ContainerCheck``: an MP4 without its `moov` box, a WebM whose segment runs
  /// past the file, …), as ffmpeg 5.1 does with status 0 when its trailer cannot be written.
  ///
  /// - Parameter file: The temporary to check (this output's, ``path``, by default).
  /// - Throws: ``VideoError/ffmpegFailed(output:status:stderr:)``.
  func checkWritten(_ file: String? = nil) throws(VideoError) {
    let target = file ?? path
    var written = stat()
    guard lstat(target, &written) == 0, written.st_size > 0 else {
      throw .ffmpegFailed(output: destination, status: 0, stderr: "it exited without writing the file")
    }
    if let problem = ContainerCheck.problem(format, at: target) {
      throw .ffmpegFailed(
        output: destination, status: 0, stderr: "it exited, but the file it wrote is incomplete: \(escaped: problem)")
    }
  }

  /// Rewrites the finished GIF or APNG (``path``, or the temporary `file` of this output, such as
  /// a candidate of ``GIFFinishing``) with each run of identical frames merged into one frame
  /// (``IdenticalFrameMerger``, `repeats[i]` telling whether encoded frame `i` repeats the one
  /// before): into a temporary of its own that then replaces it, so the destination is still
  /// untouched. A file whose structure is not the expected one stays as ffmpeg wrote it.
  ///
  /// - Returns: The images kept, or the reason nothing was merged (nothing when no frame repeats).
  /// - Throws: ``VideoError/cannotWrite(path:reason:)`` when reading or writing fails.
  func mergeIdenticalFrames(_ repeats: [Bool], in file: String? = nil) throws(VideoError) -> SinkReport {
    guard repeats.contains(true) else { return SinkReport() }
    let target = file ?? path
    let merged = partial("merged.\(format.rawValue)")
    Cleanup.shared.add(file: merged)
    defer { Self.discard(merged) }
    let outcome: IdenticalFrameMerger.Outcome
    do {
      outcome = try IdenticalFrameMerger.merge(format, input: target, output: merged, repeats: repeats)
    } catch {
      throw .cannotWrite(path: destination, reason: "cannot merge identical frames: \(escaped: error)")
    }
    switch outcome {
    case .merged(let kept, _):
      try replace(target, with: merged)
      return SinkReport(images: kept)
    case .unchanged(let reason):
      return SinkReport(unmergedReason: reason)
    }
  }

  /// Moves the temporary `source` over the temporary `target` (both this output's), under
  /// ``Cleanup``'s lock so an interruption sees one or the other.
  ///
  /// - Throws: ``VideoError/cannotWrite(path:reason:)``.
  func replace(_ target: String, with source: String) throws(VideoError) {
    let failure = Cleanup.shared.locked { AtomicDestination.move(source, to: target) }
    if let failure {
      Self.discard(source)
      throw .cannotWrite(path: destination, reason: "cannot replace \(quoted: target): \(escaped: failure)")
    }
    Cleanup.shared.remove(file: source)
  }

  /// Flushes the finished temporary file to disk (``FrameSink/flushForCommit()``).
  ///
  /// - Throws: ``VideoError/cannotWrite(path:reason:)``.
  func flush() throws(VideoError) {
    try Self.flush(path, for: destination)
  }

  /// Flushes the temporary file `path` of the output `destination` to disk.
  ///
  /// - Throws: ``VideoError/cannotWrite(path:reason:)``.
  static func flush(_ path: String, for destination: String) throws(VideoError) {
    guard AtomicDestination.syncFile(path) else {
      throw .cannotWrite(
        path: destination, reason: "cannot flush \(quoted: path) to disk: \(quoted: String(cString: strerror(errno)))")
    }
  }

  /// Puts the finished file in place (``Cleanup/commitFile(_:to:)``); on failure the temporary
  /// is removed.
  ///
  /// - Throws: ``VideoError/cannotWrite(path:reason:)``.
  func commit() throws(VideoError) {
    if let failure = Cleanup.shared.commitFile(path, to: destination) { throw failure }
  }

  /// Removes the temporary file; the destination is left as it was.
  func remove() { Self.discard(path) }

  /// A temporary of this output kept under a second name (``keep(_:as:)``): the name, and the
  /// device and inode the file had when it was kept.
  struct Kept {
    let path: String
    let device: dev_t
    let inode: ino_t
  }

  /// Links the temporary `source` (a file of this output's) as the temporary `copy`, so its
  /// bytes stay when `source` is replaced (Flick replaces temporaries by renaming, never in
  /// place); nil when the file system makes no link, or `source` is not a regular file.
  func keep(_ source: String, as copy: String) -> Kept? {
    var info = stat()
    guard lstat(source, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
    Cleanup.shared.add(file: copy)
    unlink(copy)
    guard link(source, copy) == 0, let kept = Self.identity(of: copy, as: info) else {
      Self.discard(copy)
      return nil
    }
    return Kept(path: copy, device: kept.st_dev, inode: kept.st_ino)
  }

  /// Puts the file `kept` holds back at the temporary `target` (another link to it); false when
  /// that cannot be done or `target` is then not that same file (its name was taken over), and
  /// `target` is then gone.
  func restore(_ kept: Kept, to target: String) -> Bool {
    Cleanup.shared.add(file: target)
    unlink(target)
    var expected = stat()
    expected.st_dev = kept.device
    expected.st_ino = kept.inode
    guard link(kept.path, target) == 0, Self.identity(of: target, as: expected) != nil else {
      unlink(target)
      return false
    }
    return true
  }

  /// `path`'s own status (not a link's target) when it is a regular file with `expected`'s
  /// device and inode.
  private static func identity(of path: String, as expected: stat) -> stat? {
    var info = stat()
    guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_dev == expected.st_dev,
      info.st_ino == expected.st_ino
    else { return nil }
    return info
  }

  /// Removes a temporary `file` and forgets it.
  static func discard(_ file: String) {
    unlink(file)
    Cleanup.shared.remove(file: file)
  }
}
