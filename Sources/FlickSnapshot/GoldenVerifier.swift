import FlickMotion
import FlickRaster
import Foundation

/// Checks rendered frames against golden PNGs, records goldens according to a ``RecordMode`` and
/// writes failure artefacts (expected, actual, diff, side by side, zoom, flicker).
///
/// A written golden never passes: its verdict is ``FrameVerdict/Status/recorded``, which fails
/// the run until a run without recording verifies it.
package struct GoldenVerifier: Sendable {
  /// The comparator (and so the tolerance and decode limits).
  package var comparator: ImageComparator
  /// When goldens are written.
  package var record: RecordMode
  /// Whether the artefacts folder is a report folder that must be Flick's (``ReportFolder``):
  /// true for the CLI, whose folders a user names; test helpers write to their own folder.
  package var claimsArtifactsFolder: Bool
  /// Where a golden to record goes instead of its file, when set: `flick verify` collects them and
  /// writes them with its manifest, all or nothing, once it knows the manifest describes them.
  package var recordInstead: (@Sendable (Frame, String) throws(SnapshotError) -> Void)?
  /// The report folders this verifier (and its copies) claimed. Claiming is serialised: frames
  /// are verified on parallel workers, and a half-claimed folder (created, marker not yet
  /// written) must not look like someone else's.
  private let claimed = Locked<Set<String>>([])

  package init(comparator: ImageComparator = ImageComparator(), record: RecordMode, claimsArtifactsFolder: Bool = true)
  {
    self.comparator = comparator
    self.record = record
    self.claimsArtifactsFolder = claimsArtifactsFolder
  }

  /// Checks one frame.
  ///
  /// - Parameters:
  ///   - actual: The rendered frame, or why rendering failed.
  ///   - goldenPath: Where the golden PNG is (or is to be written).
  ///   - goldenRenderer: The golden's renderer when its file has no `flick-renderer` chunk (a test
  ///     helper's own knowledge); the file's own chunk always wins. Verify passes none.
  ///   - name: Short name for messages and artefact folders (the time label).
  ///   - time: The time as written.
  ///   - seconds: The resolved scene time.
  ///   - artifactsDirectory: Where to write failure artefacts (a sub-folder per frame), or nil.
  ///   - reference: The golden's stored inputs re-rendered by this renderer, when the golden comes
  ///     from another renderer and stored them: the frame is compared with this (exactly, unless the
  ///     options ask for perceptual), and the golden file only measures the renderer's drift.
  package func verify(
    _ actual: Result<Frame, SnapshotError>, goldenPath: String, goldenRenderer: RendererFingerprint? = nil,
    name: String, time: String, seconds: Double?, artifactsDirectory: String?,
    reference: Result<Frame, SnapshotError>? = nil
  ) -> FrameVerdict {
    func verdict(_ status: FrameVerdict.Status, _ message: String, _ c: ImageComparison? = nil) -> FrameVerdict {
      FrameVerdict(
        name: name, time: time, seconds: seconds, goldenPath: goldenPath, status: status,
        comparison: c.map(Self.withoutPixelClasses), message: message)
    }
    let frame: Frame
    switch actual {
    case .failure(let error): return verdict(.error, error.description)
    case .success(let f): frame = f
    }
    func write(_ message: String, _ c: ImageComparison? = nil) -> FrameVerdict {
      do {
        if let recordInstead { try recordInstead(frame, goldenPath) } else { try writeGolden(frame, to: goldenPath) }
      } catch {
        return verdict(.error, error.description)
      }
      return verdict(.recorded, message + "; re-run without recording to verify it", c)
    }
    guard FileManager.default.fileExists(atPath: goldenPath) else {
      guard record != .none else {
        var v = verdict(.missing, "no golden at \(goldenPath) (record mode none: not written)")
        v.artifacts = writeArtifacts(
          name: name, expected: nil, actual: frame, comparison: nil, into: artifactsDirectory)
        return v
      }
      return write("no golden was found; recorded \(goldenPath) (record mode \(record.rawValue))")
    }
    let comparison: ImageComparison
    var drift: RendererDrift?
    var expectedFrame: Frame?
    // The golden is read and decoded once: what is compared is what the report shows.
    var golden: PNGImage?
    do {
      if let reference {
        let recorded = try PNGImage(contentsOf: goldenPath, limits: comparator.limits)
        golden = recorded
        // The stored inputs stand in for the golden only when the golden itself says another
        // renderer drew it; a golden without the chunk is compared as it is.
        if Self.isFromAnotherRenderer(recorded) {
          let rerendered = try reference.get()
          guard rerendered.width == recorded.width, rerendered.height == recorded.height else {
            // The inputs that recorded the golden render at its size on any renderer.
            var v = verdict(
              .sizeMismatch,
              "the goldens' stored inputs render at \(rerendered.width)×\(rerendered.height), but the golden is "
                + "\(recorded.width)×\(recorded.height): they are not what recorded it; record the goldens again "
                + "with 'flick snapshot'")
            v.artifacts = writeArtifacts(
              name: name, expected: recorded.frame, actual: frame, comparison: nil, into: artifactsDirectory,
              expectedFile: recorded.fileBytes)
            return v
          }
          let pair = compare(frame, with: rerendered, recorded: recorded, recordedBy: recorded.renderer)
          comparison = pair.0
          drift = pair.1
          expectedFrame = rerendered
        } else {
          comparison = try comparator.compare(golden: recorded, actual: frame, goldenRenderer: goldenRenderer)
        }
      } else {
        let result = try comparator.compareGolden(file: goldenPath, actual: frame, goldenRenderer: goldenRenderer)
        comparison = result.comparison
        golden = result.golden
      }
    } catch {
      if record == .all || record == .failed {
        return write(
          "re-recorded \(goldenPath) (record mode \(record.rawValue); the old one was unreadable: \(error.description))"
        )
      }
      var v = verdict(.unreadable, error.description)
      v.artifacts = writeArtifacts(name: name, expected: nil, actual: frame, comparison: nil, into: artifactsDirectory)
      return v
    }
    if record == .all || (record == .failed && !comparison.passed) {
      let change = comparison.passed ? "unchanged: \(comparison.summary)" : "was: \(comparison.summary)"
      return write("re-recorded \(goldenPath) (record mode \(record.rawValue); \(change))", comparison)
    }
    var v = verdict(FrameVerdict.status(for: comparison), comparison.summary, comparison)
    v.rendererDrift = drift
    if let drift, drift.differingPixels > 0, let expectedFrame, let golden {
      v.artifacts = writeDriftArtifacts(
        name: name, recorded: golden, rerendered: expectedFrame, into: artifactsDirectory)
    }
    if comparison.passed { return v }
    // `expected.png` is what the frame was compared with: the stored inputs re-rendered here, or
    // the golden file itself, byte for byte (its own renderer chunk, its straight-alpha pixels).
    let expected = expectedFrame ?? golden?.frame
    let expectedFile = expectedFrame == nil ? golden?.fileBytes : nil
    v.artifacts.merge(
      writeArtifacts(
        name: name, expected: expected, actual: frame, comparison: comparison, into: artifactsDirectory,
        expectedFile: expectedFile)
    ) { _, new in new }
    return v
  }

  /// Whether the golden's own `flick-renderer` chunk names a renderer other than this one (false
  /// when it names this one or none).
  static func isFromAnotherRenderer(_ golden: PNGImage) -> Bool {
    guard let by = golden.renderer else { return false }
    return !RendererFingerprint.current.differences(from: by).isEmpty
  }

  /// Compares `frame` with the re-rendered golden (both from this renderer) and measures the
  /// drift of the recorded golden from the re-rendered one.
  func compare(
    _ frame: Frame, with rerendered: Frame, recorded: PNGImage, recordedBy: RendererFingerprint?
  ) -> (ImageComparison, RendererDrift?) {
    var comparison = comparator.compare(rerendered, frame, goldenRenderer: .current, actualRenderer: .current)
    let drift = RendererDrift.measure(recorded: recorded, rerendered: PNGImage(frame: rerendered))
    let how = comparison.exact ? "exact" : "perceptual"
    comparison.modeReason =
      "\(how) comparison with the goldens' stored inputs re-rendered by this renderer "
      + "(the goldens come from another renderer: "
      + "\(recordedBy.map { RendererFingerprint.current.differences(from: $0).joined(separator: ", ") } ?? "unknown"))"
    return (comparison, drift)
  }

  /// Writes `golden-recorded.png` (the golden file as recorded by the other renderer, byte for
  /// byte), `rerendered.png` and `drift-zoom.png` (recorded | difference | re-rendered around the
  /// drift) for a frame.
  func writeDriftArtifacts(name: String, recorded: PNGImage, rerendered: Frame, into directory: String?)
    -> [String: String]
  {
    guard let folder = artifactsFolder(name, in: directory) else { return [:] }
    var out: [String: String] = [:]
    func png(_ frame: Frame, _ kind: String, _ file: String, bytes: Data? = nil) {
      let path = (folder as NSString).appendingPathComponent(file)
      let written =
        if let bytes { (try? AtomicFile.write(bytes, to: path)) != nil } else {
          (try? PNGFile.write(frame, to: path)) != nil
        }
      if written { out[kind] = path }
    }
    let c = ImageComparator(options: .exact, limits: comparator.limits).compare(
      recorded, PNGImage(frame: rerendered), goldenRenderer: nil, actualRenderer: nil)
    let recordedFrame = recorded.frame
    png(recordedFrame, "goldenRecorded", "golden-recorded.png", bytes: recorded.fileBytes)
    png(rerendered, "rerendered", "rerendered.png")
    if let diff = DiffRenderer.diffImage(expected: recordedFrame, comparison: c), let box = c.boundingBox,
      let zoom = DiffRenderer.zoom(expected: recordedFrame, actual: rerendered, diff: diff, around: box)
    {
      png(zoom, "driftZoom", "drift-zoom.png")
    }
    return out
  }

  /// Claims `directory` as a report folder (``ReportFolder/claim(_:)``) the first time this
  /// verifier (or a copy, as each worker holds one) needs it. Later calls find it claimed and
  /// never create it again: a run cut short removes the folder it created (the CLI's cleanup)
  /// while other workers may still be writing a frame's artefacts, and their
  /// ``ReportFolder/makeFolder(_:)`` then fails instead of bringing the folder back.
  ///
  /// - Throws: ``ReportFolder/claim(_:)``'s errors.
  package func claim(_ directory: String) throws(SnapshotError) {
    let refusal = claimed.withLock { claimed -> SnapshotError? in
      if claimed.contains(directory) { return nil }
      do throws(SnapshotError) {
        try ReportFolder.claim(directory)
      } catch {
        return error
      }
      claimed.insert(directory)
      return nil
    }
    if let refusal { throw refusal }
  }

  /// The frame's artefacts folder `<directory>/<name>/` (the name made plain, so it cannot leave
  /// `directory`), created; nil when there is no `directory`, it is refused (``claimsArtifactsFolder``)
  /// or the frame's folder is a symbolic link (``ReportFolder/makeFolder(_:)``: never written through).
  func artifactsFolder(_ name: String, in directory: String?) -> String? {
    guard let directory else { return nil }
    if claimsArtifactsFolder {
      guard (try? claim(directory)) != nil else { return nil }
    } else {
      guard (try? AtomicFile.makeDirectory(directory)) != nil else { return nil }
    }
    // A frame's folder never takes a name the report writes itself (any case).
    var plain = ContainedPath.sanitized(name, fallback: "frame")
    if claimsArtifactsFolder, SnapshotReport.topLevelNames.contains(where: { $0.lowercased() == plain.lowercased() }) {
      plain = ContainedPath.distinctFolderNames([name], reserved: SnapshotReport.topLevelNames, fallback: "frame")[0]
    }
    let folder = (directory as NSString).appendingPathComponent(plain)
    return (try? ReportFolder.makeFolder(folder)) != nil ? folder : nil
  }

  /// Verdicts outlive the frame; the per-pixel classes (one byte a pixel) are only needed to draw
  /// the diff image, so they are dropped from what verdicts keep.
  static func withoutPixelClasses(_ c: ImageComparison) -> ImageComparison {
    var copy = c
    copy.pixelClasses = []
    return copy
  }

  /// Writes `frame` as a golden with this renderer's fingerprint, creating folders as needed
  /// (atomic: a temporary file renamed over the golden).
  package func writeGolden(_ frame: Frame, to path: String) throws(SnapshotError) {
    try AtomicFile.makeDirectory((path as NSString).deletingLastPathComponent)
    try PNGFile.write(frame, to: path)
  }

  /// Writes the explanation of a failure into `<directory>/<name>/`; returns the paths written by
  /// kind. With ``claimsArtifactsFolder``, `directory` must be a report folder (``ReportFolder``); otherwise, or when an artefact
  /// cannot be written, nothing (or less) is written and the verdict is unchanged.
  ///
  /// `expected.png` and `actual.png` are the compared files themselves when their bytes are given
  /// (`expectedFile`, `actualFile`: a golden, `flick diff`'s inputs), with their own renderer
  /// chunk and straight-alpha pixels; otherwise the frame is encoded with this renderer's
  /// fingerprint (a frame rendered here). The diff, side-by-side, zoom and flicker images are
  /// drawn from the frames.
  package func writeArtifacts(
    name: String, expected: Frame?, actual: Frame, comparison: ImageComparison?, into directory: String?,
    expectedFile: Data? = nil, actualFile: Data? = nil
  ) -> [String: String] {
    guard let folder = artifactsFolder(name, in: directory) else { return [:] }
    var out: [String: String] = [:]
    func png(_ frame: Frame, _ kind: String, _ file: String, bytes: Data? = nil) {
      let path = (folder as NSString).appendingPathComponent(file)
      let written =
        if let bytes { (try? AtomicFile.write(bytes, to: path)) != nil } else {
          (try? PNGFile.write(frame, to: path)) != nil
        }
      if written { out[kind] = path }
    }
    png(actual, "actual", "actual.png", bytes: actualFile)
    guard let expected else { return out }
    png(expected, "expected", "expected.png", bytes: expectedFile)
    let diff = comparison.flatMap { DiffRenderer.diffImage(expected: expected, comparison: $0) }
    if let diff { png(diff, "diff", "diff.png") }
    png(DiffRenderer.sideBySide(expected: expected, actual: actual, diff: diff), "sideBySide", "side-by-side.png")
    if let diff, let box = comparison?.boundingBox,
      let zoom = DiffRenderer.zoom(expected: expected, actual: actual, diff: diff, around: box)
    {
      png(zoom, "zoom", "zoom.png")
    }
    if let bytes = try? DiffRenderer.flicker(expected: expected, actual: actual) {
      let path = (folder as NSString).appendingPathComponent("flicker.png")
      if (try? AtomicFile.write(Data(bytes), to: path)) != nil { out["flicker"] = path }
    }
    return out
  }
}
