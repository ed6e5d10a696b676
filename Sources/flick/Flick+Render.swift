import FlickMotion
import FlickRaster
import FlickScene
import FlickTemplates
import FlickVideo
import Foundation

extension Flick {
  /// `flick render TEMPLATE -o OUT...`
  enum Render {
    static let help = """
      USAGE: flick render TEMPLATE|LOTTIE.json -o OUT [-o OUT]... [options]

      A Lottie file (recognised by its content) renders whole, at its own size, frame rate and
      duration unless --size, --scale, --fps or --frames say otherwise.
      Renders every frame of TEMPLATE once and streams it into each output. The format follows the
      extension, or --format:
        .mp4   H.264 yuv420p, BT.709, +faststart (opaque; even sides, or --pad)
        .gif   palette GIF (palettegen stats_mode=diff, then paletteuse: two passes)
        .webm  VP9 with alpha (yuva420p)        .mov   ProRes 4444 with alpha
        .apng  animated PNG                     .webp  animated WebP with alpha
        DIR/ or DIR/NAME%04d.png                a PNG sequence (RGBA, straight alpha)
      Every output goes to a temporary file beside its destination and is renamed into place only
      when all outputs succeeded; on any failure or interruption nothing is left behind.

      OPTIONS
        -o, --output PATH     an output (repeat for several; they share one rasterisation)
        --format F            mp4|gif|webm|mov|apng|webp|png: once for all outputs, or once per -o
        --frames A..B         render frames A to B inclusive (A.., ..B and N also work)
        --fps N               frames per second (overrides the template)
        --size WxH            output size in pixels (same aspect ratio as the canvas)
        --scale S             \(Flick.scaleHelp)
        --jobs N              raster worker threads (default: the CPUs this process may use)
        --crf N               quality: H.264 1…51 (default 18), VP9 0…63 (default 30)
        --preset P            x264 preset, ultrafast…veryslow (default veryfast)
        --pad                 pad odd sides by one pixel for H.264 instead of failing
        --dither D            GIF dither: bayer (default), sierra2_4a, floyd_steinberg, heckbert, none
        --loop N              GIF/APNG/WebP: play N times; 0 = forever (default)
        --gif-fps N           GIF frame rate, ≤ 50; exact delays for 50, 25, 20, 10, …
        --gif-palette P       who makes the GIF palette: flick (default; ffmpeg 5.1 palettegen's
                              palette, computed while rendering) or ffmpeg (its palettegen, a pass
                              of its own; used anyway with --gif-width, which scales before it)
        --gif-width W         GIF width in pixels (height keeps the aspect ratio)
        --max-size SIZE       fit each GIF, MP4 and WebM under SIZE (2MB, 500KB: 1000-based; 10MiB:
                              1024-based); the first setting that fits is kept and named on stderr;
                              exit 2 if none fits. Re-encodes the kept frames, never renders again.
                              GIF: lowers, in this order, the frame rate (50, 25, 20, 10 fps), the
                              width (to \(OutputBudget.widthFractions) of it), the palette
                              (128, 64, 32 colours) and, with gifsicle, lossy LZW (--lossy 20…200).
                              MP4/WebM: keeps the --crf encoding if it fits, else encodes in two
                              passes at the bitrate the budget leaves (lowered by the measured
                              overshoot, up to 4 tries); under 0.02 (VP9 0.015) bits a pixel it
                              lowers the frame rate (fps/2, fps/3, … ≥ 10) and then the width (the
                              same steps) instead. MOV, APNG, WebP and PNG sequences are refused.
                              Finished GIFs go through `gifsicle -O3` when installed (same pixels;
                              not with --every-frame, nor when it would need more memory than an
                              MP4 of the size or than --max-memory leaves; FLICK_GIFSICLE=PATH or
                              none)
        --every-frame         GIF/APNG: one image per frame (by default a run of identical frames,
                              known from the scene, is one image with the run's delay)
        --progress MODE       auto (bar on a terminal), bar, json (one object per line), none
        -q, --quiet           print nothing but errors
        --strict              characters no installed font has are an error, not a warning
        --null                also render into a sink that discards frames (benchmarks)
        --dry-run             print the ffmpeg command of each output and stop (a GIF whose palette
                              ffmpeg makes, with --gif-palette ffmpeg or --gif-width, has two)
        --measure-pipe WxH    (no TEMPLATE) measure frame transport into `ffmpeg -f null`
      CAPS (\(Limits.variables(Limits.renderCaps)))
      \(Limits.renderHelp)
      \(Flick.sceneOptionsHelp)
      TEMPLATE OPTIONS
      \(Flick.templateOptionsHelp)
      """

    static let valued: Set<String> = Set([
      "o", "output", "format", "frames", "fps", "size", "scale", "jobs", "crf", "preset", "dither", "loop",
      "gif-fps", "gif-width", "gif-palette", "progress", "measure-pipe", "max-size",
    ]).union(Limits.renderCaps.map(\.option))
    static let flags: Set<String> = ["help", "h", "quiet", "q", "pad", "null", "dry-run", "strict", "every-frame"]

    static func run(_ args: [String]) throws {
      StartupTrace.mark("flick render")
      let a = try Arguments(
        args, valued: Flick.templateOptions.union(valued).union(Flick.sceneOptions),
        flags: Flick.templateFlags.union(flags).union(Flick.sceneFlags),
        repeatable: Arguments.repeatable.union(["o", "output", "format"]), checks: checks)
      if a.has("help") || a.has("h") {
        StandardStream.writeOutputLine(help)
        return
      }
      if let size = a.value("measure-pipe") {
        try measurePipe(size)
        return
      }
      guard a.positionals.count == 1, let path = a.positionals.first else {
        throw CommandError.usage(a.positionals.isEmpty ? "render needs a TEMPLATE" : "render takes one TEMPLATE")
      }
      let targets = try outputTargets(a)
      let discard = a.has("null")
      guard !targets.isEmpty || discard else {
        throw CommandError.usage("render needs at least one output: -o out.mp4")
      }
      let quiet = a.has("quiet") || a.has("q")
      let style = try progressStyle(a, quiet: quiet)
      let options = try encodingOptions(a)
      try checkMaxSize(options, targets: targets)
      let jobs = try a.whole("jobs", in: numbers)
      // ffmpeg is found now and checked only if an encoder fails (or for --dry-run).
      let probe = targets.contains { $0.format.usesFFmpeg } ? FFmpegTool.Probe(for: targets.map(\.format)) : nil
      // The rate is decided here, once, as the scene is decoded (the template's, or --fps).
      let fps = try a.whole("fps", in: numbers)
      // fontconfig reads its configuration on a second thread while the template compiles (it
      // is then done when the first frame lays text out); that thread also loads Pango and
      // shapes the text the glyph check reads, when the scene has text.
      let text = SharedText()
      text.startHelper()
      defer { text.stopHelper() }
      let early = EarlyEncoders()  // started while the template compiles; none outlives a failure
      defer { early.abortUnclaimed() }
      let observer = earlyStart(a, targets: targets, options: options, probe: probe, into: early)
      let assetLog = AssetLog()
      let scene = try loadScene(
        path, a, fps: fps, decodeObserver: observer, assetLog: assetLog, angleWarnings: !quiet)
      StartupTrace.mark("template loaded")
      // The glyph check reads the text the helper shapes, with fonts of their own: it runs beside
      // the encoders' start-up and the first frame's rendering, and must pass before that frame
      // is written.
      let strict = a.has("strict")
      let glyphScene = scene
      text.layOutAhead(of: scene, at: [0])
      let glyphCheck = BackgroundTask { try glyphGaps(glyphScene, sharing: text) }
      var session: RenderSession
      let schedule: FrameSchedule
      do {
        let scale = try outputScale(a, canvas: scene.size, evenSides: evenSides(targets, a))
        let frames = try a.value("frames").map { try frameRange($0, frameCount: scene.frameCount) }
        session = RenderSession(
          scene: scene, outputs: targets, frames: frames, scale: scale, options: options,
          pipeline: RenderPipeline(jobs: jobs ?? MachineCPUs.usable),
          discardFrames: discard)
        session.limits = try Limits.render(a)
        session.inputs = renderInputs(path, a, assetLog)
        schedule = try checking { try session.checkedSchedule() }
      } catch {
        // The glyph check's message comes first, as when it ran before these checks.
        try reportGlyphGaps(try glyphCheck.wait(), strict: strict, quiet: quiet)
        throw error
      }
      if a.has("dry-run") {
        try reportGlyphGaps(try glyphCheck.wait(), strict: strict, quiet: quiet)
        try check { try printCommands(session, schedule, probe: probe) }
        return
      }
      session.ffmpegProbe = probe
      let fitted = options.maxSize != nil
      if !quiet, let note = gifWarning(schedule, requested: session.options.gifFPS, fitted: fitted) { log(note) }
      if !quiet, let note = gifsicleNote(options, formats: targets.map(\.format)) { log(note) }

      Interruption.install()
      Limits.startWatches(session.limits, width: session.width, height: session.height)
      if !quiet, let fitted = session.fittedPipeline, fitted.jobs < session.pipeline.jobs {
        let workers = "\(fitted.jobs) worker\(fitted.jobs == 1 ? "" : "s")"
        log(
          "note: rendering with \(workers) instead of \(quoted: session.pipeline.jobs) "
            + "to stay under the memory cap of \(RenderLimits.format(bytes: session.limits.maximumMemory))")
      }
      for target in targets { Cleanup.removeStale(in: outputFolder(target)) }
      let printer = ProgressPrinter(style: style)
      func awaitGlyphCheck() throws {
        let gaps = try glyphCheck.wait()
        if !gaps.isEmpty { printer.endLine() }
        try reportGlyphGaps(gaps, strict: strict, quiet: quiet)
        StartupTrace.mark("glyphs checked")
      }
      var summary: RenderSummary?
      do {
        summary = try session.run(early: early, beforeFirstFrame: awaitGlyphCheck) { printer.report($0) }
      } catch {
        printer.endLine()
        try check { throw error }
      }
      guard let summary else { return }
      let wall = printer.elapsed
      // Even with --quiet: the GIF was written, but not with the bytes a working gifsicle makes.
      for output in summary.outputs { if let failure = output.gifsicleFailure { log(failure.warning) } }
      if !quiet {
        for output in summary.outputs {
          let images = output.images.map { " in \($0) images" } ?? ""
          log(
            "wrote \(quoted: output.path) (\(ProgressPrinter.size(output.bytes)), \(output.frames) frames\(quoted: images), "
              + String(format: "%.2f s", output.duration) + ")")
          if let note = output.budgetNote { log("\(quoted: output.path) \(escaped: note)") }
          // The rate --max-size chose, known only now.
          if fitted, output.format == .gif, let note = gifTimingNote(fps: output.fps, frames: output.frames) {
            log(note)
          }
          if let optimized = output.optimized { log("\(quoted: output.path) \(escaped: optimized.note)") }
          if let warning = sizeWarning(output, budget: options.maxSize) { log(warning) }
          if let reason = output.unmergedReason {
            log("note: the identical frames of \(quoted: output.path) were kept as they are: \(escaped: reason)")
          }
        }
        let counted =
          summary.rendered == summary.frames
          ? "\(summary.frames) frames" : "\(summary.rendered) of \(summary.frames) frames (no output needs the others)"
        log(
          "rendered \(quoted: counted) \(summary.width)×\(summary.height) "
            + String(format: "in %.2f s wall time (%.1f fps), ", wall, Double(summary.rendered) / max(wall, 1e-9))
            + "peak memory \(quoted: peakMemoryMiB()) MiB (flick alone, without ffmpeg)")
      }
      if !quiet {
        for output in summary.outputs { StandardStream.writeOutputLine(output.path) }
      }
    }

    /// The process's own peak resident memory in MiB (`ru_maxrss`; children are not included).
    static func peakMemoryMiB() -> Int {
      var usage = rusage()
      #if os(Linux)
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Int(usage.ru_maxrss) / 1024  // KiB
      #else
        getrusage(RUSAGE_SELF, &usage)
        return Int(usage.ru_maxrss) / (1024 * 1024)  // bytes
      #endif
    }

    /// Runs `body`, mapping errors to exit codes: invalid input 2, environment 3; a failure
    /// caused by an interruption waits for the interruption to exit with 130.
    static func check(_ body: () throws -> Void) throws {
      try checking(body)
    }

    /// ``check(_:)`` for work that returns a value.
    static func checking<T>(_ body: () throws -> T) throws -> T {
      do {
        return try body()
      } catch let error as VideoError {
        Interruption.waitIfInterrupted()
        throw CommandError(message: error.description, code: error.isInvalidInput ? .invalidInput : .environment)
      } catch let error as RasterError {
        Interruption.waitIfInterrupted()
        let message = Flick.located(error)
        throw CommandError(message: message, code: .environment)
      } catch {
        Interruption.waitIfInterrupted()
        throw error
      }
    }

    /// The folder an output's temporary files go to (beside a file; beside a sequence's folder).
    static func outputFolder(_ target: OutputTarget) -> String {
      var url = URL(fileURLWithPath: target.path)
      if target.format == .png, !target.path.contains("%") { url = url.standardizedFileURL }
      if target.format == .png, target.path.contains("%") { url.deleteLastPathComponent() }
      return url.deletingLastPathComponent().path
    }

    /// Prints each ffmpeg output's command line, shell-quoted, reading frames from stdin at the
    /// output's rate in `schedule`.
    /// `--dry-run`: each ffmpeg output's command lines, run by the ffmpeg `probe` finds and checks
    /// (nil when no output uses ffmpeg). With no ffmpeg installed the commands name `ffmpeg` and a
    /// note says it is missing: what a render would run is known without it (exit 0). Any other
    /// problem of the ffmpeg found (a `FLICK_FFMPEG` naming nothing, too old, an encoder missing)
    /// fails as the render would.
    static func printCommands(_ session: RenderSession, _ schedule: FrameSchedule, probe: FFmpegTool.Probe?) throws {
      var options = session.options
      options.padColor = RenderSession.rgb(session.scene.backgroundColor)
      var program = "ffmpeg"
      switch probe.map({ probe in Result { () throws(VideoError) in try probe.tool() } }) {
      case .success(let tool)?: program = tool.path
      case .failure(.ffmpegMissing)?:
        log(
          "note: ffmpeg is not installed (not found on PATH), so these commands name 'ffmpeg'; a render needs it "
            + "(Debian/Ubuntu: sudo apt-get install ffmpeg)")
      case .failure(let error)?: throw error
      case nil: break
      }
      for (output, plan) in zip(session.outputs, schedule.outputs) where output.format.usesFFmpeg {
        let command = try FFmpegCommand(
          format: output.format, width: session.width, height: session.height, fps: plan.fps,
          options: options, output: output.path, gifFinalDelay: output.format == .gif ? plan.gifFinalDelay : nil)
        if let pass = command.palettePass {
          StandardStream.writeOutputLine(([program] + pass).map(shellQuoted).joined(separator: " "))
        }
        StandardStream.writeOutputLine(([program] + command.arguments).map(shellQuoted).joined(separator: " "))
      }
    }

    static func shellQuoted(_ s: String) -> String {
      let safe = s.allSatisfy { $0.isLetter || $0.isNumber || "-_./:=+,%".contains($0) }
      return safe && !s.isEmpty ? s : "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// `--measure-pipe WxH`: raw frame throughput into `ffmpeg -f null`.
    static func measurePipe(_ text: String) throws {
      let (w, h) = try measuredSize(text)
      try check {
        let ffmpeg = try FFmpegTool.locate(for: [])
        let frames = max(60, 2_000_000_000 / (w * h * 4))
        let rate = try PipeThroughput.measure(ffmpeg: ffmpeg, width: w, height: h, frames: frames)
        StandardStream.writeOutputLine(
          String(format: "%.2f GB/s (%d frames of %dx%d into ffmpeg -f null)", rate / 1e9, frames, w, h))
      }
    }

    // MARK: - Options

    static func outputTargets(_ a: Arguments) throws -> [OutputTarget] {
      let paths = a.all("o") + a.all("output")
      let formats = try a.all("format").map { text -> OutputFormat in
        guard let f = OutputFormat(rawValue: text.lowercased()) else {
          throw CommandError.usage(
            "--format \(quoted: text) is not a format; use one of \(OutputFormat.allCases.map(\.rawValue).joined(separator: ", "))"
          )
        }
        return f
      }
      guard formats.count <= 1 || formats.count == paths.count else {
        throw CommandError.usage(
          "give --format once for all outputs or once per -o (\(paths.count) outputs, \(formats.count) formats)")
      }
      return try paths.enumerated().map { i, p in
        if !formats.isEmpty { return OutputTarget(path: p, format: formats.count == 1 ? formats[0] : formats[i]) }
        do {
          return try OutputTarget(path: p)
        } catch {
          throw CommandError.usage("\(escaped: error)" + (stillHint(for: p).map { "\n" + $0 } ?? ""))
        }
      }
    }

    static func progressStyle(_ a: Arguments, quiet: Bool) throws -> ProgressPrinter.Style {
      if quiet { return .none }
      switch a.value("progress") ?? "auto" {
      case "auto": return ProgressPrinter.automatic
      case "bar": return .bar
      case "json": return .json
      case "none": return .none
      case let other: throw CommandError.usage("--progress \(quoted: other) is not one of auto, bar, json, none")
      }
    }

    static func encodingOptions(_ a: Arguments) throws -> EncodingOptions {
      var o = EncodingOptions()
      if let v = try a.whole("crf", in: numbers) { o.crf = v }
      if let v = a.value("preset") {
        guard EncodingOptions.presets.contains(v) else {
          throw CommandError.usage(
            "--preset '\(quoted: v)' is not one of \(EncodingOptions.presets.joined(separator: ", "))")
        }
        o.preset = v
      }
      o.pad = a.has("pad")
      o.mergesIdenticalFrames = !a.has("every-frame")
      if let v = a.value("dither") {
        guard let d = EncodingOptions.Dither(rawValue: v) else {
          throw CommandError.usage(
            "--dither '\(quoted: v)' is not one of \(EncodingOptions.Dither.allCases.map(\.rawValue).joined(separator: ", "))"
          )
        }
        o.dither = d
      }
      if let v = a.value("loop") { o.plays = v == "forever" ? 0 : try a.whole("loop", in: numbers) ?? 0 }
      if let v = a.value("max-size") { o.maxSize = try maxSize(v) }
      if let v = try a.whole("gif-fps", in: numbers) { o.gifFPS = v }
      if let v = try a.whole("gif-width", in: numbers) { o.gifWidth = v }
      if let v = a.value("gif-palette") {
        guard let source = EncodingOptions.GIFPaletteSource(rawValue: v) else {
          throw CommandError.usage(
            "--gif-palette \(v) is not one of \(EncodingOptions.GIFPaletteSource.allCases.map(\.rawValue).joined(separator: ", "))"
          )
        }
        o.gifPalette = source
      }
      return o
    }
  }
}
