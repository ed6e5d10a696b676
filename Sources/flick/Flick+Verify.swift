import Dispatch
import FlickMotion
import FlickRaster
import FlickScene
import FlickSnapshot
import FlickTemplates
import FlickVideo
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
      A DIR holding goldens (PNGs, motion.txt, inputs/) but no manifest.json is refused (exit 2):
      record them again with 'flick snapshot'.

      \(Diff.toleranceHelp)
      RECORDING
        verify never writes goldens unless asked, and never when CI is set (use 'flick accept').
        --record MODE          missing: write missing goldens · failed: rewrite failing ones ·
                               all: rewrite every golden · none (default): never write.
                               A run that writes a golden exits 1: look at it, then verify again.
                               When the template, parameters or scale changed, every golden the
                               manifest lists must be rewritten or match (else exit 2, nothing written).
      REPORTS
        --report DIR           where failing frames' images and index.html, junit.xml, summary.json go
                               (default: $FLICK_ARTIFACTS/<template>, else flick-report/<template>,
                               only on failure unless --report is given). Flick writes only into a
                               new or empty folder, or one it wrote before, whose earlier report
                               it removes first.
        --at TIMES, --scale S  override the manifest (see 'flick snapshot --help'); --at all: every frame
        --motion               check only the motion golden (DIR/motion.txt, from 'flick snapshot --motion'):
                               every animated property's value and velocity, number by number (relative
                               tolerance 1e-6 of its travel), without rendering. Without --motion, verify
                               checks the motion golden too when there is one.
        --max-frames N         most frames one run draws: the times listed (default 216000;
                               FLICK_MAX_FRAMES; exit 2 before any frame is drawn, nothing written)
        --max-work N           most pixels drawn: frames × pixels × motion-blur samples (default 1e12;
                               FLICK_MAX_WORK; exit 2 up front). Across a renderer change the stored
                               inputs' frames are drawn too, and checked the same way
        --max-memory B         memory cap, estimated up front and watched (default 8G; FLICK_MAX_MEMORY;
                               exit 2 up front, 3 when the watch stops the process)
        --frame-timeout T      stop when one frame takes longer than T to draw (default 120s;
                               FLICK_FRAME_TIMEOUT; exit 3)
      TEMPLATE OPTIONS
      \(Flick.templateOptionsHelp)
      """

    static func run(_ args: [String]) throws {
      let a = try Arguments(
        args,
        valued: Flick.templateOptions.union(Diff.toleranceOptions).union(["against", "record", "report", "at", "scale"])
          .union(Limits.listCaps.map(\.option)),
        flags: Flick.templateFlags.union(Diff.toleranceFlags).union(["help", "h", "motion"]),
        checks: Snapshot.timeChecks.merging(Diff.toleranceChecks) { a, _ in a }
          .merging(Limits.checks(Limits.listCaps)) { a, _ in a })
      if a.has("help") || a.has("h") {
        StandardStream.writeOutputLine(help)
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
      // nil only for a folder without goldens (to record into): goldens without their manifest
      // are refused, since deleting it would turn off every check it drives.
      var manifest: SnapshotManifest?
      do {
        manifest = try SnapshotManifest.readGoldens(from: against)
      } catch {
        throw CommandError(message: error.description, code: .invalidInput)
      }
      // Caps an older Flick recorded among the parameters are limits, not the goldens' design.
      if let read = manifest { manifest = try Snapshot.ignoringLimits(read, a) }
      let scale = try Snapshot.parseScale(a.value("scale")) ?? manifest?.scale
      let assetLog = AssetLog()
      let source = try readSource(path, a)
      let template = try loadTemplate(path, a, assetLog: assetLog, source: source)
      let times =
        try a.value("at").map { text throws(CommandError) in try Snapshot.parseTimes(text, scene: template.scene) }
        ?? manifest?.frames.map(\.time) ?? Snapshot.parseTimes(Snapshot.defaultTimes)
      let resolved = try Snapshot.resolve(times, in: template)
      // Every frame the list names is drawn (and, across a renderer change, drawn again from the
      // stored inputs): the list is checked against the frame and work caps before any is.
      let listing =
        a.value("at") != nil
        ? "--at lists"
        : manifest != nil
          ? "'\(quoted: (against as NSString).appendingPathComponent(SnapshotManifest.fileName))' lists"
          : "--at (default \(Snapshot.defaultTimes)) lists"
      try Limits.checkFrames(
        a.has("motion") ? 0 : resolved.count, of: template.scene, scale: scale ?? 1, listing: listing,
        part: Snapshot.fewerTimes, a)
      // Every note goes to the terminal and into the report.
      var notes: [String] = []
      func note(_ text: String) {
        log(text)
        notes.append(text)
      }
      if let text = environment["FLICK_RECORD"], !text.isEmpty, a.value("record") == nil {
        notes.append("note: FLICK_RECORD is for assertFrameSnapshot; verify writes goldens only with --record")
      }
      let captured = try Snapshot.captureInputs(source, a, assetLog, note: note)
      var references: StoredRendering?
      defer { references?.removeFolder() }  // not left to the workers' last release
      if let manifest {
        let parameters = Snapshot.parameters(a)
        if manifest.parameters != parameters {
          note(
            "note: goldens were made with parameters [\(quoted: manifest.parameters.joined(separator: " "))], "
              + "now [\(quoted: parameters.joined(separator: " "))]")
        }
        if SnapshotManifest.hash(source.head.bytes) != manifest.templateHash {
          note("note: the template file changed since the goldens were made (\(quoted: manifest.template))")
        }
        // The goldens' renderer is what their own PNGs say; a manifest that disagrees is refused.
        let recordedBy = try recordedRenderer(manifest, against, limits: limits)
        if recordedBy == nil && !manifest.frames.isEmpty {
          note(
            "note: no golden carries a renderer fingerprint ('flick-renderer' chunk): their renderer is unknown, "
              + "so they are compared with the golden PNGs as they are (\(options.mode == .perceptual ? "perceptually, as asked" : "exactly"))"
          )
        }
        let drift = recordedBy.map { RendererFingerprint.current.differences(from: $0) } ?? []
        if !drift.isEmpty {
          note("note: goldens come from a different renderer: \(quoted: drift.joined(separator: ", "))")
          if a.has("motion") {
            // Motion goldens are numbers: no renderer is involved.
          } else if let inputs = manifest.inputs {
            note(
              "note: re-rendering the goldens' stored inputs with this renderer; frames are compared with those "
                + "(\(options.mode == .perceptual ? "perceptually, as asked" : "exactly")), the renderer's drift "
                + "is reported apart ('flick accept --renderer --against DIR' takes it in)")
            let granted = a.has("allow-outside-assets")
            if inputs.allowOutsideAssets && !granted {
              note(
                "note: the goldens' manifest says their template was loaded with --allow-outside-assets; a "
                  + "manifest never grants it: the stored inputs are re-rendered from their own files only "
                  + "(give --allow-outside-assets to grant it)")
            }
            do {
              references = try inputs.rerender(
                from: against, at: resolved.map(\.0), scale: scale ?? manifest.scale, allowOutsideAssets: granted,
                tracking: .cleanup, refusal: { scene, scale, count in Limits.rerenderRefusal(count, scene, scale, a) })
            } catch SnapshotError.renderFailed(let reason) where options.mode != .exact {
              // Stored inputs that are whole but do not load here (a parameter file naming files
              // beside it): the goldens are compared as old goldens are, and said so.
              note(
                "WARNING: the goldens' stored inputs cannot be re-rendered (\(escaped: reason)): comparing "
                  + "PERCEPTUALLY (threshold \(options.threshold), ΔE_OK > \(options.colorJND) counts); re-record "
                  + "them with 'flick snapshot' to compare exactly across renderers")
            } catch {
              throw CommandError(message: error.description, code: error.isInvalidInput ? .invalidInput : .environment)
            }
          } else if options.mode != .exact {
            note(
              "WARNING: these goldens store no inputs (recorded before Flick stored them), so they cannot be "
                + "re-rendered: comparing PERCEPTUALLY (threshold \(options.threshold), ΔE_OK > \(options.colorJND) "
                + "counts); re-record them with 'flick snapshot' to compare exactly across renderers")
          }
        }
      }

      let explicitReport = a.value("report")
      // The template's name comes from the template: made a plain folder name before use.
      let folderName = ContainedPath.sanitized(template.name, fallback: "template")
      let reportDir =
        explicitReport ?? environment["FLICK_ARTIFACTS"].flatMap { $0.isEmpty ? nil : $0 }.map {
          ($0 as NSString).appendingPathComponent(folderName)
        } ?? "flick-report/\(folderName)"
      let made = try Diff.prepareReportFolder(reportDir)
      defer { if let made { Cleanup.shared.remove(folder: made) } }
      var verifier = GoldenVerifier(comparator: ImageComparator(options: options, limits: limits), record: record)
      if explicitReport != nil { try verifier.claim(reportDir) }  // written whatever the verdicts
      // Recorded goldens are written after the run, with their manifest, once it describes them.
      let recording = RecordedGoldens(tracking: .cleanup)
      defer { recording.discard() }
      verifier.recordInstead = recording.writer
      var verdicts: [FrameVerdict] = []
      var entries: [SnapshotManifest.Entry] = []
      var size = (width: 0, height: 0)
      let motion = try motionComparison(manifest, against, template, only: a.has("motion"))
      if let motion { verdicts.append(motionVerdict(motion, against, template: template, reportDir: reportDir)) }
      // Frames render and compare on parallel workers (each takes the next frame, and draws its
      // re-rendered golden then: no frame is held past its comparison); verdicts keep the order.
      let work = a.has("motion") ? [] : resolved
      var goldens: [String] = []
      for (time, _) in work {
        do {
          goldens.append(
            try ContainedPath.resolve(
              SnapshotManifest.fileName(for: time), in: against, what: "golden", source: against))
        } catch {
          throw CommandError(message: error.description, code: .invalidInput)
        }
      }
      let goldenPaths = goldens, rerendered = references, checker = verifier
      let results = Locked<[(verdict: FrameVerdict, size: (width: Int, height: Int)?)?]>(
        Array(repeating: nil, count: work.count))
      let next = Locked(0)
      let workers = max(1, min(work.count, MachineCPUs.usable, 4))
      // Threads of their own with 8 MiB of stack, as every drawing thread (a queue's workers get
      // the system's default, 2 MiB when the stack limit is unlimited): a tree at
      // `Layer.maximumDrawingDepth` draws on them.
      let tasks = (0..<workers).map { _ in
        BackgroundTask {
          while true {
            let i = next.withLock { n -> Int in
              defer { n += 1 }
              return n
            }
            guard i < work.count else { return }
            let (time, seconds) = work[i]
            let frame: Result<Frame, SnapshotError>
            var frameSize: (width: Int, height: Int)?
            do {
              let f = try Snapshot.render(template, at: seconds, scale: scale)
              frameSize = (f.width, f.height)
              frame = .success(f)
            } catch let error as CommandError {
              frame = .failure(.renderFailed(error.message))
            } catch {
              frame = .failure(.renderFailed("\(escaped: error)"))
            }
            let verdict = checker.verify(
              frame, goldenPath: goldenPaths[i], name: time.label,
              time: time.description, seconds: seconds, artifactsDirectory: reportDir,
              reference: rerendered?.frame(i).frame)
            results.withLock { $0[i] = (verdict, frameSize) }
          }
        }
      }
      for task in tasks { try? task.wait() }
      var matched: Set<String> = []
      for (i, result) in results.withLock({ $0 }).enumerated() {
        guard let result else { continue }
        verdicts.append(result.verdict)
        if let s = result.size { size = s }
        let file = SnapshotManifest.fileName(for: work[i].0)
        if result.verdict.status == .match { matched.insert(file) }
        entries.append(SnapshotManifest.Entry(time: work[i].0, seconds: work[i].1, file: file))
      }
      // Goldens were recorded: the manifest they are written with lists them beside the entries
      // of goldens this run did not touch (other times recorded earlier).
      var updated: SnapshotManifest?
      if !recording.names.isEmpty {
        let kept = (manifest?.frames ?? []).filter { old in
          !entries.contains { $0.file == old.file }
            && FileManager.default.fileExists(atPath: (against as NSString).appendingPathComponent(old.file))
        }
        updated = try Snapshot.makeManifest(
          source, a, template, scale: scale, size: size, frames: kept + entries, inputs: captured?.inputs)
        updated?.motion = manifest?.motion
      }
      if let manifest { verdicts += unlistedGoldens(in: against, manifest: updated ?? manifest) }
      if let updated {
        try commitRecorded(
          recording, updated, previous: manifest, matched: matched, against: against,
          blobs: captured?.blobs ?? [:])
      }
      let anyFailed = verdicts.contains { !$0.isPass }
      // What the goldens' manifest becomes if this run's frames are accepted (flick accept).
      var verified =
        size.width > 0
        ? try Snapshot.makeManifest(
          source, a, template, scale: scale, size: size, frames: entries, inputs: captured?.inputs) : nil
      // A motion-only run verified no frame: accepting it changes the motion golden alone.
      if a.has("motion"), var unchanged = manifest {
        unchanged.frames = []
        verified = unchanged
      }
      verified?.motion = manifest?.motion
      let drifted = verdicts.contains { ($0.rendererDrift?.differingPixels ?? 0) > 0 }
      for v in verdicts { if let d = v.rendererDrift { note("\(quoted: v.name): \(escaped: d.summary)") } }
      try Diff.finish(
        title: template.name, verdicts: verdicts, options: options, goldenRenderer: manifest?.renderer,
        reportDir: reportDir, writeReport: explicitReport != nil || anyFailed || drifted, goldenManifest: manifest,
        manifest: verified, notes: notes, inputBlobs: captured?.blobs ?? [:], motion: motion,
        templatePath: reportedTemplatePath(try Flick.templatePath(path)))
    }

    /// The template's path as the report records it (`templatePath`): relative to the current
    /// folder when it lies inside it (the repository's root, where `flick accept` runs too: only
    /// such a path is read back), else absolute.
    static func reportedTemplatePath(_ file: String) -> String {
      let absolute = URL(fileURLWithPath: file).standardizedFileURL.path
      let current = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).standardizedFileURL.path
      guard let inside = PathText.relative(absolute, to: current), !inside.isEmpty else { return absolute }
      return inside
    }

    /// The goldens' motion golden compared with the template's tracks, or nil when there is none
    /// (with `only`, `--motion`, that is invalid input).
    static func motionComparison(
      _ manifest: SnapshotManifest?, _ against: String, _ template: Template, only: Bool
    ) throws(CommandError) -> MotionComparison? {
      let golden: MotionGolden?
      do {
        golden = try manifest?.readMotion(from: against)
      } catch {
        throw CommandError(message: error.description, code: error.isInvalidInput ? .invalidInput : .environment)
      }
      guard let golden else {
        if only {
          throw CommandError(
            message:
              "no motion golden in \(quoted: against): record one with 'flick snapshot TEMPLATE --motion --out DIR'",
            code: .invalidInput)
        }
        return nil
      }
      try checkCoverage(golden, against, scene: template.scene)
      return MotionComparison(golden: golden, tracks: template.tracks)
    }

    /// A motion golden is compared at its own times, so it must hold every time a recording of
    /// this scene writes at each frame (`n / fps`), for every property it lists: a golden without
    /// them (a property with no sample line, or samples thinned out) would pass any motion.
    ///
    /// - Throws: exit 2 naming `motion.txt` and the first property or time it lacks.
    static func checkCoverage(_ golden: MotionGolden, _ against: String, scene: Scene) throws(CommandError) {
      let path = (against as NSString).appendingPathComponent(MotionGolden.fileName)
      let again = "; record it again with 'flick snapshot TEMPLATE --motion --out DIR'"
      if let track = golden.tracks.first(where: { $0.samples.isEmpty }) {
        throw CommandError(
          message: "motion golden \(quoted: path): property \(quoted: track.layerID).\(quoted: track.property) has no "
            + "samples, so nothing of it would be compared" + again,
          code: .invalidInput)
      }
      guard !golden.tracks.isEmpty else { return }  // nothing animated: every property now animated is 'added'
      let frameCount = max(1, Int((scene.duration * Double(scene.fps) - 1e-9).rounded(.up)))
      let have = Set(golden.times)
      if let missing = (0..<frameCount).map({ Double($0) / Double(scene.fps) }).first(where: { !have.contains($0) }) {
        throw CommandError(
          message:
            "motion golden \(quoted: path) has no sample at t = \(quoted: missing) s, a frame time of this scene "
            + "(\(frameCount) frames at \(scene.fps) fps), so the motion there would not be compared" + again,
          code: .invalidInput)
      }
    }

    /// The motion check as a verdict named `motion`, so it counts, fails and reports like a frame.
    /// A failing one leaves today's motion golden in `REPORT/motion/motion.txt`, which
    /// `flick accept` takes.
    static func motionVerdict(
      _ motion: MotionComparison, _ against: String, template: Template, reportDir: String
    ) -> FrameVerdict {
      let message =
        motion.passed
        ? "every animated property matches (\(motion.golden.tracks.count) properties × \(motion.golden.times.count) "
          + "times, relative tolerance \(MotionComparison.relativeTolerance) of each property's travel)"
        : motion.differences.map(\.summary).joined(separator: "; ")
      var verdict = FrameVerdict(
        name: MotionGolden.verdictName, time: MotionGolden.verdictName, seconds: nil,
        goldenPath: (against as NSString).appendingPathComponent(MotionGolden.fileName),
        status: motion.passed ? .match : .changed, message: message)
      if !motion.passed, (try? ReportFolder.claim(reportDir)) != nil {
        let scene = template.scene
        let now = MotionGolden.record(
          tracks: template.tracks,
          at: MotionGolden.sampleTimes(tracks: template.tracks, duration: scene.duration, fps: scene.fps))
        let folder = (reportDir as NSString).appendingPathComponent(MotionGolden.verdictName)
        let path = (folder as NSString).appendingPathComponent(MotionGolden.fileName)
        if (try? ReportFolder.makeFolder(folder)) != nil,
          (try? AtomicDestination.write(Data(now.text.utf8), to: path)) != nil
        {
          verdict.artifacts["motion"] = path
        }
      }
      return verdict
    }
  }
}
