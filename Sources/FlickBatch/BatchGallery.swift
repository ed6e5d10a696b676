import FlickMotion
import FlickSnapshot
import FlickTemplates
import FlickVideo
import Foundation

/// The HTML gallery of a plan's outputs (`flick status --html FILE`): one card per clip (a job
/// that writes final outputs, or a merge) with a preview (the GIF, WebP or APNG itself, a PNG
/// sequence's first frame, or a poster frame of an MP4, WebM or MOV), its state, parameters,
/// size, frames, time and each output's link and bytes. Every link is relative to the HTML
/// file, so the page works wherever the folder is unpacked (a CI artefact).
package struct BatchGallery {
  package var plan: BatchPlan
  package var status: BatchStatus
  /// Where the page is written; posters go to the folder `FILE.posters` beside it.
  package var path: String

  package init(plan: BatchPlan, status: BatchStatus, path: String) {
    self.plan = plan
    self.status = status
    self.path = URL(fileURLWithPath: path).standardizedFileURL.path
  }

  /// One clip on the page.
  struct Card {
    var row: BatchStatus.Row
    var width: Int
    var height: Int
    var frames: [Int]
    var parameters: [String: JSON5Value]
    var targets: [OutputTarget]
  }

  var cards: [Card] {
    let rows = Dictionary(status.rows.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
    var cards: [Card] = []
    for job in plan.jobs where job.spec.kind == "render" {
      guard let row = rows[job.spec.id] else { continue }
      cards.append(
        Card(
          row: row, width: job.spec.width, height: job.spec.height, frames: job.spec.frames,
          parameters: job.parameters, targets: job.targets))
    }
    for merge in plan.merges {
      guard let row = rows[merge.spec.id] else { continue }
      cards.append(
        Card(
          row: row, width: merge.width, height: merge.height, frames: merge.spec.frames,
          parameters: merge.chunks.first?.parameters ?? [:], targets: merge.targets))
    }
    return cards.sorted { $0.row.name < $1.row.name }
  }

  /// Writes the page (and the posters it needs, made with ffmpeg when there is one).
  ///
  /// - Throws: ``BatchError/invalidInput(_:)`` when `path` is a symbolic link (the
  ///   ``FlickVideo/VideoError/linkedOutput(path:)`` refusal of every output), and
  ///   ``BatchError/environment(_:)`` when the page cannot be written.
  package func write() throws(BatchError) {
    let page = html()
    do {
      try OutputEntry.refuseLink(path)
    } catch {
      throw .from(error)
    }
    do {
      try FileManager.default.createDirectory(
        atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path, withIntermediateDirectories: true)
      try AtomicDestination.write(Data(page.utf8), to: path)
    } catch {
      throw .environment("cannot write the gallery \(quoted: path): \(escaped: MessageText.reason(error))")
    }
  }

  /// The page.
  func html() -> String {
    let title = "Flick batch: " + URL(fileURLWithPath: plan.manifest.file).lastPathComponent
    var out = """
      <!doctype html>
      <html lang="en"><head><meta charset="utf-8"><title>\(Self.escape(title))</title>
      <style>
      body{font:14px system-ui,sans-serif;margin:24px;background:#f8fafc;color:#0f172a}
      .grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(320px,1fr));gap:16px}
      figure{margin:0;background:#fff;border:1px solid #e2e8f0;border-radius:8px;padding:12px}
      figure img,figure video{max-width:100%;display:block;margin-bottom:8px;background:#e2e8f0}
      .state{font-weight:600}.failed{color:#b91c1c}.missing,.running{color:#a16207}.done,.up-to-date{color:#15803d}
      table{border-collapse:collapse;font-size:12px}td{padding:1px 8px 1px 0;vertical-align:top}
      .placeholder{height:120px;display:flex;align-items:center;justify-content:center;background:#f1f5f9}
      </style></head><body>
      <h1>\(Self.escape(title))</h1>
      <p>\(Self.escape(status.summary))</p>
      <div class="grid">

      """
    for card in cards { out += figure(card) }
    out += "</div>\n</body></html>\n"
    return out
  }

  func figure(_ card: Card) -> String {
    let row = card.row
    let state = row.state.rawValue
    var out = "<figure class=\"card\" id=\"\(Self.escape(row.id.prefix(12)))\">\n"
    out += preview(card) + "\n"
    let kind = state.replacingOccurrences(of: " ", with: "-")
    out +=
      "<figcaption><div><b>\(Self.escape(row.name))</b> · <span class=\"state \(kind)\">"
      + Self.escape(state + (row.detail.map { " (\($0))" } ?? "")) + "</span></div>\n<table>\n"
    func line(_ key: String, _ value: String) { out += "<tr><td>\(Self.escape(key))</td><td>\(value)</td></tr>\n" }
    line("size", "\(card.width)×\(card.height)")
    line("frames", "\(card.frames.first ?? 0)..\(card.frames.last ?? 0)")
    if row.seconds > 0 { line("time", String(format: "%.2f s", row.seconds)) }
    if let error = row.error { line("error", Self.escape(error)) }
    for (name, value) in card.parameters.sorted(by: { $0.key < $1.key }) {
      line(name, Self.escape(Self.shown(value)))
    }
    for target in card.targets {
      let file = Stamp.folder(of: target)
      let bytes = Self.bytes(file, folder: target.format == .png)
      let label = target.format.rawValue + (bytes.map { " · " + Self.size($0) } ?? " · missing")
      line("output", "<a href=\"\(relative(file))\">\(Self.escape(label))</a>")
    }
    return out + "</table></figcaption></figure>\n"
  }

  /// The card's picture: an animated image itself, a sequence's first frame, a video's poster.
  func preview(_ card: Card) -> String {
    let ready = card.row.state == .done || card.row.state == .upToDate
    let alt = Self.escape(card.row.name)
    if ready {
      for format in [OutputFormat.gif, .webp, .apng] {
        if let t = card.targets.first(where: { $0.format == format }) {
          return "<img src=\"\(relative(t.path))\" alt=\"\(alt)\" loading=\"lazy\">"
        }
      }
      if let t = card.targets.first(where: { $0.format == .png }) {
        let folder = Stamp.folder(of: t)
        let first = Stamp.frameName(card.frames.first ?? 0, digits: BatchRunner.digits(of: t) ?? 4)
        if FileManager.default.fileExists(atPath: folder + "/" + first) {
          return "<img src=\"\(relative(folder + "/" + first))\" alt=\"\(alt)\" loading=\"lazy\">"
        }
      }
      if let t = card.targets.first(where: { [.mp4, .webm, .mov].contains($0.format) }) {
        let poster = posterFile(for: card.row.id)
        let made = makePoster(of: t.path, format: t.format, at: poster, width: card.width, height: card.height)
        let attribute = made ? " poster=\"\(relative(poster))\"" : ""
        return "<video src=\"\(relative(t.path))\"\(attribute) controls preload=\"none\" muted></video>"
      }
    }
    return "<div class=\"placeholder\">\(Self.escape(card.row.state.rawValue))</div>"
  }

  func posterFile(for id: String) -> String { path + ".posters/" + String(id.prefix(16)) + ".png" }

  /// Writes the first frame of the video at `video`, at most `width × height` pixels as planned,
  /// to `poster` with ffmpeg (kept while newer than the video); false when there is no ffmpeg,
  /// it fails, or a link is in the way. The output tree may come from other machines: a video
  /// that is a link, or lies in a linked folder of the output tree, is not decoded (its picture
  /// would be an outside file's), and a poster is a new file renamed into place, never written
  /// through a link planted under its name or as the posters folder. The video is read as the
  /// planned `format` (ffmpeg does not guess it: an `ffconcat` list under the video's name would
  /// have it read the files the list names).
  func makePoster(of video: String, format: OutputFormat, at poster: String, width: Int, height: Int) -> Bool {
    let folder = URL(fileURLWithPath: poster).deletingLastPathComponent().path
    guard ManifestScope.link(in: video, below: plan.manifest.outputRoot) == nil, !OutputEntry.isLink(video)
    else { return false }
    if let p = Self.regularFileTime(poster), let v = Self.regularFileTime(video), p >= v { return true }
    guard let ffmpeg = try? FFmpegTool.find() else { return false }
    try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    guard !OutputEntry.isLink(folder) else { return false }
    let temporary = folder + "/." + URL(fileURLWithPath: poster).lastPathComponent + ".\(getpid()).partial"
    Cleanup.shared.add(file: temporary)
    defer {
      unlink(temporary)
      Cleanup.shared.remove(file: temporary)
    }
    guard OutputEntry.reserveTemporary(temporary) == nil else { return false }
    let cap = FFmpegCommand.decoderPixels(width: width, height: height)
    guard
      let process = try? Subprocess(
        executable: ffmpeg,
        arguments: [
          "-hide_banner", "-nostdin", "-loglevel", "error", "-y", "-max_pixels", String(cap), "-f",
          format.ffmpegDemuxer,
          "-i", OutputFormat.ffmpegFile(video), "-map",
          "0:v:0", "-frames:v", "1", "-c:v", "png", "-update", "1", "-f", "image2", temporary,
        ])
    else { return false }
    guard process.waitOrStop(timeout: 60) == .exited(0) else { return false }
    return AtomicDestination.commit(temporary, to: poster) == nil
  }

  /// The modification time of the regular file at `path` itself (a link is not followed: nil).
  static func regularFileTime(_ path: String) -> Double? {
    var info = stat()
    guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
    return Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9
  }

  /// `file` as a link from the page's folder: relative, each component percent-encoded.
  func relative(_ file: String) -> String {
    let from = URL(fileURLWithPath: Self.real(URL(fileURLWithPath: path).deletingLastPathComponent().path))
      .pathComponents
    let to = URL(fileURLWithPath: Self.real(file)).pathComponents
    var common = 0
    while common < from.count, common < to.count, from[common] == to[common] { common += 1 }
    let parts = Array(repeating: "..", count: from.count - common) + to[common...].filter { $0 != "/" }
    let encoded = parts.map { $0.addingPercentEncoding(withAllowedCharacters: Self.allowed) ?? $0 }
    return Self.escape(encoded.joined(separator: "/") + (file.hasSuffix("/") ? "/" : ""))
  }

  /// `path` with the symbolic links of its deepest existing folder resolved (so two paths
  /// through different spellings of one folder relate), the rest as written.
  static func real(_ path: String) -> String {
    var head = URL(fileURLWithPath: path).standardizedFileURL.path
    var tail: [String] = []
    while head != "/" {
      if let resolved = realpath(head, nil) {
        defer { free(resolved) }
        return ([String(cString: resolved)] + tail.reversed()).joined(separator: "/")
      }
      tail.append((head as NSString).lastPathComponent)
      head = (head as NSString).deletingLastPathComponent
    }
    return path
  }

  /// What a link's path component keeps as it is. `:` is encoded too: a relative link whose first
  /// component held one (an output folder named `javascript:…`) would be read as a URL scheme.
  static let allowed = CharacterSet.urlPathAllowed.subtracting(CharacterSet(charactersIn: "/?#;:"))

  /// Text for HTML: the reports' one escaping (``SnapshotReport/xml(_:)``).
  static func escape(_ text: some StringProtocol) -> String {
    SnapshotReport.xml(String(text))
  }

  /// A parameter value as `--set` would take it.
  static func shown(_ value: JSON5Value) -> String {
    switch value.kind {
    case .null: "null"
    case .bool(let b): b ? "true" : "false"
    case .number(let n): n == n.rounded() && abs(n) < 1e15 ? String(Int(n)) : String(n)
    case .string(let s): s
    case .array, .object: value.kindDescription
    }
  }

  /// The bytes of a file, or of the regular files in a folder; nil when missing.
  static func bytes(_ path: String, folder: Bool) -> Int? {
    var info = stat()
    guard lstat(path, &info) == 0 else { return nil }
    guard folder else { return Int(info.st_size) }
    let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
    return names.reduce(0) { sum, name in
      var entry = stat()
      let regular = lstat(path + "/" + name, &entry) == 0 && (entry.st_mode & S_IFMT) == S_IFREG
      return regular ? sum + Int(entry.st_size) : sum
    }
  }

  static func size(_ bytes: Int) -> String {
    bytes >= 1 << 20
      ? String(format: "%.1f MB", Double(bytes) / 1e6)
      : bytes >= 1000 ? String(format: "%.1f kB", Double(bytes) / 1e3) : "\(bytes) B"
  }
}
