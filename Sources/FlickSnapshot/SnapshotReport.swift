import FlickMotion
import FlickRaster
import Foundation

/// The reports of a verification run: one static HTML page, JUnit XML and a JSON summary,
/// written into one report folder (``ReportFolder``) beside the per-frame artefacts.
///
/// Statuses are per frame (``FrameVerdict/Status``: `match`, `changed`, `sizeMismatch`,
/// `missing`, `unreadable`, `recorded`, `error`); only `match` passes, and the summary's counts
/// name each status so a run with no matching frame cannot read as a pass.
package struct SnapshotReport: Sendable {
  /// What was verified (the template name), used as the suite name.
  package var title: String
  /// One verdict per frame, in order.
  package var verdicts: [FrameVerdict]
  /// The tolerance used.
  package var options: ComparisonOptions
  /// The renderer that made the goldens, when known.
  package var goldenRenderer: RendererFingerprint?
  /// The renderer that made the actual frames.
  package var renderer: RendererFingerprint
  /// The goldens' manifest (their parameters and renderer), when there is one.
  package var goldenManifest: SnapshotManifest?
  /// The manifest the goldens would have if the actual frames were accepted (template,
  /// parameters, size, times, renderer of this run); `flick accept` applies it.
  package var manifest: SnapshotManifest?
  /// Every note the run printed (mode, parameters, renderer, stray files, drift), shown in the
  /// HTML page and the summary as in the terminal.
  package var notes: [String]
  /// The stored inputs of ``manifest`` by SHA-256, written into the report's `inputs/` so that
  /// `flick accept` can store them beside the accepted goldens.
  package var inputBlobs: [String: Data]
  /// The motion golden's comparison, when the goldens have one and it was checked.
  package var motion: MotionComparison?
  /// The template file verified: relative to the current folder when inside it, else absolute
  /// (``ReportAcceptance`` reads back only a relative one), so `flick accept` can warn when it
  /// changed since.
  package var templatePath: String?

  package init(
    title: String, verdicts: [FrameVerdict], options: ComparisonOptions, goldenRenderer: RendererFingerprint?,
    renderer: RendererFingerprint = .current, goldenManifest: SnapshotManifest? = nil,
    manifest: SnapshotManifest? = nil, notes: [String] = [], inputBlobs: [String: Data] = [:]
  ) {
    self.notes = notes
    self.inputBlobs = inputBlobs
    self.title = title
    self.verdicts = verdicts
    self.options = options
    self.goldenRenderer = goldenRenderer
    self.renderer = renderer
    self.goldenManifest = goldenManifest
    self.manifest = manifest
  }

  /// Frames that failed: changed, size mismatch, missing or newly recorded.
  package var failures: [FrameVerdict] { verdicts.filter { !$0.isPass && !$0.isError } }
  /// Frames whose comparison could not run (unreadable image, render failure).
  package var errors: [FrameVerdict] { verdicts.filter(\.isError) }
  /// Whether every frame matched; a run that compared nothing never passes. The one verdict the
  /// summary, the page and the exit status (``outcome``) all follow.
  package var passed: Bool { !verdicts.isEmpty && verdicts.allSatisfy(\.isPass) }

  /// The number of frames with each status (every status listed, zeros included).
  package var counts: [String: Int] {
    var out: [String: Int] = [:]
    for status in FrameVerdict.Status.allCases { out[status.rawValue] = 0 }
    for v in verdicts { out[v.status.rawValue, default: 0] += 1 }
    return out
  }

  /// One line: `0 of 2 match (2 changed)`.
  package var countsLine: String {
    let matched = verdicts.filter(\.isPass).count
    let others = FrameVerdict.Status.allCases.filter { $0 != .match }.compactMap { status -> String? in
      let n = verdicts.filter { $0.status == status }.count
      return n == 0 ? nil : "\(n) \(status.rawValue)"
    }
    return "\(matched) of \(verdicts.count) match" + (others.isEmpty ? "" : " (\(others.joined(separator: ", ")))")
  }

  /// The report's own files at the top of its folder.
  package static let htmlFile = "index.html", junitFile = "junit.xml", summaryFile = "summary.json"

  /// Every name a report folder holds at its top level besides the frames' artefact folders:
  /// its pages (``write(to:)``), the stored inputs, the motion check's folder and the
  /// ``ReportFolder`` marker. A frame's folder never takes one of them, in any case
  /// (``ContainedPath/distinctFolderNames(_:reserved:fallback:)``): a PNG named `index.html.png`
  /// made the report unwritable.
  package static let topLevelNames = [
    htmlFile, junitFile, summaryFile, SnapshotInputs.folder, MotionGolden.verdictName, ReportFolder.markerName,
  ]

  /// Writes `index.html`, `junit.xml` and `summary.json` into `directory` (a ``ReportFolder``).
  ///
  /// - Returns: The paths written.
  @discardableResult
  package func write(to directory: String) throws(SnapshotError) -> [String] {
    try ReportFolder.claim(directory)
    let html = (directory as NSString).appendingPathComponent(Self.htmlFile)
    let junit = (directory as NSString).appendingPathComponent(Self.junitFile)
    let json = (directory as NSString).appendingPathComponent(Self.summaryFile)
    try AtomicFile.write(htmlText(relativeTo: directory), to: html)
    try AtomicFile.write(junitText(), to: junit)
    if !inputBlobs.isEmpty {
      let store = (directory as NSString).appendingPathComponent(SnapshotInputs.folder)
      try ReportFolder.makeFolder(store)
      for (hash, bytes) in inputBlobs where manifest?.inputs?.files.contains(where: { $0.sha256 == hash }) == true {
        try AtomicFile.write(bytes, to: (store as NSString).appendingPathComponent(hash))
      }
    }
    try AtomicFile.write(jsonText(relativeTo: directory), to: json)
    return [html, junit, json]
  }

  // MARK: - JSON

  struct Summary: Codable {
    struct Size: Codable {
      var width: Int
      var height: Int
    }
    struct Frame: Codable {
      var name: String
      var time: String
      var seconds: Double?
      var status: FrameVerdict.Status
      var verdict: ImageComparison.Verdict?
      /// `exact` or `perceptual`, with the reason.
      var comparison: String?
      var comparisonReason: String?
      /// Counted pixels; absent when no pixel was compared (size mismatch, missing, unreadable).
      var differingPixels: Int?
      var perceptualPixels: Int?
      var antiAliasedPixels: Int?
      var subtlePixels: Int?
      var expectedSize: Size?
      var actualSize: Size?
      var boundingBox: PixelRegion?
      var golden: String
      var message: String
      var artifacts: [String: String]
      /// The SHA-256 of the artefacts `flick accept` takes (`actual`, `motion`, `rerendered`) as this run wrote
      /// them: a folder whose files are not these (another run's, in a reused folder) is refused.
      /// Absent in reports of older versions.
      var sha256: [String: String]?
      /// The recorded golden against the same inputs re-rendered here (another renderer made it).
      var rendererDrift: RendererDrift?
    }
    var title: String
    var passed: Bool
    var total: Int
    var matched: Int
    var failed: Int
    var counts: [String: Int]
    var options: ComparisonOptions
    var goldenRenderer: RendererFingerprint?
    var renderer: RendererFingerprint
    var goldenParameters: [String]?
    var parameters: [String]?
    var frames: [Frame]
    var manifest: SnapshotManifest?
    var notes: [String]?
    var motion: [MotionComparison.Difference]?
    var templatePath: String?
  }

  func jsonText(relativeTo directory: String) throws(SnapshotError) -> String {
    let summary = Summary(
      title: title, passed: passed, total: verdicts.count, matched: verdicts.filter(\.isPass).count,
      failed: verdicts.filter { !$0.isPass }.count, counts: counts, options: options,
      goldenRenderer: goldenRenderer, renderer: renderer, goldenParameters: goldenManifest?.parameters,
      parameters: manifest?.parameters,
      frames: verdicts.map { v in
        let c = v.comparison
        let compared = c.map { $0.verdict != .sizeMismatch } ?? false
        return Summary.Frame(
          name: v.name, time: v.time, seconds: v.seconds, status: v.status, verdict: c?.verdict,
          comparison: c.map { $0.exact ? "exact" : "perceptual" }, comparisonReason: c?.modeReason,
          differingPixels: compared ? c?.differingPixels : nil, perceptualPixels: compared ? c?.perceptualPixels : nil,
          antiAliasedPixels: compared ? c?.antiAliasedPixels : nil, subtlePixels: compared ? c?.subtlePixels : nil,
          expectedSize: c.map { Summary.Size(width: $0.expectedSize.width, height: $0.expectedSize.height) },
          actualSize: c.map { Summary.Size(width: $0.actualSize.width, height: $0.actualSize.height) },
          boundingBox: c?.boundingBox, golden: v.goldenPath, message: v.message,
          artifacts: v.artifacts.mapValues { Self.relative($0, to: directory) }, sha256: Self.acceptedHashes(v),
          rendererDrift: v.rendererDrift)
      }, manifest: manifest, notes: notes, motion: motion?.differences, templatePath: templatePath)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    do {
      return String(decoding: try encoder.encode(summary), as: UTF8.self) + "\n"
    } catch {
      throw .unwritableFile(path: Self.summaryFile, reason: "\(escaped: error)")
    }
  }

  // MARK: - JUnit

  func junitText() -> String {
    var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    let suite = Self.xml(title)
    xml +=
      "<testsuites name=\"flick verify\" tests=\"\(verdicts.count)\" failures=\"\(failures.count)\" "
      + "errors=\"\(errors.count)\">\n"
    xml +=
      "  <testsuite name=\"\(suite)\" tests=\"\(verdicts.count)\" failures=\"\(failures.count)\" "
      + "errors=\"\(errors.count)\" skipped=\"0\">\n"
    for v in verdicts {
      xml += "    <testcase classname=\"\(suite)\" name=\"\(Self.xml(v.name))\">"
      let detail =
        ([v.message, "golden: \(v.goldenPath)"]
        + v.artifacts.sorted { $0.key < $1.key }
        .map { "\($0.key): \($0.value)" }).joined(separator: "\n")
      if v.isPass {
        xml += "</testcase>\n"
        continue
      }
      if v.isError {
        xml +=
          "\n      <error message=\"\(Self.xml(v.message))\" type=\"\(v.status.rawValue)\">\(Self.xml(detail))</error>\n"
      } else {
        xml +=
          "\n      <failure message=\"\(Self.xml(v.message))\" type=\"\(v.status.rawValue)\">"
          + "\(Self.xml(detail))</failure>\n"
      }
      xml += "    </testcase>\n"
    }
    xml += "  </testsuite>\n</testsuites>\n"
    return xml
  }

  // MARK: - HTML

  /// Seconds as people write them: `0 s`, `1.5 s`, `6.17 s` (at most two decimals).
  package static func secondsText(_ s: Double) -> String {
    let r = (s * 100).rounded() / 100
    if r == r.rounded() { return "\(Int(r)) s" }
    var text = String(format: "%.2f", r)
    while text.hasSuffix("0") { text.removeLast() }
    return text + " s"
  }

  func htmlText(relativeTo directory: String) -> String {
    var body = ""
    body +=
      "<h1>\(Self.xml(title)): \(passed ? "all \(verdicts.count) frames match" : "FAILED, \(Self.xml(countsLine))")</h1>\n"
    let modes = Set(verdicts.compactMap { $0.comparison?.modeReason }).sorted()
    body += notesHTML() + filmstripHTML(relativeTo: directory)
    body += "<p class=meta>"
    for m in modes { body += "<b>\(Self.xml(m))</b><br>" }
    body +=
      "perceptual analysis: threshold \(options.threshold) (\(options.metric.rawValue)), "
      + "anti-aliasing \(options.includeAntiAliasing ? "counted" : "ignored"); "
      + "budget: max-diff-pixels \(options.maxDiffPixels.map(String.init) ?? "0"), "
      + "max-diff-ratio \(options.maxDiffRatio.map { "\($0)" } ?? "–"), density ≤ \(options.windowLimit) per "
      + "\(options.densityWindow)×\(options.densityWindow)</p>\n"
    body += "<table class=sides><tr><th></th><th>golden</th><th>actual</th></tr>\n"
    body +=
      "<tr><th>renderer</th><td>\(Self.xml(goldenRenderer?.description ?? "unknown"))</td>"
      + "<td>\(Self.xml(renderer.description))</td></tr>\n"
    if goldenManifest != nil || manifest != nil {
      func params(_ m: SnapshotManifest?) -> String {
        guard let m else { return "unknown" }
        return m.parameters.isEmpty ? "none" : m.parameters.joined(separator: " ")
      }
      body +=
        "<tr><th>parameters</th><td>\(Self.xml(params(goldenManifest)))</td><td>\(Self.xml(params(manifest)))</td></tr>\n"
    }
    if let g = goldenRenderer, g != renderer {
      body +=
        "<tr><th>differs</th><td colspan=2>\(Self.xml(renderer.differences(from: g).joined(separator: ", ")))</td></tr>\n"
    }
    body += "</table>\n"
    body += motion?.html() ?? ""
    for (index, v) in verdicts.enumerated() {
      let cls = v.isPass ? "pass" : (v.isError ? "error" : "fail")
      body += "<section class=\(cls)><h2><span class=badge>\(v.status.rawValue)</span> \(Self.xml(v.name))"
      let at = v.seconds.map { " = \(Self.secondsText($0))" } ?? ""
      body += v.time == v.name ? "" : " <small>(\(Self.xml(v.time))\(at))</small>"
      body += "</h2>\n<p class=msg>\(Self.xml(v.message))</p>\n" + driftHTML(v, relativeTo: directory)
      func src(_ kind: String) -> String? { v.artifacts[kind].map { Self.xml(Self.relative($0, to: directory)) } }
      if let c = src("sideBySide") {
        body +=
          "<figure class=main><a href=\"\(c)\"><img src=\"\(c)\" alt=\"golden, diff and actual side by side\"></a></figure>\n"
      }
      if let z = src("zoom") {
        body +=
          "<figure class=main><figcaption>changed region, enlarged</figcaption><a href=\"\(z)\"><img src=\"\(z)\" alt=\"changed region enlarged\"></a></figure>\n"
      }
      var details = ""
      if let e = src("expected"), let a = src("actual") {
        details += "<div class=views>\n"
        details += "<figure><figcaption><a href=\"\(e)\">golden</a></figcaption><img src=\"\(e)\"></figure>\n"
        if let d = src("diff") {
          details +=
            "<figure><figcaption><a href=\"\(d)\">diff</a>: red changed, yellow anti-aliasing, blue below the threshold</figcaption><img src=\"\(d)\"></figure>\n"
        }
        details += "<figure><figcaption><a href=\"\(a)\">actual</a></figcaption><img src=\"\(a)\"></figure>\n"
        if let f = src("flicker") {
          details +=
            "<figure><figcaption><a href=\"\(f)\">flicker</a> (golden ⇄ actual)</figcaption><img src=\"\(f)\"></figure>\n"
        }
        details += "</div>\n"
        details +=
          "<figure class=slider><figcaption>slider: golden ◀ ▶ actual</figcaption>"
          + "<div class=stack id=s\(index)><img src=\"\(a)\"><img class=top src=\"\(e)\"></div>"
          + "<input type=range min=0 max=100 value=50 oninput=\"slide('s\(index)',this.value)\"></figure>\n"
      } else if let a = src("actual") {
        details +=
          "<div class=views><figure><figcaption><a href=\"\(a)\">actual</a></figcaption><img src=\"\(a)\"></figure></div>\n"
      }
      details += "<p class=meta>golden: \(Self.xml(v.goldenPath))</p>\n"
      if !v.isPass {
        var shown = [("expected", "golden"), ("actual", "actual"), ("diff", "diff"), ("flicker", "flicker")]
          .filter { v.artifacts[$0.0] != nil }.map(\.1)
        if v.artifacts["expected"] != nil && v.artifacts["actual"] != nil { shown.append("slider") }
        shown.append("paths")
        body += "<details><summary>\(shown.joined(separator: ", "))</summary>\n\(details)</details>\n"
      }
      body += "</section>\n"
    }
    return """
      <!doctype html>
      <html lang=en><head><meta charset=utf-8><title>flick verify: \(Self.xml(title))</title>
      <style>
      body{font:14px/1.4 system-ui,sans-serif;margin:24px;background:#111827;color:#e5e7eb}
      a{color:#93c5fd}a:visited{color:#c4b5fd}a:hover{color:#dbeafe}
      h1{font-size:20px}h2{font-size:16px;margin:0 0 4px}.meta{color:#9ca3af}.msg{margin:4px 0;word-break:break-word}
      table.sides{border-collapse:collapse;margin:8px 0}table.sides th,table.sides td{border:1px solid #374151;padding:2px 8px;text-align:left;vertical-align:top}
      section{border:1px solid #374151;border-radius:8px;padding:12px;margin:12px 0}
      section.fail{border-color:#ef4444}section.error{border-color:#f59e0b}
      .badge{display:inline-block;padding:1px 6px;border-radius:4px;background:#374151;font-size:12px}
      .fail .badge{background:#ef4444;color:#fff}.error .badge{background:#f59e0b;color:#111}.pass .badge{background:#16a34a;color:#fff}
      .views{display:flex;flex-wrap:wrap;gap:12px}figure{margin:6px 0}figcaption{color:#9ca3af;font-size:12px}
      img{image-rendering:pixelated;max-width:100%;background:repeating-conic-gradient(#ccc 0 25%,#fff 0 50%) 0 0/16px 16px}
      figure.main img{max-height:34vh;width:auto}
      .views img{max-height:40vh}
      .stack{position:relative;display:inline-block}.stack img{display:block}
      .stack .top{position:absolute;left:0;top:0;clip-path:inset(0 50% 0 0)}
      .slider input{width:100%;max-width:640px;display:block}
      summary{cursor:pointer;color:#93c5fd}
      </style>
      <script>function slide(id,v){document.querySelector('#'+id+' .top').style.clipPath='inset(0 '+(100-v)+'% 0 0)'}</script>
      </head><body>
      \(body)</body></html>

      """
  }

  // MARK: - Helpers

  /// `s` with `&`, `<`, `>`, `"` and `'` as entities: for text and attribute values in the HTML
  /// and XML reports (the batch gallery uses it too).
  ///
  /// It goes scalar by scalar, not by `Character`: a grapheme cluster can glue a `<` or a `"` to
  /// the scalar before it (U+0D4E) or a combining mark after it, and a browser's parser reads
  /// scalars. Scalars XML 1.0 does not allow (C0 controls other than tab, line feed and carriage
  /// return; U+FFFE and U+FFFF) are written as the text `\u{…}`, so `junit.xml` stays well-formed
  /// whatever a template's name holds.
  package static func xml(_ s: String) -> String {
    var out = ""
    out.unicodeScalars.reserveCapacity(s.unicodeScalars.count)
    for scalar in s.unicodeScalars {
      switch scalar {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "'": out += "&apos;"
      case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
      case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF:
        out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out
  }

  /// `path` relative to `directory` when it lies inside it, else unchanged.
  static func relative(_ path: String, to directory: String) -> String {
    let base = URL(fileURLWithPath: directory).standardizedFileURL.path
    let full = URL(fileURLWithPath: path).standardizedFileURL.path
    let prefix = base.hasSuffix("/") ? base : base + "/"
    return full.hasPrefix(prefix) ? String(full.dropFirst(prefix.count)) : full
  }
}
