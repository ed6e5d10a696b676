import FlickMotion
import FlickRaster
import Foundation

extension RendererUpdate {
  /// A renderer update taken from a verification report (`flick accept REPORT --renderer`): the
  /// goldens re-rendered where the report was made (the CI image) are copied in, for every frame
  /// whose recorded golden drifted, and the manifest takes that renderer's fingerprint. Only a
  /// report that passed (no design change) and was made against these goldens (same renderer
  /// fingerprint, every frame listed) is accepted.
  ///
  /// - Throws: ``SnapshotError/invalidManifest(path:reason:)`` when the report does not fit;
  ///   ``SnapshotError/unsafePath(_:reason:)`` for a path that leaves the report;
  ///   ``SnapshotError/unreadableImage(path:reason:)`` for a re-rendered golden that does not decode.
  package init(report: String, goldens directory: String, limits: DecodeLimits = .standard) throws(SnapshotError) {
    let summaryPath = (report as NSString).appendingPathComponent("summary.json")
    guard
      let data = try ContainedPath.read(
        "summary.json", in: report, what: "summary", source: report, maximumBytes: ContainedPath.maximumTextBytes)
    else {
      throw .invalidManifest(path: summaryPath, reason: "no verification report here")
    }
    let summary: SnapshotReport.Summary
    do {
      summary = try JSONDecoder().decode(SnapshotReport.Summary.self, from: data)
    } catch {
      throw .invalidManifest(path: summaryPath, reason: "not a flick verify summary: " + DecodingProblem.reason(error))
    }
    let path = (directory as NSString).appendingPathComponent(SnapshotManifest.fileName)
    guard let manifest = try SnapshotManifest.read(from: directory) else {
      throw .invalidManifest(path: path, reason: "no manifest here; make the goldens with flick snapshot first")
    }
    _ = try SnapshotInputs.store(in: directory)
    guard summary.passed else {
      throw .invalidManifest(
        path: summaryPath,
        reason: "the report failed: a design change is accepted with 'flick accept REPORT', not as a renderer update")
    }
    guard summary.goldenRenderer == manifest.renderer else {
      throw .invalidManifest(path: summaryPath, reason: "the report was not made against these goldens (renderer)")
    }
    try ReportAcceptance.checkListedOnce(summary.frames.map(\.name), summaryPath: summaryPath)
    // The manifest's renderer is every golden's: a report of some frames would leave the others
    // carrying the old renderer's chunk under a manifest naming the new one, a folder verify refuses.
    let reported = Set(summary.frames.map(\.name))
    var uncovered = manifest.frames.filter { !reported.contains($0.time.label) }.map(\.file)
    if manifest.motion != nil && !reported.contains(MotionGolden.verdictName) {
      uncovered.append(MotionGolden.fileName)
    }
    guard uncovered.isEmpty else {
      throw .invalidManifest(
        path: summaryPath,
        reason: "the report does not cover every golden (none for \(MessageText.list(uncovered))), but a renderer "
          + "update is taken for all of them: verify every frame the manifest lists (no '--at' subset, no "
          + "'--motion') and accept that report, or run 'flick accept --renderer --against DIR' where they are checked")
    }
    var goldens: [Golden] = []
    for frame in summary.frames where frame.rendererDrift != nil && frame.name != MotionGolden.verdictName {
      guard let entry = manifest.frames.first(where: { $0.file == "\(frame.name).png" }) else {
        throw .invalidManifest(path: summaryPath, reason: "frame \(quoted: frame.name) is not one of these goldens")
      }
      guard (frame.rendererDrift?.differingPixels ?? 0) > 0 else {
        // No drift: the golden's pixels are what this renderer draws; it is written again with
        // the new fingerprint, so every golden's own chunk agrees with the manifest.
        let own = try ContainedPath.resolve(entry.file, in: directory, what: "golden", source: path)
        let bytes = try PNGFile.encode(try PNGImage(contentsOf: own, limits: limits).frame, renderer: summary.renderer)
        goldens.append(Golden(file: entry.file, content: .bytes(Data(bytes)), drift: frame.rendererDrift))
        continue
      }
      guard let artifact = frame.artifacts["rerendered"] else {
        throw .invalidManifest(path: summaryPath, reason: "no re-rendered golden for \(quoted: frame.name)")
      }
      let source = try ContainedPath.resolve(artifact, in: report, what: "artefact", source: summaryPath)
      let image = try PNGImage(contentsOf: source, limits: limits)
      // The fingerprint the manifest takes is the one the copied goldens carry themselves.
      guard image.renderer == summary.renderer else {
        throw .invalidManifest(
          path: source,
          reason: "its own renderer fingerprint ('flick-renderer' chunk) is not the one the report names, so the "
            + "report does not describe the goldens it carries")
      }
      guard image.width == manifest.width, image.height == manifest.height else {
        throw .invalidManifest(
          path: source,
          reason: "it is \(image.width)×\(image.height), the goldens are \(manifest.width)×\(manifest.height)")
      }
      try ReportAcceptance.checkWritten(
        image.fileBytes ?? Data(), frame, "rerendered", path: source, summaryPath: summaryPath)
      goldens.append(Golden(file: entry.file, content: .bytes(image.fileBytes ?? Data()), drift: frame.rendererDrift))
    }
    var updated = manifest
    updated.renderer = summary.renderer
    self.init(directory: directory, goldens: goldens, previous: manifest, manifest: updated)
  }

  init(directory: String, goldens: [Golden], previous: SnapshotManifest, manifest: SnapshotManifest) {
    self.directory = directory
    self.goldens = goldens
    self.previous = previous
    self.manifest = manifest
  }
}
