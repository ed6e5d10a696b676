import FlickMotion
import FlickTemplates
import FlickVideo
import Foundation

extension Studio {
  /// `POST /api/export` `{"format": "mp4", "output": "rel.mp4"?}`: renders as `flick render NAME
  /// -o OUTPUT` does (an output without an extension takes the format's; one with another
  /// extension is refused) with the current parameters (the same ``FlickVideo/RenderSession``, so the
  /// file is byte-identical), in the background; progress, done and failed arrive as events.
  func export(_ request: HTTPRequest, _ session: TemplateSession) -> HTTPResponse {
    guard let body = try? JSONDecoder().decode(ExportRequest.self, from: request.body) else {
      return StudioResponse.error(400, "the body must be {\"format\": \"mp4|gif|webm|mov|apng|webp|png\"}")
    }
    guard let format = OutputFormat(rawValue: body.format.lowercased()) else {
      let known = OutputFormat.allCases.map(\.rawValue).joined(separator: ", ")
      return StudioResponse.error(400, "\(quoted: body.format) is not a format; use one of \(escaped: known)")
    }
    let defaultName =
      (session.name as NSString).deletingPathExtension + (format == .png ? "-frames/" : "." + format.rawValue)
    var written = body.output ?? defaultName
    // A file export carries its format's extension (added when the name has none), never
    // another's: a GIF named inputs.json5 would be listed as a template.
    if format != .png {
      let given = (written as NSString).pathExtension
      if given.isEmpty && !written.hasSuffix("/") {
        written += "." + format.rawValue
      } else if given.lowercased() != format.rawValue {
        return StudioResponse.error(
          400,
          "\(quoted: written) does not end in .\(escaped: format.rawValue): an export's file carries its format's "
            + "extension (or none, and it is added)")
      }
    }
    // The entry written: the file, or a PNG sequence's folder (with what follows it kept).
    let (entryName, tail) = Self.exportEntry(written, format)
    let entry: String
    switch workspace.destination(entryName) {
    case .success(let p): entry = p
    case .failure(let refusal): return refusal.response
    }
    let path = entry + tail
    if isTemplate(entry) {
      return StudioResponse.error(409, "\(quoted: written) is a template of this folder; it is never overwritten")
    }
    if session.files.contains(entry) {
      return StudioResponse.error(409, "\(quoted: written) is a file the template reads; it is never overwritten")
    }
    if let refusal = Self.replacementRefusal(entry, format) {
      return StudioResponse.error(
        409, "\(quoted: written) exists and \(escaped: refusal); an export replaces only an earlier output of its kind")
    }
    let template: Template
    do throws(TemplateError) {
      template = try session.template(assignments: nil)
    } catch {
      return StudioResponse.json(TemplateErrorBody(status: 422, diagnostic: diagnostic(error)), status: 422)
    }
    var renderSession = RenderSession(
      scene: template.scene, outputs: [OutputTarget(path: path, format: format)],
      pipeline: RenderPipeline(jobs: MachineCPUs.usable))
    renderSession.limits = options.exportLimits
    do {
      try renderSession.validate()
    } catch {
      return StudioResponse.error(400, error.description)
    }
    renderSession.ffmpegProbe = format.usesFFmpeg ? FFmpegTool.Probe(for: [format]) : nil
    let relative = workspace.relative(path)
    // The job claims the one export slot, or finds the export that holds it.
    let slot = runningExport.withLock { running -> (job: Int, output: String, claimed: Bool) in
      if let running { return (running.job, running.output, false) }
      let job = jobs.withLock { n -> Int in
        n += 1
        return n
      }
      running = (job, relative)
      return (job, relative, true)
    }
    guard slot.claimed else {
      return StudioResponse.error(
        409, "export \(slot.job) (\(quoted: slot.output)) is still running; start the next when it has ended")
    }
    let job = slot.job
    let prepared = renderSession
    let thread = Thread { [self] in
      // Ended (done or failed) before its last event, so the page may start the next at once.
      func end() { runningExport.withLock { $0 = nil } }
      Cleanup.removeStale(in: URL(fileURLWithPath: path).deletingLastPathComponent().path)
      do {
        var lastFinishing: FinishingEvent?
        let summary = try prepared.run { progress in
          // A finish step (a GIF's encoding pass, gifsicle) moves no frame count: it is a
          // "finishing" event, each new step at once and a pass's frames in twentieths.
          if let step = progress.step {
            let event = FinishingEvent(job: job, step: step)
            if event.step != lastFinishing?.step || event.twentieths != lastFinishing?.twentieths {
              self.broadcast("finishing", event)
              lastFinishing = event
            }
            return
          }
          self.broadcast(
            "progress",
            ProgressEvent(
              job: job, fraction: Double(progress.framesDone) / Double(max(1, progress.totalFrames)),
              frame: progress.framesDone, frames: progress.totalFrames))
        }
        let bytes = summary.outputs.first.map(\.bytes) ?? 0
        // The export is kept without gifsicle's pass: said in the studio's log, as render says
        // it, and on the page beside the export's size.
        let warnings = summary.outputs.compactMap { $0.gifsicleFailure?.warning }
        for warning in warnings { StandardStream.writeError(MessageText.logEntry(warning) + "\n") }
        end()
        self.broadcast("done", DoneEvent(job: job, output: relative, bytes: Int(bytes), warnings: warnings))
      } catch {
        end()
        self.broadcast("failed", FailedEvent(job: job, message: "\(escaped: error)"))
      }
    }
    thread.name = "flick.studio.export.\(job)"
    thread.start()
    return StudioResponse.json(ExportBody(job: job, output: relative))
  }
}

extension Studio {
  /// The entry an export to `written` writes, relative to the opened folder, and what follows
  /// it in the output's path: the file itself for a file format; for a PNG sequence its folder
  /// (`frames/` → `frames`, `/`; `frames/shot-%04d.png` → `frames`, `/shot-%04d.png`; a pattern
  /// without a folder is in `.`, the opened folder).
  static func exportEntry(_ written: String, _ format: OutputFormat) -> (entry: String, tail: String) {
    guard format == .png, !written.hasSuffix("/"), OutputFormat(path: written) == .png else {
      return (written, written.hasSuffix("/") ? "/" : "")
    }
    guard let slash = written.lastIndex(of: "/") else { return (".", "/" + written) }
    return (String(written[..<slash]), String(written[slash...]))
  }

  /// Why an export of `format` must not replace what is at `entry` (not followed), or nil when
  /// nothing is there or it is an earlier output of the same kind: a regular file with the
  /// format's extension, or, for a PNG sequence, an empty folder or one holding the marker Flick
  /// leaves in a sequence it wrote (``FlickVideo/PNGSequenceWriter/markerName``).
  static func replacementRefusal(_ entry: String, _ format: OutputFormat) -> String? {
    var info = stat()
    guard lstat(entry, &info) == 0 else { return nil }
    switch (info.st_mode & S_IFMT, format) {
    case (S_IFDIR, .png):
      let names = (try? FileManager.default.contentsOfDirectory(atPath: entry)) ?? ["?"]
      var marker = stat()
      let path = entry + "/" + PNGSequenceWriter.markerName
      if names.isEmpty || (lstat(path, &marker) == 0 && (marker.st_mode & S_IFMT) == S_IFREG) { return nil }
      return "is a folder that holds no PNG sequence Flick wrote"
    case (S_IFDIR, _):
      return "is a folder"
    case (S_IFREG, .png):
      return "is a file, not a folder of PNG frames"
    case (S_IFREG, _):
      if OutputFormat(path: entry) == format { return nil }
      return "is not a .\(escaped: format.rawValue) file"
    default:
      return "is not a regular file"
    }
  }
}

struct ExportRequest: Decodable {
  var format: String
  var output: String?
}

struct ExportBody: Encodable {
  var job: Int
  var output: String
}

struct ProgressEvent: Encodable {
  var job: Int
  var fraction: Double
  var frame: Int
  var frames: Int
}

/// What an export does after its last frame: `step` is `encode-gif` (with `done` of `of` frames
/// sent to the GIF's encoding pass), `gifsicle` or `max-size` (``FlickVideo/RenderProgress/Step``).
struct FinishingEvent: Encodable {
  var job: Int
  var step: String
  var done: Int?
  var of: Int?

  init(job: Int, step: RenderProgress.Step) {
    self.job = job
    self.step = step.kind
    if case .encodingGIF(_, let frame, let frames) = step {
      done = frame
      of = frames
    }
  }

  /// How far a pass is, in twentieths (nil for a step without frames): the events sent.
  var twentieths: Int? { done.flatMap { done in of.map { done * 20 / max(1, $0) } } }
}

struct DoneEvent: Encodable {
  var job: Int
  var output: String
  var bytes: Int
  /// What the export's file is not, though it was written: a gifsicle that failed leaves
  /// Flick's own GIF, not the bytes an export with a working gifsicle writes. Empty when none.
  var warnings: [String]
}

struct FailedEvent: Encodable {
  var job: Int
  var message: String
}
