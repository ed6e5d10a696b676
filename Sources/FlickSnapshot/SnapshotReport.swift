import FlickRaster
import Foundation

/// The reports of a verification run: one static HTML page (side-by-side, slider, diff and
/// flicker views), JUnit XML and a JSON summary, written into one folder beside the per-frame
/// artefacts.
public struct SnapshotReport: Sendable {
  /// What was verified (the template name), used as the suite name.
  public var title: String
  /// One verdict per frame, in order.
  public var verdicts: [FrameVerdict]
  /// The tolerance used.
  public var options: ComparisonOptions
  /// The renderer that made the goldens, when known.
  public var goldenRenderer: RendererFingerprint?
  /// The renderer that made the actual frames.
  public var renderer: RendererFingerprint
  /// The manifest the goldens would have if the actual frames were accepted (template,
  /// parameters, size, times, renderer of this run); `flick accept` applies it.
  public var manifest: SnapshotManifest?

  public init(
    title: String, verdicts: [FrameVerdict], options: ComparisonOptions, goldenRenderer: RendererFingerprint?,
    renderer: RendererFingerprint = .current, manifest: SnapshotManifest? = nil
  ) {
    self.title = title
    self.verdicts = verdicts
    self.options = options
    self.goldenRenderer = goldenRenderer
    self.renderer = renderer
    self.manifest = manifest
  }

  /// Frames that failed (mismatch, missing or newly recorded).
  public var failures: [FrameVerdict] { verdicts.filter { !$0.isPass && $0.status != .error } }
  /// Frames whose comparison could not run.
  public var errors: [FrameVerdict] { verdicts.filter { $0.status == .error } }

  /// Writes `index.html`, `junit.xml` and `summary.json` into `directory`.
  ///
  /// - Returns: The paths written.
  @discardableResult
  public func write(to directory: String) throws(SnapshotError) -> [String] {
    try AtomicFile.makeDirectory(directory)
    let html = (directory as NSString).appendingPathComponent("index.html")
    let junit = (directory as NSString).appendingPathComponent("junit.xml")
    let json = (directory as NSString).appendingPathComponent("summary.json")
    try AtomicFile.write(htmlText(relativeTo: directory), to: html)
    try AtomicFile.write(junitText(), to: junit)
    try AtomicFile.write(jsonText(relativeTo: directory), to: json)
    return [html, junit, json]
  }

  // MARK: - JSON

  struct Summary: Codable {
    struct Frame: Codable {
      var name: String
      var time: String
      var seconds: Double?
      var status: FrameVerdict.Status
      var verdict: ImageComparison.Verdict?
      var differingPixels: Int?
      var antiAliasedPixels: Int?
      var boundingBox: PixelRegion?
      var golden: String
      var message: String
      var artifacts: [String: String]
    }
    var title: String
    var passed: Bool
    var total: Int
    var failures: Int
    var errors: Int
    var options: ComparisonOptions
    var goldenRenderer: RendererFingerprint?
    var renderer: RendererFingerprint
    var frames: [Frame]
    var manifest: SnapshotManifest?
  }

  func jsonText(relativeTo directory: String) throws(SnapshotError) -> String {
    let summary = Summary(
      title: title, passed: failures.isEmpty && errors.isEmpty, total: verdicts.count, failures: failures.count,
      errors: errors.count, options: options, goldenRenderer: goldenRenderer, renderer: renderer,
      frames: verdicts.map { v in
        Summary.Frame(
          name: v.name, time: v.time, seconds: v.seconds, status: v.status, verdict: v.comparison?.verdict,
          differingPixels: v.comparison?.differingPixels, antiAliasedPixels: v.comparison?.antiAliasedPixels,
          boundingBox: v.comparison?.boundingBox, golden: v.goldenPath, message: v.message,
          artifacts: v.artifacts.mapValues { Self.relative($0, to: directory) })
      }, manifest: manifest)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    do {
      return String(decoding: try encoder.encode(summary), as: UTF8.self) + "\n"
    } catch {
      throw .unwritableFile(path: "summary.json", reason: "\(error)")
    }
  }

  // MARK: - JUnit

  func junitText() -> String {
    var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    let suite = Self.xml(title)
    xml += "<testsuites name=\"flick verify\" tests=\"\(verdicts.count)\" failures=\"\(failures.count)\" "
      + "errors=\"\(errors.count)\">\n"
    xml += "  <testsuite name=\"\(suite)\" tests=\"\(verdicts.count)\" failures=\"\(failures.count)\" "
      + "errors=\"\(errors.count)\" skipped=\"0\">\n"
    for v in verdicts {
      xml += "    <testcase classname=\"\(suite)\" name=\"\(Self.xml(v.name))\">"
      let detail = ([v.message, "golden: \(v.goldenPath)"] + v.artifacts.sorted { $0.key < $1.key }
        .map { "\($0.key): \($0.value)" }).joined(separator: "\n")
      switch v.status {
      case .passed, .updated:
        xml += "</testcase>\n"
        continue
      case .error:
        xml += "\n      <error message=\"\(Self.xml(v.message))\">\(Self.xml(detail))</error>\n"
      case .failed, .missing, .recorded:
        xml += "\n      <failure message=\"\(Self.xml(v.message))\" type=\"\(v.status.rawValue)\">"
          + "\(Self.xml(detail))</failure>\n"
      }
      xml += "    </testcase>\n"
    }
    xml += "  </testsuite>\n</testsuites>\n"
    return xml
  }

  // MARK: - HTML

  func htmlText(relativeTo directory: String) -> String {
    let ok = failures.isEmpty && errors.isEmpty
    var body = ""
    body += "<h1>\(Self.xml(title)): \(ok ? "all \(verdicts.count) frames match" : "\(failures.count) failing, \(errors.count) errors of \(verdicts.count)")</h1>\n"
    body += "<p class=meta>threshold \(options.threshold) (\(options.metric.rawValue)), "
      + "anti-aliasing \(options.includeAntiAliasing ? "counted" : "ignored"), "
      + "budget: max-diff-pixels \(options.maxDiffPixels.map(String.init) ?? "–"), "
      + "max-diff-ratio \(options.maxDiffRatio.map { "\($0)" } ?? "–"), density ≤ \(options.windowLimit) per "
      + "\(options.densityWindow)×\(options.densityWindow)<br>renderer: \(Self.xml(renderer.description))"
    if let g = goldenRenderer, g != renderer {
      body += "<br><b>goldens made by a different renderer:</b> \(Self.xml(renderer.differences(from: g).joined(separator: ", ")))"
    }
    body += "</p>\n"
    for (index, v) in verdicts.enumerated() {
      let cls = v.isPass ? "pass" : (v.status == .error ? "error" : "fail")
      body += "<section class=\(cls)><h2><span class=badge>\(v.status.rawValue)</span> \(Self.xml(v.name))"
      body += v.seconds.map { " <small>t = \($0)s</small>" } ?? ""
      body += "</h2>\n<p>\(Self.xml(v.message))</p>\n"
      func src(_ kind: String) -> String? { v.artifacts[kind].map { Self.xml(Self.relative($0, to: directory)) } }
      if let e = src("expected"), let a = src("actual") {
        body += "<div class=views>\n"
        body += "<figure><figcaption>expected</figcaption><img src=\"\(e)\"></figure>\n"
        if let d = src("diff") { body += "<figure><figcaption>diff (red changed, yellow anti-aliasing)</figcaption><img src=\"\(d)\"></figure>\n" }
        body += "<figure><figcaption>actual</figcaption><img src=\"\(a)\"></figure>\n"
        if let f = src("flicker") { body += "<figure><figcaption>flicker</figcaption><img src=\"\(f)\"></figure>\n" }
        body += "</div>\n"
        if let c = src("sideBySide") {
          body += "<p><a href=\"\(c)\">side-by-side composite (expected | diff | actual)</a></p>\n"
        }
        body += "<figure class=slider><figcaption>slider: expected ◀ ▶ actual</figcaption>"
          + "<div class=stack id=s\(index)><img src=\"\(a)\"><img class=top src=\"\(e)\"></div>"
          + "<input type=range min=0 max=100 value=50 oninput=\"slide('s\(index)',this.value)\"></figure>\n"
      } else if let a = src("actual") {
        body += "<div class=views><figure><figcaption>actual</figcaption><img src=\"\(a)\"></figure></div>\n"
      }
      body += "</section>\n"
    }
    return """
      <!doctype html>
      <html lang=en><head><meta charset=utf-8><title>flick verify: \(Self.xml(title))</title>
      <style>
      body{font:14px/1.4 system-ui,sans-serif;margin:24px;background:#111827;color:#e5e7eb}
      h1{font-size:20px}h2{font-size:16px;margin:0 0 4px}.meta{color:#9ca3af}
      section{border:1px solid #374151;border-radius:8px;padding:12px;margin:12px 0}
      section.fail{border-color:#ef4444}section.error{border-color:#f59e0b}
      .badge{display:inline-block;padding:1px 6px;border-radius:4px;background:#374151;font-size:12px}
      .fail .badge{background:#ef4444}.error .badge{background:#f59e0b;color:#111}.pass .badge{background:#16a34a}
      .views{display:flex;flex-wrap:wrap;gap:12px}figure{margin:0}figcaption{color:#9ca3af;font-size:12px}
      img{image-rendering:pixelated;max-width:100%;background:repeating-conic-gradient(#ccc 0 25%,#fff 0 50%) 0 0/16px 16px}
      .stack{position:relative;display:inline-block}.stack img{display:block}
      .stack .top{position:absolute;left:0;top:0;clip-path:inset(0 50% 0 0)}
      .slider input{width:100%;max-width:640px;display:block}
      </style>
      <script>function slide(id,v){document.querySelector('#'+id+' .top').style.clipPath='inset(0 '+(100-v)+'% 0 0)'}</script>
      </head><body>
      \(body)</body></html>

      """
  }

  // MARK: - Helpers

  static func xml(_ s: String) -> String {
    var out = ""
    for c in s {
      switch c {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "'": out += "&apos;"
      default: out.append(c)
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
