import FlickMotion
import FlickRaster
import FlickSnapshot
import Foundation

extension Flick {
  /// `flick accept REPORT --against DIR`
  enum Accept {
    static let help = """
      USAGE: flick accept REPORT --against DIR [--frame NAME]... [--dry-run]
             flick accept [REPORT] --renderer --against DIR [--dry-run]

      Makes the actual frames of a failed 'flick verify' the new goldens: every failing or missing
      frame's REPORT/<frame>/actual.png is copied over DIR/<frame>.png, and DIR/manifest.json takes
      the template, parameters, times and renderer of the verification. Frames that matched are
      left alone; frames whose comparison could not run are never accepted.

      Goldens should come from the machine that checks them. When verify fails in CI, download
      its report folder (--report, or $FLICK_ARTIFACTS/<template>) and accept it here; look at
      the new goldens before committing them.

        --renderer      accept a renderer update instead: the goldens re-rendered from the inputs
                        they store take the renderer's fingerprint; the template, its parameters and
                        assets (the design) are untouched. With REPORT (a passing 'flick verify'
                        report of every golden that found drift, e.g. from CI), its re-rendered
                        goldens are copied;
                        without, they are re-rendered here (run it where the goldens are checked).
        --against DIR   the goldens folder (it must hold a manifest.json)
        --frame NAME    accept only this failed frame (repeat for more); the other goldens and
                        their manifest entries stay as they are. When the report verified another
                        design (template, parameters, inputs, scale) than the goldens' manifest
                        names, every golden must come from the report: accept it whole
        --dry-run       list what would be accepted and change nothing
        --max-image-pixels N, --max-image-bytes N   decode limits (see 'flick diff --help')
        --max-frames N, --max-work N, --max-memory B, --frame-timeout T
                        the caps of --renderer without REPORT, which draws every golden the
                        manifest lists: checked before the first is drawn (exit 2, nothing
                        changed; see 'flick verify --help'; FLICK_MAX_FRAMES, FLICK_MAX_WORK,
                        FLICK_MAX_MEMORY, FLICK_FRAME_TIMEOUT)

      REPORT must be a 'flick verify' report made against DIR's goldens, each accepted frame one
      its manifest lists; the goldens take the renderer their PNGs carry. Every name in the report
      (frames, artefact paths, the manifest's files) must stay inside its folder: absolute paths,
      '..' and links out of the folder are refused (exit 2).

      Exit 0 when accepted (or nothing to accept), 2 when the report or a frame does not fit the
      goldens, 3 when a file cannot be read or written.
      """

    static func run(_ args: [String]) throws {
      let a = try Arguments(
        args, valued: Set(["against", "frame", "max-image-pixels", "max-image-bytes"] + Limits.listCaps.map(\.option)),
        flags: ["help", "h", "dry-run", "renderer"], repeatable: Arguments.repeatable.union(["frame"]),
        checks: Diff.toleranceChecks.filter { ["max-image-pixels", "max-image-bytes"].contains($0.key) }
          .merging(Limits.checks(Limits.listCaps)) { a, _ in a })
      if a.has("help") || a.has("h") {
        StandardStream.writeOutputLine(help)
        return
      }
      if a.has("renderer") {
        guard a.positionals.count <= 1 else { throw CommandError.usage("accept --renderer takes at most one REPORT") }
        guard let goldens = a.value("against") else {
          throw CommandError.usage("accept needs the golden folder: --against DIR")
        }
        return try acceptRenderer(
          goldens, report: a.positionals.first, limits: try Diff.limits(a), dryRun: a.has("dry-run"), a)
      }
      guard a.positionals.count == 1, let report = a.positionals.first else {
        throw CommandError.usage("accept needs one REPORT folder (what flick verify wrote with --report)")
      }
      guard let goldens = a.value("against") else {
        throw CommandError.usage("accept needs the golden folder: --against DIR")
      }
      let limits = try Diff.limits(a)
      var plan: ReportAcceptance
      do {
        plan = try ReportAcceptance(report: report, goldens: goldens, limits: limits, caps: Snapshot.capOptions)
        let frames = a.all("frame")
        if !frames.isEmpty { plan = try plan.selecting(frames) }
      } catch {
        throw CommandError(message: error.description, code: error.isInvalidInput ? .invalidInput : .environment)
      }
      for (name, reason) in plan.skipped { log("skipped \(quoted: name): \(escaped: reason)") }
      for warning in plan.warnings { log("warning: \(escaped: warning)") }
      guard !plan.accepted.isEmpty else {
        log("nothing to accept: no frame of \(quoted: report) failed")
        return
      }
      let dryRun = a.has("dry-run")
      for frame in plan.accepted {
        log(
          "\(dryRun ? "would accept" : "accepted") \(quoted: frame.name) (\(frame.status.rawValue): \(escaped: frame.message)) → \(quoted: frame.golden)"
        )
      }
      if dryRun { return }
      do {
        try plan.apply()
      } catch {
        throw CommandError(message: error.description, code: error.isInvalidInput ? .invalidInput : .environment)
      }
      log(
        "\(plan.accepted.count) golden\(plan.accepted.count == 1 ? "" : "s") updated in \(quoted: goldens); manifest.json now "
          + "names \(quoted: plan.manifest.template) rendered with cairo \(quoted: plan.manifest.renderer.cairo)")
    }

    /// `flick accept --renderer --against DIR`
    static func acceptRenderer(
      _ goldens: String, report: String?, limits: DecodeLimits, dryRun: Bool, _ a: Arguments
    ) throws {
      let update: RendererUpdate
      do {
        if let report {
          update = try RendererUpdate(report: report, goldens: goldens, limits: limits)
        } else {
          // Every golden the manifest lists is drawn: checked against the frame, work and memory
          // caps once the stored template has loaded, before the first is.
          update = try RendererUpdate(
            goldens: goldens, limits: limits, tracking: .cleanup,
            refusal: { scene, scale, count in Limits.rerenderRefusal(count, scene, scale, a, watch: true) })
        }
      } catch {
        throw CommandError(message: error.description, code: error.isInvalidInput ? .invalidInput : .environment)
      }
      let drift = RendererFingerprint.current.differences(from: update.previous.renderer)
      for golden in update.goldens {
        log(
          "\(dryRun ? "would re-render" : "re-rendered") \(quoted: golden.file): "
            + "\(escaped: golden.drift?.summary ?? "the recorded golden does not decode or has another size")")
      }
      if dryRun { return }
      do {
        try update.apply()
      } catch {
        throw CommandError(message: error.description, code: error.isInvalidInput ? .invalidInput : .environment)
      }
      log(
        "\(update.goldens.count) goldens re-rendered in \(quoted: goldens) from their stored inputs; renderer "
          + (drift.isEmpty ? "unchanged" : "updated: \(escaped: drift.joined(separator: ", "))"))
    }
  }
}
