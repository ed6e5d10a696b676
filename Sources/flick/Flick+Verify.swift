import FlickMotion
import FlickRaster
import FlickSnapshot
import FlickTemplates
import Foundation

extension Flick {
  /// `flick verify TEMPLATE --against DIR`
  enum Verify {
    static let help = """
      USAGE: flick verify TEMPLATE --against DIR [tolerance options] [--record MODE] [--report DIR]
                          [--at TIMES] [--scale S]

      Renders TEMPLATE at the times (and scale) in DIR/manifest.json and compares each frame with
      its golden DIR/<label>.png. Exit 0 when all match, 1 on a mismatch, a missing or a recorded
      golden, 2 on invalid input, 3 when a comparison could not run (never counted as a pass).
      'flick accept REPORT --against DIR' makes a failed run's frames the goldens (from CI).

      \(Diff.toleranceHelp)
      RECORDING
        verify never writes goldens unless asked, and never when CI is set (use 'flick accept').
        --record MODE          missing: write missing goldens · failed: rewrite failing ones ·
                               all: rewrite every golden · none (default): never write.
                               A run that writes a golden exits 1: look at it, then verify again.
      REPORTS
        --report DIR           where failing frames' images and index.html, junit.xml, summary.json go
                               (default: $FLICK_ARTIFACTS/<template>, else flick-report/<template>,
                               only on failure unless --report is given). Flick writes only into a
                               new or empty folder, or one it wrote before.
        --at TIMES, --scale S  override the manifest (see 'flick snapshot --help')
        --max-memory B         memory cap, estimated up front and watched (default 8G; FLICK_MAX_MEMORY;
                               exit 2 up front, 3 when the watch stops the process)
      TEMPLATE OPTIONS
      \(Flick.templateOptionsHelp)
      """

    static func run(_ args: [String]) throws {
      let a = try Arguments(
        args,
        valued: Flick.templateOptions.union(Diff.toleranceOptions).union(["against", "record", "report", "at", "scale"])
          .union(Limits.frameCaps.map(\.option)),
        flags: Flick.templateFlags.union(Diff.toleranceFlags).union(["help", "h"]))
      if a.has("help") || a.has("h") {
        print(help)
        return
      }
      guard a.positionals.count == 1, let path = a.positionals.first else {
        throw CommandError.usage("verify needs one TEMPLATE")
      }
      guard let against = a.value("against") else {
        throw CommandError.usage("verify needs the golden folder: --against DIR")
      }
      let options = try Diff.options(a)
      let limits = try Diff.limits(a)
      let environment = ProcessInfo.processInfo.environment
      var record = RecordMode.none
      if let text = a.value("record") {
        guard let m = RecordMode(text: text) else {
          throw CommandError.usage("--record expects missing, all, failed or none, found '\(quoted: text)'")
        }
        record = m
      }
      if let text = environment["FLICK_RECORD"], !text.isEmpty, a.value("record") == nil {
        log("note: FLICK_RECORD is for assertFrameSnapshot; verify writes goldens only with --record")
      }
      if record != .none && RecordMode.defaultMode(environment: environment) == .none {
        throw CommandError(
          message: "refusing to record goldens in CI (CI is set): verify there with --record none, then "
            + "'flick accept' its report where the goldens are committed", code: .invalidInput)
      }
      let manifest: SnapshotManifest?
      do {
        manifest = try SnapshotManifest.read(from: against)
      } catch {
        throw CommandError(message: error.description, code: .invalidInput)
      }
      let times =
        try a.value("at").map(Snapshot.parseTimes) ?? manifest?.frames.map(\.time)
        ?? Snapshot.parseTimes(Snapshot.defaultTimes)
      let scale = try Snapshot.parseScale(a.value("scale")) ?? manifest?.scale
      let template = try loadTemplate(path, a)
      let resolved = try Snapshot.resolve(times, in: template)
      try Limits.checkFrame(template.scene, scale: scale ?? 1, a)

      if let manifest {
        let parameters = Snapshot.parameters(a)
        if manifest.parameters != parameters {
          log(
            "note: goldens were made with parameters [\(quoted: manifest.parameters.joined(separator: " "))], "
              + "now [\(quoted: parameters.joined(separator: " "))]")
        }
        if let bytes = FileManager.default.contents(atPath: try Flick.templatePath(path)),
          SnapshotManifest.hash(bytes) != manifest.templateHash
        {
          log("note: the template file changed since the goldens were made (\(quoted: manifest.template))")
        }
        let drift = RendererFingerprint.current.differences(from: manifest.renderer)
        if !drift.isEmpty {
          log("note: goldens come from a different renderer: \(quoted: drift.joined(separator: ", "))")
        }
      }

      let explicitReport = a.value("report")
      // The template's name comes from the template: made a plain folder name before use.
      let folderName = ContainedPath.sanitized(template.name, fallback: "template")
      let reportDir =
        explicitReport ?? environment["FLICK_ARTIFACTS"].flatMap { $0.isEmpty ? nil : $0 }.map {
          ($0 as NSString).appendingPathComponent(folderName)
        } ?? "flick-report/\(folderName)"
      try Diff.checkReportFolder(reportDir)
      let verifier = GoldenVerifier(comparator: ImageComparator(options: options, limits: limits), record: record)
      var verdicts: [FrameVerdict] = []
      var entries: [SnapshotManifest.Entry] = []
      var size = (width: 0, height: 0)
      for (time, seconds) in resolved {
        let file = SnapshotManifest.fileName(for: time)
        let golden: String
        do {
          golden = try ContainedPath.resolve(file, in: against, what: "golden", source: against)
        } catch {
          throw CommandError(message: error.description, code: .invalidInput)
        }
        let frame: Result<Frame, SnapshotError>
        do {
          let f = try Snapshot.render(template, at: seconds, scale: scale)
          size = (f.width, f.height)
          frame = .success(f)
        } catch {
          frame = .failure(.renderFailed(error.message))
        }
        verdicts.append(
          verifier.verify(
            frame, goldenPath: golden, goldenRenderer: manifest?.renderer, name: time.label, time: time.description,
            seconds: seconds,
            artifactsDirectory: reportDir))
        entries.append(SnapshotManifest.Entry(time: time, seconds: seconds, file: file))
      }
      // Goldens were written: keep the manifest in step with them.
      let wrote = verdicts.contains { $0.status == .recorded }
      if wrote {
        // Keep the entries of goldens this run did not touch (other times recorded earlier).
        let kept = (manifest?.frames ?? []).filter { old in
          !entries.contains { $0.file == old.file }
            && FileManager.default.fileExists(atPath: (against as NSString).appendingPathComponent(old.file))
        }
        let updated = try Snapshot.makeManifest(path, a, template, scale: scale, size: size, frames: kept + entries)
        do {
          try updated.write(to: against)
        } catch {
          throw CommandError(message: error.description, code: .environment)
        }
      }
      let anyFailed = verdicts.contains { !$0.isPass }
      // What the goldens' manifest becomes if this run's frames are accepted (flick accept).
      let verified =
        size.width > 0 ? try Snapshot.makeManifest(path, a, template, scale: scale, size: size, frames: entries) : nil
      try Diff.finish(
        title: template.name, verdicts: verdicts, options: options, goldenRenderer: manifest?.renderer,
        reportDir: reportDir, writeReport: explicitReport != nil || anyFailed, goldenManifest: manifest,
        manifest: verified)
    }
  }
}
