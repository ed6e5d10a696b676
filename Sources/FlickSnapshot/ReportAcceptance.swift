import FlickRaster
import Foundation

/// Accepts the actual frames of a verification report as the new goldens: the "accept from CI"
/// step (`flick accept`).
///
/// Goldens must come from the renderer that checks them, and that is usually the CI machine,
/// not a laptop with other fonts or library versions. When `flick verify` fails in CI, its report
/// folder (`summary.json` plus `<frame>/actual.png` for every failing frame) is the artefact to
/// download; accepting it copies each failing or missing frame's `actual.png` over
/// `<goldens>/<frame>.png` and brings `manifest.json` in step (template and parameter hashes,
/// size, times, and the CI renderer's fingerprint). Frames that passed are left alone, and
/// frames whose comparison could not run are never accepted.
///
/// Everything is checked before anything is written: the report must be a Flick summary, each
/// image a readable PNG of the goldens' size, each frame name a plain file name. Each file is
/// written atomically.
public struct ReportAcceptance: Sendable {
  /// One frame taken from the report.
  public struct Frame: Sendable, Equatable {
    /// The frame label (`25pct`, `end`, …).
    public var name: String
    /// Why it was in the report: failed or missing.
    public var status: FrameVerdict.Status
    /// The report's message for it.
    public var message: String
    /// The golden written (or that would be written).
    public var golden: String
  }

  /// Frames to accept, in report order.
  public var accepted: [Frame]
  /// Frames of the report that are not accepted, with the reason (comparison errors).
  public var skipped: [(name: String, reason: String)]
  /// The manifest written into the goldens folder.
  public var manifest: SnapshotManifest

  private var images: [(source: String, golden: String)]
  private let goldenDirectory: String

  /// Reads the report in `reportDirectory` and plans its acceptance into `goldenDirectory`
  /// (which must already hold a `manifest.json`).
  ///
  /// - Throws: ``SnapshotError/invalidManifest(path:reason:)`` when the report or the goldens'
  ///   manifest is missing or unusable, or a frame does not fit the goldens;
  ///   ``SnapshotError/unreadableImage(path:reason:)`` for a missing or corrupt `actual.png`.
  public init(report reportDirectory: String, goldens goldenDirectory: String) throws(SnapshotError) {
    let summaryPath = (reportDirectory as NSString).appendingPathComponent("summary.json")
    guard let data = FileManager.default.contents(atPath: summaryPath) else {
      throw .invalidManifest(
        path: summaryPath, reason: "no verification report here; pass the folder flick verify wrote (--report)")
    }
    let summary: SnapshotReport.Summary
    do {
      summary = try JSONDecoder().decode(SnapshotReport.Summary.self, from: data)
    } catch {
      throw .invalidManifest(path: summaryPath, reason: "not a flick verify summary: \(error)")
    }
    let manifestPath = (goldenDirectory as NSString).appendingPathComponent(SnapshotManifest.fileName)
    guard let old = try SnapshotManifest.read(from: goldenDirectory) else {
      throw .invalidManifest(
        path: manifestPath, reason: "no manifest here; make the goldens with flick snapshot first")
    }
    let target = summary.manifest ?? old
    if let verified = summary.manifest, verified.template != old.template {
      throw .invalidManifest(
        path: summaryPath,
        reason: "the report verified \(verified.template), but the goldens are of \(old.template)")
    }

    var accepted: [Frame] = []
    var skipped: [(name: String, reason: String)] = []
    var images: [(source: String, golden: String)] = []
    for frame in summary.frames {
      switch frame.status {
      case .passed, .updated: continue
      case .error:
        skipped.append((frame.name, frame.message))
        continue
      case .failed, .missing, .recorded: break
      }
      guard Self.isPlainName(frame.name) else {
        throw .invalidManifest(path: summaryPath, reason: "frame name '\(frame.name)' is not a plain file name")
      }
      guard let artifact = frame.artifacts["actual"] else {
        skipped.append((frame.name, "the report has no actual.png for it"))
        continue
      }
      let source =
        artifact.hasPrefix("/") ? artifact : (reportDirectory as NSString).appendingPathComponent(artifact)
      let image: FlickRaster.Frame
      do {
        image = try FlickRaster.Frame(pngAt: source)
      } catch {
        throw .unreadableImage(path: source, reason: error.description)
      }
      guard image.width == target.width, image.height == target.height else {
        throw .invalidManifest(
          path: source,
          reason: "it is \(image.width)×\(image.height), the goldens are \(target.width)×\(target.height)")
      }
      let golden = (goldenDirectory as NSString).appendingPathComponent("\(frame.name).png")
      images.append((source, golden))
      accepted.append(Frame(name: frame.name, status: frame.status, message: frame.message, golden: golden))
    }

    // Entries of goldens the report did not cover stay; the report's own come after them.
    var manifest = target
    manifest.renderer = summary.manifest?.renderer ?? summary.renderer
    if let verified = summary.manifest {
      let kept = old.frames.filter { entry in !verified.frames.contains { $0.file == entry.file } }
      manifest.frames = kept + verified.frames
    }
    self.accepted = accepted
    self.skipped = skipped
    self.manifest = manifest
    self.images = images
    self.goldenDirectory = goldenDirectory
  }

  /// Copies the accepted frames over the goldens and writes the manifest.
  ///
  /// - Throws: ``SnapshotError/unwritableFile(path:reason:)``.
  public func apply() throws(SnapshotError) {
    guard !images.isEmpty else { return }
    for (source, golden) in images {
      guard let bytes = FileManager.default.contents(atPath: source) else {
        throw .unreadableImage(path: source, reason: "it disappeared while accepting")
      }
      try AtomicFile.write(bytes, to: golden)
    }
    try manifest.write(to: goldenDirectory)
  }

  /// Whether `name` can be used as a file name inside the goldens folder as it is.
  static func isPlainName(_ name: String) -> Bool {
    !name.isEmpty && !name.hasPrefix(".")
      && name.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) || "._-".unicodeScalars.contains($0) }
  }
}
