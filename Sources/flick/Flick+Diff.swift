import FlickRaster
import FlickSnapshot
import Foundation

extension Flick {
  /// `flick diff A.png B.png` or `flick diff DIR_A DIR_B`
  enum Diff {
    static let help = """
      USAGE: flick diff EXPECTED ACTUAL [tolerance options] [--report DIR]

      Compares two PNG files, or every PNG of two folders by name (a file on one side only fails).
      Exit 0 when everything matches, 1 on a difference, 3 when an image cannot be read.

      \(toleranceHelp)
        --report DIR           write expected/actual/diff/side-by-side/flicker images, index.html,
                               junit.xml and summary.json for failing images
      """

    static let toleranceHelp = """
      TOLERANCE
        --threshold T          per-pixel colour tolerance 0…1 (default 0.1, pixelmatch semantics)
        --metric yiq|oklab     colour difference metric (default yiq)
        --max-diff-pixels N    differing pixels allowed (default 0)
        --max-diff-ratio R     fraction of pixels allowed to differ, 0…1; with N the smaller wins
        --aa | --no-aa         count anti-aliased pixels as differences (default --no-aa)
        --density D            within the budget, fail when more than D (0…1, default 0.25) of any
                               8×8 window differs, so compact changes fail and speckle passes
      """

    static let toleranceOptions: Set<String> = ["threshold", "metric", "max-diff-pixels", "max-diff-ratio", "density"]
    static let toleranceFlags: Set<String> = ["aa", "no-aa"]

    /// Builds comparison options from the tolerance options (exit 2 on a bad value).
    static func options(_ a: Arguments) throws(CommandError) -> ComparisonOptions {
      var o = ComparisonOptions()
      func number(_ name: String) throws(CommandError) -> Double? {
        guard let text = a.value(name) else { return nil }
        guard let v = Double(text), v.isFinite else {
          throw CommandError.usage("--\(name) expects a number, found '\(text)'")
        }
        return v
      }
      if let t = try number("threshold") { o.threshold = t }
      if let text = a.value("metric") {
        guard let m = ColorMetric(rawValue: text.lowercased()) else {
          throw CommandError.usage("--metric expects yiq or oklab, found '\(text)'")
        }
        o.metric = m
      }
      if let text = a.value("max-diff-pixels") {
        guard let n = Int(text), n >= 0 else {
          throw CommandError.usage("--max-diff-pixels expects a whole number ≥ 0, found '\(text)'")
        }
        o.maxDiffPixels = n
      }
      if let r = try number("max-diff-ratio") { o.maxDiffRatio = r }
      if let d = try number("density") { o.maxWindowDensity = d }
      if a.has("aa") && a.has("no-aa") { throw CommandError.usage("give --aa or --no-aa, not both") }
      if a.has("aa") { o.includeAntiAliasing = true }
      if let problem = o.validationError() { throw CommandError.usage(problem) }
      if let broken = ImageComparator(options: o).selfTestFailure() {
        throw CommandError(message: "comparator self-test failed: \(broken)", code: .environment)
      }
      return o
    }

    static func run(_ args: [String]) throws {
      let a = try Arguments(
        args, valued: toleranceOptions.union(["report"]), flags: toleranceFlags.union(["help", "h"]))
      if a.has("help") || a.has("h") {
        print(help)
        return
      }
      guard a.positionals.count == 2 else { throw CommandError.usage("diff needs two PNG files or two folders") }
      let (left, right) = (a.positionals[0], a.positionals[1])
      let comparator = ImageComparator(options: try options(a))
      var isDirA: ObjCBool = false, isDirB: ObjCBool = false
      let existsA = FileManager.default.fileExists(atPath: left, isDirectory: &isDirA)
      let existsB = FileManager.default.fileExists(atPath: right, isDirectory: &isDirB)
      var pairs: [(name: String, a: String?, b: String?)] = []
      if existsA && existsB && isDirA.boolValue && isDirB.boolValue {
        let namesA = Set(pngs(in: left)), namesB = Set(pngs(in: right))
        for name in namesA.union(namesB).sorted() {
          pairs.append((
            name, namesA.contains(name) ? (left as NSString).appendingPathComponent(name) : nil,
            namesB.contains(name) ? (right as NSString).appendingPathComponent(name) : nil))
        }
        guard !pairs.isEmpty else { throw CommandError.usage("no PNG files in \(left) or \(right)") }
      } else if existsA && existsB && (isDirA.boolValue != isDirB.boolValue) {
        throw CommandError.usage("compare two files or two folders, not a file with a folder")
      } else {
        pairs = [((right as NSString).lastPathComponent, left, right)]
      }

      let reportDir = a.value("report")
      let verifier = GoldenVerifier(comparator: comparator, record: .none, recordedMissingPasses: false)
      var verdicts: [FrameVerdict] = []
      for pair in pairs {
        let name = (pair.name as NSString).deletingPathExtension
        guard let pa = pair.a, let pb = pair.b else {
          let message = pair.a == nil ? "only in \(right)" : "only in \(left)"
          verdicts.append(FrameVerdict(
            name: name, time: pair.name, seconds: nil, goldenPath: pair.a ?? pair.b ?? "", status: .missing,
            message: message))
          continue
        }
        var v: FrameVerdict
        do {
          let c = try comparator.compareFiles(expected: pa, actual: pb)
          v = FrameVerdict(
            name: name, time: pair.name, seconds: nil, goldenPath: pa, status: c.passed ? .passed : .failed,
            comparison: c, message: c.summary)
          if !c.passed, reportDir != nil, let ea = try? Frame(pngAt: pa), let eb = try? Frame(pngAt: pb) {
            let full = c.verdict == .sizeMismatch ? c : comparator.compare(ea, eb)
            v.artifacts = verifier.writeArtifacts(
              name: name, expected: ea, actual: eb, comparison: full, into: reportDir)
          }
        } catch {
          v = FrameVerdict(
            name: name, time: pair.name, seconds: nil, goldenPath: pa, status: .error, message: error.description)
        }
        verdicts.append(v)
      }
      try finish(
        title: pairs.count == 1 ? "\(left) vs \(right)" : "\(left) vs \(right)", verdicts: verdicts,
        options: comparator.options, goldenRenderer: nil, reportDir: reportDir, writeReport: reportDir != nil)
    }

    /// Seconds for terminal lines: `1.5s`, `2.967s`.
    static func secondsText(_ s: Double) -> String {
      let r = (s * 1000).rounded() / 1000
      return r == r.rounded() ? "\(Int(r))s" : "\(r)s"
    }

    static func pngs(in dir: String) -> [String] {
      ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? [])
        .filter { $0.lowercased().hasSuffix(".png") && !$0.hasPrefix(".") }
    }

    /// Prints one line per failing frame and a summary (stderr), writes the reports, and exits
    /// with 3 when a comparison could not run, 1 on a failure, else returns (exit 0).
    static func finish(
      title: String, verdicts: [FrameVerdict], options: ComparisonOptions, goldenRenderer: RendererFingerprint?,
      reportDir: String?, writeReport: Bool, manifest: SnapshotManifest? = nil
    ) throws {
      for v in verdicts where !v.isPass {
        let at = v.seconds.map { " (t=\(secondsText($0)))" } ?? ""
        log("✗ \(v.name)\(at): \(v.status.rawValue): \(v.message)")
      }
      let report = SnapshotReport(
        title: title, verdicts: verdicts, options: options, goldenRenderer: goldenRenderer, manifest: manifest)
      let passed = verdicts.filter(\.isPass).count
      log("\(title): \(passed) of \(verdicts.count) match"
        + (report.errors.isEmpty ? "" : ", \(report.errors.count) could not be compared"))
      if writeReport, let reportDir {
        do {
          let files = try report.write(to: reportDir)
          log("report: \(files[0])")
        } catch {
          throw CommandError(message: error.description, code: .environment)
        }
      }
      if !report.errors.isEmpty { throw CommandError(message: "comparison could not run", code: .environment) }
      if !report.failures.isEmpty { throw CommandError(message: "snapshot mismatch", code: .mismatch) }
    }
  }
}
