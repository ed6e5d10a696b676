import FlickRaster
import Foundation

/// Checks rendered frames against golden PNGs, records goldens according to a ``RecordMode`` and
/// writes failure artefacts (expected, actual, diff, side by side, flicker).
public struct GoldenVerifier: Sendable {
  /// The comparator (and so the tolerance).
  public var comparator: ImageComparator
  /// When goldens are written.
  public var record: RecordMode
  /// Whether a golden written because it was missing passes. The CLI passes for explicit record
  /// modes `all`/`failed`; test helpers never do (a new baseline fails the test, as in
  /// swift-argument-parser).
  public var recordedMissingPasses: Bool

  public init(comparator: ImageComparator = ImageComparator(), record: RecordMode, recordedMissingPasses: Bool) {
    self.comparator = comparator
    self.record = record
    self.recordedMissingPasses = recordedMissingPasses
  }

  /// Checks one frame.
  ///
  /// - Parameters:
  ///   - actual: The rendered frame, or why rendering failed.
  ///   - goldenPath: Where the golden PNG is (or is to be written).
  ///   - name: Short name for messages and artefact folders (the time label).
  ///   - time: The time as written.
  ///   - seconds: The resolved scene time.
  ///   - artifactsDirectory: Where to write failure artefacts (a sub-folder per frame), or nil.
  public func verify(
    _ actual: Result<Frame, SnapshotError>, goldenPath: String, name: String, time: String, seconds: Double?,
    artifactsDirectory: String?
  ) -> FrameVerdict {
    func verdict(_ status: FrameVerdict.Status, _ message: String, _ c: ImageComparison? = nil) -> FrameVerdict {
      FrameVerdict(
        name: name, time: time, seconds: seconds, goldenPath: goldenPath, status: status,
        comparison: c.map(Self.withoutPixelClasses),
        message: message)
    }
    let frame: Frame
    switch actual {
    case .failure(let error): return verdict(.error, error.description)
    case .success(let f): frame = f
    }
    let exists = FileManager.default.fileExists(atPath: goldenPath)
    if !exists {
      guard record != .none else {
        var v = verdict(.missing, "no golden at \(goldenPath) (record mode none: not written)")
        v.artifacts = writeArtifacts(name: name, expected: nil, actual: frame, comparison: nil, into: artifactsDirectory)
        return v
      }
      do {
        try writeGolden(frame, to: goldenPath)
      } catch {
        return verdict(.error, error.description)
      }
      if recordedMissingPasses && record != .missing {
        return verdict(.updated, "recorded new golden \(goldenPath)")
      }
      return verdict(.recorded, "no golden was found; recorded \(goldenPath): re-run to verify it")
    }
    if record == .all {
      do {
        try writeGolden(frame, to: goldenPath)
      } catch {
        return verdict(.error, error.description)
      }
      return verdict(.updated, "re-recorded \(goldenPath)")
    }
    let comparison: ImageComparison
    do {
      comparison = try comparator.compare(expectedFile: goldenPath, actual: frame)
    } catch {
      var v = verdict(.error, error.description)
      v.artifacts = writeArtifacts(name: name, expected: nil, actual: frame, comparison: nil, into: artifactsDirectory)
      return v
    }
    if comparison.passed { return verdict(.passed, comparison.summary, comparison) }
    if record == .failed {
      do {
        try writeGolden(frame, to: goldenPath)
      } catch {
        return verdict(.error, error.description)
      }
      return verdict(.updated, "re-recorded \(goldenPath) (was: \(comparison.summary))", comparison)
    }
    var v = verdict(.failed, comparison.summary, comparison)
    let expected = try? PNGFile.decode(goldenPath)
    v.artifacts = writeArtifacts(
      name: name, expected: expected, actual: frame, comparison: comparison, into: artifactsDirectory)
    return v
  }

  /// Verdicts outlive the frame; the per-pixel classes (one byte a pixel) are only needed to draw
  /// the diff image, so they are dropped from what verdicts keep.
  static func withoutPixelClasses(_ c: ImageComparison) -> ImageComparison {
    var copy = c
    copy.pixelClasses = []
    return copy
  }

  /// Writes `frame` as a golden, creating folders as needed (atomic).
  public func writeGolden(_ frame: Frame, to path: String) throws(SnapshotError) {
    try AtomicFile.makeDirectory((path as NSString).deletingLastPathComponent)
    do {
      try frame.writePNG(to: path)
    } catch {
      throw .unwritableFile(path: path, reason: error.description)
    }
  }

  /// Writes the explanation of a failure into `<directory>/<name>/`; returns the paths written by
  /// kind. Failing to write an artefact never changes the verdict (the paths are just left out).
  public func writeArtifacts(
    name: String, expected: Frame?, actual: Frame, comparison: ImageComparison?, into directory: String?
  ) -> [String: String] {
    guard let directory else { return [:] }
    let folder = (directory as NSString).appendingPathComponent(name)
    guard (try? AtomicFile.makeDirectory(folder)) != nil else { return [:] }
    var out: [String: String] = [:]
    func png(_ frame: Frame, _ kind: String, _ file: String) {
      let path = (folder as NSString).appendingPathComponent(file)
      if (try? frame.writePNG(to: path)) != nil { out[kind] = path }
    }
    png(actual, "actual", "actual.png")
    guard let expected else { return out }
    png(expected, "expected", "expected.png")
    let diff = comparison.flatMap { DiffRenderer.diffImage(expected: expected, comparison: $0) }
    if let diff { png(diff, "diff", "diff.png") }
    png(DiffRenderer.sideBySide(expected: expected, actual: actual, diff: diff), "sideBySide", "side-by-side.png")
    if let bytes = try? DiffRenderer.flicker(expected: expected, actual: actual) {
      let path = (folder as NSString).appendingPathComponent("flicker.png")
      if (try? AtomicFile.write(Data(bytes), to: path)) != nil { out["flicker"] = path }
    }
    return out
  }
}
