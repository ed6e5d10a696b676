import FlickMotion
import FlickRaster
import FlickTemplates
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
package struct ReportAcceptance: Sendable {
  /// One frame taken from the report.
  package struct Frame: Sendable, Equatable {
    /// The frame label (`25pct`, `end`, …).
    package var name: String
    /// Why it was in the report: changed, size mismatch or missing.
    package var status: FrameVerdict.Status
    /// The report's message for it.
    package var message: String
    /// The golden written (or that would be written).
    package var golden: String
  }

  /// Frames to accept, in report order.
  package var accepted: [Frame]
  /// Frames of the report that are not accepted, with the reason (comparison errors).
  package var skipped: [(name: String, reason: String)]
  /// The manifest written into the goldens folder.
  package var manifest: SnapshotManifest

  private var images: [(source: String, golden: String, bytes: Data)]
  private let goldenDirectory: String
  /// The goldens' manifest before accepting (what frames not accepted keep).
  private let previous: SnapshotManifest
  /// The stored inputs the report's manifest names (``manifest`` stores none when the report
  /// does not carry them): what the accepted goldens were drawn from.
  private let verifiedInputs: SnapshotInputs?
  /// The frame files the report verified to match (they need no new golden).
  private let matched: Set<String>
  /// The stored inputs of the accepted manifest, read from the report's `inputs/` (checked).
  private var blobs: [String: Data] = [:]
  /// The motion golden to write, when the report's motion check failed.
  private var motion: Data?
  /// Warnings to show before accepting (inputs the report does not carry).
  package var warnings: [String] = []

  /// Reads the report in `reportDirectory` and plans its acceptance into `goldenDirectory`
  /// (which must already hold a `manifest.json`).
  ///
  /// - Parameter caps: Every cap's option name (`timeout`, `max-frames`, …): recorded among the
  ///   goldens' parameters by an older Flick, they are limits, not the design
  ///   (``SnapshotManifest/ignoringLimits(caps:current:hash:)``, as `flick verify` reads them).
  /// - Throws: ``SnapshotError/invalidManifest(path:reason:)`` when the report or the goldens'
  ///   manifest is missing or unusable, or a frame does not fit the goldens;
  ///   ``SnapshotError/unsafePath(_:reason:)`` when a name in the report leaves its folder;
  ///   ``SnapshotError/unreadableImage(path:reason:)`` for a missing or corrupt `actual.png`.
  package init(
    report reportDirectory: String, goldens goldenDirectory: String, limits: DecodeLimits = .standard,
    caps: [String]
  ) throws(SnapshotError) {
    let summaryPath = (reportDirectory as NSString).appendingPathComponent("summary.json")
    guard
      let data = try ContainedPath.read(
        "summary.json", in: reportDirectory, what: "summary", source: reportDirectory,
        maximumBytes: ContainedPath.maximumTextBytes)
    else {
      throw .invalidManifest(
        path: summaryPath, reason: "no verification report here; pass the folder flick verify wrote (--report)")
    }
    let summary: SnapshotReport.Summary
    do {
      summary = try JSONDecoder().decode(SnapshotReport.Summary.self, from: data)
    } catch {
      throw .invalidManifest(path: summaryPath, reason: "not a flick verify summary: " + DecodingProblem.reason(error))
    }
    // A report that compared goldens of another renderer with this one's frames: accepting its
    // failed frames alone would leave goldens of two renderers (the frames that matched keep the
    // old one's), which verify refuses. The renderer update comes first, as a step of its own.
    if let recorded = summary.goldenRenderer, recorded != summary.renderer {
      throw .invalidManifest(
        path: summaryPath,
        reason:
          "the report compared goldens recorded with cairo \(quoted: recorded.cairo) with frames drawn with cairo "
          + "\(quoted: summary.renderer.cairo) (or another renderer difference): take the renderer update first "
          + "(flick accept --renderer --against the goldens' folder), then verify again and accept that report")
    }
    let manifestPath = (goldenDirectory as NSString).appendingPathComponent(SnapshotManifest.fileName)
    // Accepting lists and removes stored inputs: both `inputs/` folders must be real folders.
    _ = try SnapshotInputs.store(in: goldenDirectory)
    _ = try SnapshotInputs.store(in: reportDirectory)
    guard let recorded = try SnapshotManifest.read(from: goldenDirectory) else {
      throw .invalidManifest(
        path: manifestPath, reason: "no manifest here; make the goldens with flick snapshot first")
    }
    // The report's manifest becomes the goldens' manifest, so only a verify report has one to
    // give: a 'flick diff --report' folder has none.
    guard let verified = summary.manifest else {
      throw .invalidManifest(
        path: summaryPath,
        reason: "the report has no manifest, so it is not a 'flick verify' report (a 'flick diff --report' "
          + "folder?): accept the report of a failed 'flick verify TEMPLATE --against DIR --report REPORT'")
    }
    // Its names must stay in the folder.
    try verified.validate(path: summaryPath)
    // Caps an older Flick recorded among the goldens' parameters are limits, not their design:
    // read as verify reads them (the hash with the goldens' own stored parameter files).
    let old = recorded.ignoringLimits(caps: caps, current: verified.parameters) { parameters in
      Self.parameterHash(parameters, of: recorded, in: goldenDirectory)
    }
    if verified.template != old.template {
      throw .invalidManifest(
        path: summaryPath,
        reason: "the report verified \(quoted: verified.template), but the goldens are of \(quoted: old.template)")
    }
    // Made against these goldens: the renderer it says their goldens had is their manifest's.
    guard let compared = summary.goldenRenderer, compared == old.renderer else {
      throw .invalidManifest(
        path: summaryPath,
        reason: "the report was not made against these goldens: the renderer of the goldens it compared ("
          + "\(quoted: summary.goldenRenderer.map { old.renderer.differences(from: $0).joined(separator: ", ") } ?? "none given")"
          + ") is not the one \(quoted: manifestPath) names")
    }
    let target = verified
    try Self.checkListedOnce(summary.frames.map(\.name), summaryPath: summaryPath)
    var accepted: [Frame] = []
    var skipped: [(name: String, reason: String)] = []
    var images: [(source: String, golden: String, bytes: Data)] = []
    var motion: Data?
    for frame in summary.frames {
      switch frame.status {
      case .match, .recorded: continue
      case .error, .unreadable, .unlisted:
        skipped.append((frame.name, frame.message))
        continue
      case .changed, .sizeMismatch, .missing: break
      }
      if frame.name == MotionGolden.verdictName, let artifact = frame.artifacts["motion"] {
        // The motion golden the verification computed: checked before it is taken.
        let source = (reportDirectory as NSString).appendingPathComponent(artifact)
        guard
          let data = try ContainedPath.read(
            artifact, in: reportDirectory, what: "artefact", source: summaryPath,
            maximumBytes: ContainedPath.maximumTextBytes),
          (try? MotionGolden(text: String(decoding: data, as: UTF8.self))) != nil
        else { throw .invalidManifest(path: source, reason: "not a motion golden") }
        try Self.checkWritten(data, frame, "motion", path: source, summaryPath: summaryPath)
        motion = data
        accepted.append(
          Frame(
            name: frame.name, status: frame.status, message: frame.message,
            golden: (goldenDirectory as NSString).appendingPathComponent(MotionGolden.fileName)))
        continue
      }
      guard ContainedPath.isPlainName(frame.name) else {
        throw .unsafePath(
          "frame name '\(quoted: frame.name)' in \(quoted: summaryPath)", reason: "it is not a plain file name")
      }
      // Each accepted golden is one the report's manifest lists (what accepting writes).
      guard verified.frames.contains(where: { $0.file == "\(frame.name).png" }) else {
        throw .invalidManifest(
          path: summaryPath, reason: "frame \(quoted: frame.name) is not one of the frames its manifest lists")
      }
      guard let artifact = frame.artifacts["actual"] else {
        skipped.append((frame.name, "the report has no actual.png for it"))
        continue
      }
      // Only files inside the report folder are read: no absolute paths, no '..', no links out.
      let source = try ContainedPath.resolve(artifact, in: reportDirectory, what: "artefact", source: summaryPath)
      let image = try PNGImage(contentsOf: source, limits: limits)
      guard image.width == target.width, image.height == target.height else {
        throw .invalidManifest(
          path: source,
          reason: "it is \(image.width)×\(image.height), the goldens are \(target.width)×\(target.height)")
      }
      // The renderer is what the image itself says (its 'flick-renderer' chunk), never the
      // report's words: it must be the goldens' own, as every golden of a folder shares one.
      guard let drawnBy = image.renderer, drawnBy == old.renderer else {
        throw .invalidManifest(
          path: source,
          reason: image.renderer == nil
            ? "it carries no renderer fingerprint ('flick-renderer' chunk), so it is not a frame flick verify drew"
            : "its own renderer fingerprint is not the goldens' (\(quoted: image.renderer.map { old.renderer.differences(from: $0).joined(separator: ", ") } ?? "")): take the renderer update first (flick accept --renderer --against the goldens' folder)"
        )
      }
      // After the checks of what it is: the one its summary's run wrote.
      try Self.checkWritten(image.fileBytes ?? Data(), frame, "actual", path: source, summaryPath: summaryPath)
      let golden = try ContainedPath.resolve(
        "\(frame.name).png", in: goldenDirectory, what: "golden", source: summaryPath)
      // The bytes decoded are the bytes accepted: the file is not read again.
      images.append((source, golden, image.fileBytes ?? Data()))
      accepted.append(Frame(name: frame.name, status: frame.status, message: frame.message, golden: golden))
    }

    // Entries of goldens the report did not cover stay; the report's own come after them.
    var manifest = target
    // Every accepted image carries the goldens' renderer (checked above).
    manifest.renderer = old.renderer
    let kept = old.frames.filter { entry in !verified.frames.contains { $0.file == entry.file } }
    manifest.frames = kept + verified.frames
    // A report older than the template it verified: its frames may not be what the template draws now.
    if let templatePath = summary.templatePath {
      warnings += Self.templateWarnings(templatePath, verified: verified, summaryPath: summaryPath)
    }
    // The accepted manifest's stored inputs, each checked against its hash: the goldens' own when
    // they store it already, else the report's; a report without them gives goldens without
    // inputs (said), never a manifest naming files the goldens folder does not hold.
    if let inputs = manifest.inputs {
      do {
        for file in inputs.files {
          if let own = try? SnapshotInputs.bytes(of: file, in: goldenDirectory) {
            blobs[file.sha256] = own
          } else {
            blobs[file.sha256] = try SnapshotInputs.bytes(of: file, in: reportDirectory)
          }
        }
      } catch {
        warnings.append(
          "the report does not carry the verified inputs (\(error.description)); the goldens will store none")
        manifest.inputs = nil
        blobs = [:]
      }
    }
    if let motion {
      let bytes = [UInt8](motion)
      manifest.motion = SnapshotInputs.File(
        path: MotionGolden.fileName, sha256: SHA256.hex(bytes), bytes: bytes.count)
      self.motion = motion
    }
    self.accepted = accepted
    self.skipped = skipped
    self.manifest = manifest
    self.images = images
    self.goldenDirectory = goldenDirectory
    previous = old
    verifiedInputs = verified.inputs
    matched = Set(
      summary.frames.filter { $0.status == .match }.map { "\($0.name).png" }.filter { name in
        verified.frames.contains { $0.file == name }
      })
    try checkCovered()
  }

  /// The parameter hash of `parameters` with the parameter files `manifest` stores in
  /// `goldens` (``SnapshotManifest/parameterHash(_:files:)``), or nil when it names parameter
  /// files it does not store (or stored ones are damaged).
  static func parameterHash(_ parameters: [String], of manifest: SnapshotManifest, in goldens: String) -> String? {
    guard let stored = manifest.inputs?.parameterFiles else {
      return parameters.contains { $0.hasPrefix("--params=") }
        ? nil : SnapshotManifest.parameterHash(parameters, files: [])
    }
    var files: [[UInt8]] = []
    for file in stored {
      guard let bytes = try? SnapshotInputs.bytes(of: file, in: goldens) else { return nil }
      files.append([UInt8](bytes))
    }
    return SnapshotManifest.parameterHash(parameters, files: files)
  }

  /// This plan restricted to the failed frames named `names` (`flick accept --frame`, the
  /// studio's per-frame accept): only their goldens are written; every other golden and its
  /// manifest entry stay as they are (a frame not accepted keeps its previous entry, or none
  /// when it had no golden yet).
  ///
  /// - Throws: ``SnapshotError/invalidManifest(path:reason:)`` naming a frame that is not one
  ///   of ``accepted`` (it passed, was skipped or is not in the report).
  package func selecting(_ names: [String]) throws(SnapshotError) -> ReportAcceptance {
    let known = accepted.map(\.name)
    if let unknown = names.first(where: { !known.contains($0) }) {
      throw .invalidManifest(
        path: (goldenDirectory as NSString).appendingPathComponent(SnapshotManifest.fileName),
        reason: "\(quoted: unknown) is not a failed frame of the report; failed: \(MessageText.list(known))")
    }
    let wanted = Set(names)
    var plan = self
    plan.accepted = accepted.filter { wanted.contains($0.name) }
    let goldens = Set(plan.accepted.map(\.golden))
    plan.images = images.filter { goldens.contains($0.golden) }
    if !wanted.contains(MotionGolden.verdictName) {
      plan.motion = nil
      plan.manifest.motion = previous.motion
    }
    let declined = Set(known.filter { !wanted.contains($0) }.map { "\($0).png" })
    plan.manifest.frames = manifest.frames.compactMap { entry in
      guard declined.contains(entry.file) else { return entry }
      return previous.frames.first { $0.file == entry.file }
    }
    try plan.checkCovered()
    return plan
  }

  /// Refuses a plan whose manifest would name a design (template, parameters, stored inputs,
  /// scale or size) that some golden it lists was not drawn from: every golden must be accepted
  /// here or have matched in the report
  /// (``SnapshotManifest/checkCovers(previous:rewritten:matched:path:advice:)``).
  private func checkCovered() throws(SnapshotError) {
    var claimed = manifest
    claimed.inputs = verifiedInputs
    try claimed.checkCovers(
      previous: previous, rewritten: Set(images.map { ($0.golden as NSString).lastPathComponent }),
      matched: matched, path: (goldenDirectory as NSString).appendingPathComponent(SnapshotManifest.fileName),
      advice: "accept the whole report of a 'flick verify' of every frame the goldens list (no '--at' subset, "
        + "no '--frame'), or record them all with 'flick verify --record all'")
  }

  /// Copies the accepted frames over the goldens and writes the manifest, all or nothing
  /// (``SnapshotCommit``: temporary files first, renamed only when every one is written).
  ///
  /// - Throws: ``SnapshotError/unwritableFile(path:reason:)``; the goldens are then unchanged.
  package func apply() throws(SnapshotError) {
    guard !images.isEmpty || motion != nil else { return }
    try manifest.validate(path: (goldenDirectory as NSString).appendingPathComponent(SnapshotManifest.fileName))
    var encoded: [(name: String, bytes: Data)] = []
    if let motion { encoded.append((MotionGolden.fileName, motion)) }
    for (_, golden, bytes) in images { encoded.append(((golden as NSString).lastPathComponent, bytes)) }
    try SnapshotCommit(directory: goldenDirectory, encoded: encoded, manifest: manifest, blobs: blobs).apply()
  }
}

extension ReportAcceptance {
  /// Refuses a report that lists a frame twice (names compared as a case-insensitive file
  /// system compares `<name>.png`): both copies would be written over one golden.
  ///
  /// - Throws: ``SnapshotError/unsafePath(_:reason:)`` naming the frame and the summary.
  static func checkListedOnce(_ names: [String], summaryPath: String) throws(SnapshotError) {
    var seen: Set<String> = []
    for name in names where !seen.insert(name.lowercased()).inserted {
      throw .unsafePath("frame '\(quoted: name)' in \(quoted: summaryPath)", reason: "it is listed twice")
    }
  }

  /// What to say about the template the report verified (`templatePath` in its summary), when it
  /// changed since: the accepted frames are then not what it draws now.
  ///
  /// The report is untrusted, so the path it names is read only as a plain relative path inside
  /// the current folder (where `flick verify` ran: the repository's root), checked like every
  /// path of a report (``ContainedPath/read(_:in:what:source:maximumBytes:)``: no absolute path,
  /// no `..`, no link out, a regular file of at most the template cap). A path that does not
  /// qualify is not read; the warning says the check was skipped.
  static func templateWarnings(_ templatePath: String, verified: SnapshotManifest, summaryPath: String) -> [String] {
    let current = FileManager.default.currentDirectoryPath
    let bytes: Data?
    do {
      bytes = try ContainedPath.read(
        templatePath, in: current, what: "template", source: summaryPath,
        maximumBytes: TemplateLimits().maximumFileBytes)
    } catch {
      let reason: String
      switch error {
      case .unsafePath(_, let why), .invalidManifest(_, let why): reason = why
      default: reason = error.description
      }
      return [
        "the template the report names ('\(quoted: templatePath)') is not read (\(escaped: reason)): whether the "
          + "accepted frames are what it draws now is not checked"
      ]
    }
    guard let bytes, SnapshotManifest.hash([UInt8](bytes)) != verified.templateHash else { return [] }
    return [
      "\(quoted: templatePath) changed since this report was made: the accepted frames are what the report "
        + "verified, not what the template draws now; verify again before committing"
    ]
  }
}
