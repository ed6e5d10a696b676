import FlickMotion
import FlickScene
import FlickTemplates
import FlickVideo
import Foundation

/// Joins each chunked clip's chunks into its final outputs (`flick merge`).
///
/// - MP4: the chunks (each its own encode, so each starts with a keyframe, with identical
///   settings) are joined by ffmpeg's concat demuxer with `-c copy`: no re-encoding, timestamps
///   contiguous, and only each chunk's first stream, the one ``ChunkVerifier`` checked.
/// - PNG sequence: the chunks' frames are copied into a ``FlickVideo/PNGSequenceWriter``'s
///   staging folder and committed as a render commits a sequence (marker included,
///   ``mergedSequence(_:at:frames:)``); the files are the bytes a single render writes.
/// - GIF, WebM, ProRes, APNG, WebP: encoded now from the chunks' lossless PNG frames by the
///   encoder a single render uses, fed the same frames with the same repeat flags
///   (``encode(_:_:frames:tool:)``), so a GIF gets one palette from every frame of the clip, the
///   same frame choice and the same bytes as a single render.
///
/// Clips are merged side by side, up to ``jobs`` at once, and reported in the plan's order.
/// Nothing is written unless every chunk is present and current (its stamp is its id); each
/// output is made in a temporary file and renamed into place once all outputs of the merge are
/// complete. The temporaries (`.NAME.PID.merge` beside each output, `OUTPUT/.flick/merge-PID-ID`)
/// and the ffmpeg processes are registered with FlickVideo's ``FlickVideo/Cleanup``, so an
/// interruption stops and removes them; those left by a merge that was killed outright (its PID
/// no longer running) are removed by the next merge (``removeStale()``).
package struct BatchMerger {
  package var plan: BatchPlan
  package var force = false
  /// The ffmpeg to use; nil finds one.
  package var ffmpeg: FFmpegTool?
  /// `flick merge`'s caps: the largest chunk frame (``FlickVideo/RenderLimits/maximumPixels``,
  /// checked before a frame is decoded) and how long an ffmpeg may make no progress
  /// (``FlickVideo/RenderLimits/encoderTimeout``); its memory cap is the process's memory watch.
  package var limits = RenderLimits()
  /// The most merges run side by side (`flick merge --jobs N`). A merge is mostly one core's
  /// work, its ffmpeg runs one after another and a GIF's frames read on one thread, so by
  /// default as many as the CPUs this process may run on (``FlickMotion/MachineCPUs``); the
  /// memory cap is watched over all of them together, so a merge waits while it would not fit
  /// beside those running (``startsBeside(running:needs:memoryCap:)``). 1 merges one clip at a
  /// time.
  package var jobs = MachineCPUs.usable

  /// The check of ffmpeg (``FlickVideo/FFmpegTool/Probe``): run only to explain a merge that
  /// failed, once for all merges.
  let probe: FFmpegTool.Probe

  package init(plan: BatchPlan) {
    self.plan = plan
    let formats = Set(plan.merges.flatMap { $0.targets.map(\.format) }.filter(\.usesFFmpeg))
    probe = FFmpegTool.Probe(for: formats.sorted { $0.rawValue < $1.rawValue })
  }

  /// The chunks that are missing or stale, as messages naming each (empty when all are current).
  package func problems(_ merges: [BatchPlan.Merge]) -> [String] {
    var out: [String] = []
    for merge in merges {
      for chunk in merge.chunks {
        // What is wrong, output by output: a stamp that is not the chunk's id, or a file or
        // frame missing beside a stamp that is.
        let found = chunk.targets.lazy.compactMap {
          Stamp.problem($0, id: chunk.spec.id, frames: chunk.frames, digits: BatchRunner.digits(of: $0))
        }
        guard let problem = found.first else { continue }
        let absent = chunk.targets.map { Stamp.folder(of: $0) }.first { !FileManager.default.fileExists(atPath: $0) }
        out.append(
          "\(merge.spec.name): chunk job \(chunk.spec.index) (\(chunk.spec.name), id \(chunk.spec.id.prefix(12))) is "
            + (absent.map { "missing (\(quoted: $0) does not exist)" } ?? problem))
      }
    }
    return out
  }

  /// Whether every output of `merge` carries the merge's stamp.
  package static func isUpToDate(_ merge: BatchPlan.Merge) -> Bool {
    let frames = merge.spec.frames[0]..<(merge.spec.frames[1] + 1)
    return merge.targets.allSatisfy { Stamp.isCurrent($0, id: merge.spec.id, frames: frames, digits: nil) }
  }

  /// Makes every output of one merge.
  func merge(_ merge: BatchPlan.Merge) throws {
    // The chunks are input: checked whole before anything is joined or written.
    try ChunkVerifier.verify(merge, maximumPixels: limits.maximumPixels)
    // No frame of a merged sequence may go where a folder or special file has its name (the
    // commit would fail midway); refused before anything is joined.
    for target in merge.targets where target.format == .png {
      try PNGSequenceWriter.refuseTakenFrameNames(
        destination: target.path, frames: merge.spec.frames[0]..<(merge.spec.frames[1] + 1),
        lastIndex: merge.spec.frames[1])
    }
    if let ffmpeg { return try join(merge, tool: ffmpeg) }
    // ffmpeg is checked only when a merge fails, as a render's encoder is (an ffmpeg start-up,
    // about 0.07 s of CPU, saved on every merge that succeeds). From here every step runs ffmpeg
    // or follows one that did: an ffmpeg that is broken, too old or without an encoder fails
    // one of them, even the chunks' decode check, and the check's message says why.
    let tool = try probe.unchecked()
    do {
      try join(merge, tool: tool)
    } catch {
      throw probe.explaining(error)
    }
  }

  /// The steps of ``merge(_:)`` that run ffmpeg: the chunks' decode check, then the joins and
  /// encodings into temporaries, put in place and stamped once every output is complete.
  private func join(_ merge: BatchPlan.Merge, tool: FFmpegTool) throws {
    try ChunkVerifier.verifyVideo(
      merge, ffmpeg: tool.path, stallTimeout: limits.encoderTimeout, maximumPixels: limits.maximumPixels)
    // Every destination of the clip passes the checks a render makes of its outputs before the
    // first stamp goes or the first output is replaced: a merge that would fail at one output's
    // rename leaves the others and their stamps as they were. After the chunks' checks, since it
    // makes the outputs' folders: a merge refused for its chunks writes nothing.
    for target in merge.targets { try Self.checkDestination(target) }
    let work = plan.manifest.outputRoot + "/.flick/merge-\(getpid())-\(merge.spec.id.prefix(12))"
    defer {
      try? FileManager.default.removeItem(atPath: work)
      Cleanup.shared.remove(folder: work)
    }
    // Registered and created with the registry locked: an interruption either comes first (and
    // this thread then never gets the lock, so never creates it) or finds the folder to remove.
    try Cleanup.shared.locked { () throws in
      Cleanup.shared.add(folder: work)
      try? FileManager.default.removeItem(atPath: work)
      try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
    }

    // The chunks' frames under one folder, numbered as in the clip: hard links to the files
    // ChunkVerifier checked (a copy across file systems), each checked again to be a regular
    // file, so ffmpeg never follows a link, even one put in a chunk's place since the check.
    var framesFolder: String?
    func chunkFrames() throws -> String {
      if let framesFolder { return framesFolder }
      let folder = work + "/frames"
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
      for chunk in merge.chunks {
        guard let target = chunk.targets.first(where: { $0.format == .png }) else { continue }
        let source = Stamp.folder(of: target)
        for index in chunk.frames {
          let name = Stamp.frameName(index, digits: merge.digits)
          try Self.placeFrame(source + "/" + name, at: folder + "/" + name)
        }
      }
      framesFolder = folder
      return folder
    }

    var finished: [(temporary: String, target: OutputTarget)] = []
    defer {
      for f in finished {
        try? FileManager.default.removeItem(atPath: f.temporary)
        Self.forget(temporary: f.temporary, folder: false)
      }
    }
    // A PNG sequence is committed as a render commits it (PNGSequenceWriter): its marker
    // written, its folder exchanged whole only when it holds nothing but Flick's frames.
    var sequences: [(writer: PNGSequenceWriter, target: OutputTarget)] = []
    var encoded: [EncodedOutput] = []
    for target in merge.targets {
      let url = URL(fileURLWithPath: Stamp.folder(of: target))
      if target.format == .png {
        let writer = try mergedSequence(merge, at: target, frames: try chunkFrames())
        sequences.append((writer, target))
        continue
      }
      let temporary = url.deletingLastPathComponent().appendingPathComponent(
        ".\(url.lastPathComponent).\(getpid()).merge"
      ).path
      // Registered before it can exist: an interruption from here on removes it.
      Cleanup.shared.add(file: temporary)
      finished.append((temporary, target))
      try? FileManager.default.removeItem(atPath: temporary)
      switch target.format {
      case .mp4:
        let list = work + "/mp4-chunks.txt"
        let lines = merge.chunks.compactMap { chunk in chunk.targets.first { $0.format == .mp4 }?.path }
          .map { "file '" + OutputFormat.ffmpegFile($0).replacingOccurrences(of: "'", with: "'\\''") + "'" }
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: list))
        try Self.run(
          tool.path,
          [
            "-hide_banner", "-nostdin", "-loglevel", "error", "-y", "-f", "concat", "-safe", "0", "-i", list,
            // Each chunk's first stream, the one ChunkVerifier checked; nothing else a chunk holds.
            "-map", "0:0", "-c", "copy", "-map_metadata", "-1", "-movflags", "+faststart", "-f", "mp4", temporary,
          ], what: "joining the MP4 chunks of \(merge.spec.name)", stallTimeout: limits.encoderTimeout)
        if let problem = ContainerCheck.problem(.mp4, at: temporary) {
          throw BatchError.environment(
            "ffmpeg wrote an incomplete file joining the MP4 chunks of \(quoted: merge.spec.name): \(escaped: problem)")
        }
      case .bgra:
        throw BatchError.invalidInput("raw frames are not a batch format")
      default:
        encoded.append(EncodedOutput(temporary: temporary, format: target.format))
      }
    }
    try encode(merge, encoded, frames: encoded.isEmpty ? "" : try chunkFrames(), tool: tool)
    // Every output is complete: put them in place, then stamp them. Each swap holds the cleanup
    // registry's lock, so an interruption cannot remove a renamed output.
    for f in finished {
      let destination = Stamp.folder(of: f.target)
      try Cleanup.shared.locked { () throws in
        Stamp.remove(f.target)
        try Self.putInPlace(f.temporary, at: destination)
        Self.forget(temporary: f.temporary, folder: false)
      }
    }
    for s in sequences {
      Stamp.remove(s.target)
      try s.writer.finish()
      try s.writer.commit()
    }
    for f in finished { try Stamp.write(f.target, id: merge.spec.id) }
    for s in sequences { try Stamp.write(s.target, id: merge.spec.id) }
    finished = []
  }

  /// Makes the folder of `target` (a merged output) and checks its destination as a render
  /// checks its outputs (``FlickVideo/OutputEntry/checkDestination(_:folder:naming:)``) and
  /// its stamp's (``Stamp/checkDestination(_:)``).
  ///
  /// - Throws: ``BatchError/invalidInput(_:)`` (a link, a device, FIFO or socket) or
  ///   ``BatchError/environment(_:)`` (a folder that cannot be made or written, a folder in a
  ///   file's place or a file in a sequence folder's).
  static func checkDestination(_ target: OutputTarget) throws(BatchError) {
    let destination = Stamp.folder(of: target)
    let folder = URL(fileURLWithPath: destination).deletingLastPathComponent().path
    do {
      try OutputEntry.refuseLink(destination)
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
      try OutputEntry.checkDestination(destination, folder: target.format == .png)
    } catch let error as VideoError {
      throw error.isInvalidInput ? .invalidInput(error.description) : .environment(error.description)
    } catch {
      throw .environment("cannot create the folder \(quoted: folder): \(escaped: MessageText.reason(error))")
    }
    try Stamp.checkDestination(target)
  }

  /// Puts a finished merge output (a file) in place (``FlickMotion/AtomicDestination``): flushed
  /// and renamed over the old one. A PNG sequence is committed by its ``FlickVideo/PNGSequenceWriter``.
  ///
  /// - Throws: ``BatchError/environment(_:)``; the old output is then as it was.
  static func putInPlace(_ temporary: String, at destination: String) throws {
    if let failure = AtomicDestination.commit(temporary, to: destination) {
      throw BatchError.environment("cannot put \(quoted: destination) in place: \(escaped: failure)")
    }
  }

  /// Runs a command to completion (a ``FlickVideo/Subprocess``: its process group is killed
  /// with it); its stderr goes into the error when it fails. It is stopped when it goes
  /// `stallTimeout` seconds without using CPU.
  static func run(_ executable: String, _ arguments: [String], what: String, stallTimeout: Double) throws {
    let process = try Subprocess(executable: executable, arguments: arguments, error: .pipe)
    guard let ending = process.waitOrStop(stall: stallTimeout) else {
      throw BatchError.environment(
        "ffmpeg made no progress \(quoted: what) for \(RenderLimits.format(seconds: stallTimeout)); stopped it")
    }
    // ffmpeg 5.1 exits 0 when its trailer cannot be written (a full disk).
    guard ending == .exited(0), !ContainerCheck.reportsWriteError(process.errorText) else {
      throw BatchError.environment("ffmpeg failed \(quoted: what): " + message(process.errorText))
    }
  }

  /// Puts chunk frame `source` at `destination` in the work folder: a hard link (a copy when
  /// the file system refuses one), which must then be a regular file.
  ///
  /// - Throws: ``BatchError/invalidInput(_:)`` when the entry linked is not a regular file.
  static func placeFrame(_ source: String, at destination: String) throws {
    if link(source, destination) != 0 {
      guard [EXDEV, EPERM, EMLINK].contains(errno) else {
        throw BatchError.environment(
          "cannot link \(TemplateText.escaped(source)) into \(quoted: destination): \(quoted: String(cString: strerror(errno)))"
        )
      }
      try copyFrame(source, to: destination)
    }
    var info = stat()
    guard lstat(destination, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
      throw BatchError.invalidInput("chunk frame \(TemplateText.escaped(source)) is not a regular file")
    }
  }

  /// Copies a chunk frame (checked by ``ChunkVerifier``) into a new file of Flick's own,
  /// reading it without following a link.
  static func copyFrame(_ source: String, to destination: String) throws {
    // One open that refuses a link and a FIFO, and a size cap (a frame swapped after the
    // chunk checks is still read bounded).
    let bytes: [UInt8]
    do {
      bytes = try AssetFile.read(
        source, maximumBytes: AssetFile.maximumImageBytes, kind: "a chunk's frame", followingLinks: false)
    } catch {
      throw BatchError.environment("cannot read \(TemplateText.escaped(source)): \(quoted: error.reason)")
    }
    let output: Int32
    switch OutputEntry.createTemporary(destination) {
    case .success(let fd): output = fd
    case .failure(let failure):
      throw BatchError.environment("cannot write \(quoted: destination): \(escaped: failure.reason)")
    }
    defer { close(output) }
    let failure = bytes.withUnsafeBytes { raw -> Bool in
      guard let base = raw.baseAddress else { return false }  // nothing to write
      var done = 0
      while done < raw.count {
        let n = write(output, base + done, raw.count - done)
        if n < 0 && errno == EINTR { continue }
        guard n > 0 else { return true }
        done += n
      }
      return false
    }
    if failure {
      throw BatchError.environment("cannot write \(quoted: destination): \(quoted: String(cString: strerror(errno)))")
    }
  }

  /// ffmpeg's stderr for a message: trimmed, escaped, at most the last 2,000 characters.
  static func message(_ stderr: String) -> String {
    let text = stderr.trimmingCharacters(in: .whitespacesAndNewlines)
    return TemplateText.escaped(String(text.suffix(2000)))
  }

  static func forget(temporary: String, folder: Bool) {
    if folder { Cleanup.shared.remove(folder: temporary) } else { Cleanup.shared.remove(file: temporary) }
  }
}
