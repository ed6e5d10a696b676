import FlickMotion
import FlickRaster
import FlickSnapshot
import FlickVideo
import Foundation

extension Flick {
  /// `flick diff A.png B.png` or `flick diff DIR_A DIR_B`
  enum Diff {
    static let help = """
      USAGE: flick diff EXPECTED ACTUAL [comparison options] [--report DIR]

      Compares two PNG files, or every PNG of two folders by name, hidden ones (.name.png) included
      (a file on one side only fails; a symbolic link among a folder's PNGs is refused). Both sides
      are decoded completely first; a file that does not decode is an error.
      Exit 0 when everything matches, 1 on a difference, 2 on invalid input, 3 when an image
      cannot be read or decoded.

      \(toleranceHelp)
        --report DIR           write golden/actual/diff/side-by-side/zoom/flicker images, index.html,
                               junit.xml and summary.json for failing images (a new or empty folder,
                               or one flick wrote before)
      """

    static let toleranceHelp = """
      COMPARISON
        By default the comparison is exact (any visibly changed pixel fails) when the golden was
        drawn by this renderer (same fingerprint) or its renderer is unknown. When another renderer
        drew it, verify re-renders the goldens' stored inputs here and compares exactly with those
        (the drift is reported apart); only goldens without stored inputs (and diff) compare
        perceptually, where a colour shift beyond --jnd still counts. Either way the perceptual
        analysis describes the change.
        --exact                always exact
        --perceptual           always perceptual (implied by --threshold, --metric, --jnd, --aa, --no-aa)
        --threshold T          per-pixel colour tolerance 0…1 (default 0.1, pixelmatch semantics)
        --metric yiq|oklab     colour difference metric (default yiq)
        --jnd E                a pixel that is not anti-aliasing also counts when its colour moves
                               by more than ΔE_OK E (OKLab distance, 0…1; default 0.02; 0 = off),
                               whatever the threshold, so a flat recolour never passes
        --max-diff-pixels N    differing pixels allowed (default 0)
        --max-diff-ratio R     fraction of pixels allowed to differ, 0…1; with N the smaller wins
        --aa | --no-aa         count anti-aliased pixels as differences (default --no-aa)
        --density D            within the budget, fail when more than D (0…1, default 0.25) of any
                               8×8 window differs, so compact changes fail and speckle passes
        --max-image-pixels N   refuse images declaring more pixels (default 40000000;
                               FLICK_MAX_IMAGE_PIXELS)
        --max-image-bytes N    refuse larger PNG files (default 268435456; FLICK_MAX_IMAGE_BYTES)
      """

    static let toleranceOptions: Set<String> = [
      "threshold", "metric", "jnd", "max-diff-pixels", "max-diff-ratio", "density", "max-image-pixels",
      "max-image-bytes",
    ]
    static let toleranceFlags: Set<String> = ["aa", "no-aa", "exact", "perceptual"]

    /// What the numbers of ``toleranceOptions`` take (the options are checked again together by
    /// ``FlickSnapshot/ComparisonOptions/validationError()``).
    static let toleranceNumbers: [String: NumberRule] = [
      "threshold": .decimal(0...1), "max-diff-ratio": .decimal(0...1), "density": .decimal(0...1),
      "jnd": .decimal(0...1),
      "max-diff-pixels": .whole(0...Int(1e15)), "max-image-pixels": .whole(1...Int(1e15)),
      "max-image-bytes": .whole(1...Int(1e15)),
    ]
    /// The checks of ``toleranceNumbers``, run as the arguments are parsed.
    static let toleranceChecks = NumberRule.checks(toleranceNumbers)

    /// Builds comparison options from the tolerance options (exit 2 on a bad value).
    static func options(_ a: Arguments) throws(CommandError) -> ComparisonOptions {
      var o = ComparisonOptions()
      func number(_ name: String) throws(CommandError) -> Double? { try a.number(name, in: toleranceNumbers) }
      if let t = try number("threshold") { o.threshold = t }
      if let text = a.value("metric") {
        guard let m = ColorMetric(rawValue: text.lowercased()) else {
          throw CommandError.usage("--metric expects yiq or oklab, found '\(quoted: text)'")
        }
        o.metric = m
      }
      if let n = try a.whole("max-diff-pixels", in: toleranceNumbers) { o.maxDiffPixels = n }
      if let r = try number("max-diff-ratio") { o.maxDiffRatio = r }
      if let d = try number("density") { o.maxWindowDensity = d }
      if let e = try number("jnd") { o.colorJND = e }
      if a.has("aa") && a.has("no-aa") { throw CommandError.usage("give --aa or --no-aa, not both") }
      if a.has("aa") { o.includeAntiAliasing = true }
      if a.has("exact") && a.has("perceptual") { throw CommandError.usage("give --exact or --perceptual, not both") }
      if a.has("exact") {
        o.mode = .exact
      } else if a.has("perceptual") || a.value("threshold") != nil || a.value("metric") != nil || a.value("jnd") != nil
        || a.has("aa")
        || a.has("no-aa")
      {
        o.mode = .perceptual
      }
      if let problem = o.validationError() { throw CommandError.usage(problem) }
      if let broken = ImageComparator(options: o).selfTestFailure() {
        throw CommandError(message: "comparator self-test failed: \(quoted: broken)", code: .environment)
      }
      return o
    }

    /// Decode limits from the options, else the environment, else the defaults (exit 2 on a bad value).
    static func limits(_ a: Arguments) throws(CommandError) -> DecodeLimits {
      var limits: DecodeLimits
      switch DecodeLimits.fromEnvironment(ProcessInfo.processInfo.environment) {
      case .success(let l): limits = l
      case .failure(let e): throw CommandError.usage(e.message)
      }
      for (name, keyPath) in [
        ("max-image-pixels", \DecodeLimits.maxPixels), ("max-image-bytes", \DecodeLimits.maxFileBytes),
      ] {
        if let n = try a.whole(name, in: toleranceNumbers) { limits[keyPath: keyPath] = n }
      }
      return limits
    }

    /// Refuses (exit 2) a report folder Flick must not write into.
    static func checkReportFolder(_ path: String?) throws(CommandError) {
      guard let path, let reason = ReportFolder.refusal(path) else { return }
      throw CommandError(message: "refusing to write the report: \(escaped: reason)", code: .invalidInput)
    }

    /// Checks the report folder `path` (``checkReportFolder(_:)``), removes what an earlier run
    /// wrote there (``ReportFolder/clearPrevious(_:)``: a run cut short leaves no earlier summary
    /// beside its frames) and, when it does not exist yet, registers it with the cleanup, so an
    /// interruption removes the folder this run made, and the folders above it that it made too
    /// when they are empty (`flick-report/`). The caller forgets it (``Cleanup/remove(folder:)``)
    /// once the run is over.
    ///
    /// - Returns: The folder registered with the cleanup, or nil.
    static func prepareReportFolder(_ path: String?) throws(CommandError) -> String? {
      try checkReportFolder(path)
      guard let path else { return nil }
      do {
        try ReportFolder.clearPrevious(path)
      } catch {
        throw CommandError(message: error.description, code: .environment)
      }
      var info = stat()
      guard lstat(path, &info) != 0 else { return nil }
      // The folders above it that do not exist yet either, the deepest first: made with it.
      var parents: [String] = []
      var parent = (path as NSString).deletingLastPathComponent
      while !parent.isEmpty, parent != "/", parent != ".", lstat(parent, &info) != 0 {
        parents.append(parent)
        parent = (parent as NSString).deletingLastPathComponent
      }
      Cleanup.shared.add(folder: path, emptyParents: parents)
      return path
    }

    static func run(_ args: [String]) throws {
      let a = try Arguments(
        args, valued: toleranceOptions.union(["report"]), flags: toleranceFlags.union(["help", "h"]),
        checks: toleranceChecks)
      if a.has("help") || a.has("h") {
        StandardStream.writeOutputLine(help)
        return
      }
      guard a.positionals.count == 2 else { throw CommandError.usage("diff needs two PNG files or two folders") }
      let (left, right) = (a.positionals[0], a.positionals[1])
      let comparator = ImageComparator(options: try options(a), limits: try limits(a))
      var isDirA: ObjCBool = false, isDirB: ObjCBool = false
      let existsA = FileManager.default.fileExists(atPath: left, isDirectory: &isDirA)
      let existsB = FileManager.default.fileExists(atPath: right, isDirectory: &isDirB)
      var pairs: [(name: String, a: String?, b: String?)] = []
      var renderers: (RendererFingerprint?, RendererFingerprint?) = (nil, nil)
      if existsA && existsB && isDirA.boolValue && isDirB.boolValue {
        let namesA = Set(try regularPNGs(in: left)), namesB = Set(try regularPNGs(in: right))
        for name in namesA.union(namesB).sorted() {
          pairs.append(
            (
              name, namesA.contains(name) ? (left as NSString).appendingPathComponent(name) : nil,
              namesB.contains(name) ? (right as NSString).appendingPathComponent(name) : nil
            ))
        }
        guard !pairs.isEmpty else { throw CommandError.usage("no PNG files in \(quoted: left) or \(quoted: right)") }
        do {
          renderers = (
            try SnapshotManifest.read(from: left)?.renderer, try SnapshotManifest.read(from: right)?.renderer
          )
        } catch {
          throw CommandError(message: error.description, code: .invalidInput)
        }
      } else if existsA && existsB && (isDirA.boolValue != isDirB.boolValue) {
        throw CommandError.usage("compare two files or two folders, not a file with a folder")
      } else {
        pairs = [((right as NSString).lastPathComponent, left, right)]
      }

      let reportDir = a.value("report")
      let made = try prepareReportFolder(reportDir)
      defer { if let made { Cleanup.shared.remove(folder: made) } }
      let verifier = GoldenVerifier(comparator: comparator, record: .none)
      var verdicts: [FrameVerdict] = []
      // Each pair gets its own artefact folder, even when names differ only in characters a folder
      // name cannot hold or in case, and never one of the report's own names (index.html.png);
      // the verdict keeps the real file name.
      let folders = ContainedPath.distinctFolderNames(pairs.map(\.name), reserved: SnapshotReport.topLevelNames)
      for (pair, folder) in zip(pairs, folders) {
        let name = pair.name
        guard let pa = pair.a, let pb = pair.b else {
          let message = pair.a == nil ? "only in \(quoted: right)" : "only in \(quoted: left)"
          verdicts.append(
            FrameVerdict(
              name: name, time: pair.name, seconds: nil, goldenPath: pair.a ?? pair.b ?? "", status: .missing,
              message: message))
          continue
        }
        let v = verifier.comparePair(name: name, expected: pa, actual: pb, folder: folder, into: reportDir)
        verdicts.append(v)
      }
      try finish(
        title: "\(left) vs \(right)", verdicts: verdicts, options: comparator.options, goldenRenderer: renderers.0,
        reportDir: reportDir, writeReport: reportDir != nil)
    }

    /// The names of the PNG files in `dir`, hidden ones (`.name.png`) included: a file that is
    /// skipped is a file nothing checks, so a differing hidden PNG fails `diff`, and one in a
    /// goldens folder (no manifest may list it) fails `verify` as unlisted.
    static func pngs(in dir: String) -> [String] {
      ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).filter { $0.lowercased().hasSuffix(".png") }
    }

    /// The PNG files of the folder `dir` (``pngs(in:)``), each checked to be a regular file, as
    /// verify checks a goldens folder's: the folders may come from someone else's pull request,
    /// and a link would read (and copy into the report) a file outside them.
    ///
    /// - Throws: exit 2 naming the first link or other non-regular file.
    static func regularPNGs(in dir: String) throws(CommandError) -> [String] {
      let names = pngs(in: dir)
      for name in names.sorted() {
        let path = (dir as NSString).appendingPathComponent(name)
        var info = stat()
        guard lstat(path, &info) == 0 else { continue }  // gone meanwhile: reported as unreadable
        let type = info.st_mode & S_IFMT
        guard type != S_IFREG else { continue }
        let reason =
          type == S_IFLNK
          ? "it is a symbolic link; diff compares only the folders' own files (remove it)"
          : "it is not a regular file"
        throw CommandError(message: SnapshotError.unsafePath(path, reason: reason).description, code: .invalidInput)
      }
      return names
    }

    /// Prints one line per failing frame and a summary (stderr), writes the reports, and exits
    /// with 3 when a comparison could not run, 1 on a failure or a recorded golden, else returns
    /// (exit 0).
    static func finish(
      title: String, verdicts: [FrameVerdict], options: ComparisonOptions, goldenRenderer: RendererFingerprint?,
      reportDir: String?, writeReport: Bool, goldenManifest: SnapshotManifest? = nil, manifest: SnapshotManifest? = nil,
      notes: [String] = [], inputBlobs: [String: Data] = [:], motion: MotionComparison? = nil,
      templatePath: String? = nil
    ) throws {
      var notes = notes
      for reason in Set(verdicts.compactMap { $0.comparison?.modeReason }).sorted() {
        log("note: \(escaped: reason)")
        notes.append("note: \(reason)")
      }
      for v in verdicts where !v.isPass {
        let at = v.seconds.map { " (t = \(SnapshotReport.secondsText($0)))" } ?? ""
        log("✗ \(quoted: v.name)\(quoted: at): \(v.status.rawValue): \(escaped: v.message)")
      }
      var report = SnapshotReport(
        title: title, verdicts: verdicts, options: options, goldenRenderer: goldenRenderer,
        goldenManifest: goldenManifest, manifest: manifest, notes: notes, inputBlobs: inputBlobs)
      report.motion = motion
      report.templatePath = templatePath
      log("\(quoted: title): \(escaped: report.countsLine)")
      let recorded = verdicts.filter { $0.status == .recorded }.count
      if recorded > 0 {
        log(
          "recorded \(quoted: recorded) golden\(recorded == 1 ? "" : "s"): look at them, then re-run without --record to verify"
        )
      }
      if writeReport, let reportDir {
        do {
          let files = try report.write(to: reportDir)
          log("report: \(quoted: files[0])")
        } catch {
          throw CommandError(message: error.description, code: error.isInvalidInput ? .invalidInput : .environment)
        }
      }
      // The report's verdict is the exit status: a report that says failed never exits 0.
      switch report.outcome {
      case .passed: return
      case .couldNotRun(let reason): throw CommandError(message: reason, code: .environment)
      case .failed(let reason): throw CommandError(message: reason, code: .mismatch)
      }
    }
  }
}
