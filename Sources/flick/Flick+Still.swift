import FlickMotion
import FlickRaster
import FlickSnapshot
import FlickTemplates
import FlickVideo
import Foundation

extension Flick {
  /// `flick still TEMPLATE [--time S | --frame N | --at P%] -o FRAME.png`
  enum Still {
    static let help = """
      USAGE: flick still TEMPLATE|LOTTIE.json [--time SECONDS | --frame N | --at P%] [--scale S] [-q] -o FRAME.png

      Renders one frame to a PNG (RGBA, straight alpha), written atomically.
        --time SECONDS   scene time, e.g. 0.5 or 1.25s (default 0)
        --frame N        frame number N (time N / fps), 0-based
        --at P%          a point of the duration, e.g. 50%; 100% is the last frame (also 0, 1.2s,
                         end, frame:N, as for snapshot --at); a time past the end is an error
        --scale S        \(Flick.scaleHelp)
        --max-memory B   memory cap for the frame, estimated up front and watched (default 8G;
                         FLICK_MAX_MEMORY; exit 2 up front, 3 when the watch stops the process)
        --frame-timeout T  stop when the frame takes longer than T to draw (default 120s;
                         FLICK_FRAME_TIMEOUT; exit 3)
      An interruption (SIGINT, SIGTERM) or --timeout leaves no temporary file and the PNG as it was.
        -q, --quiet      print nothing but errors (not the output path, no warnings)
        --strict         characters no installed font has are an error, not a warning
      \(Flick.sceneOptionsHelp)
      TEMPLATE OPTIONS
      \(Flick.templateOptionsHelp)
      """

    /// The checks of every option with a number in its value, run as the arguments are parsed.
    static let checks: [String: Arguments.Check] = Flick.templateChecks
      .merging(Flick.sceneChecks) { a, _ in a }
      .merging(Limits.checks(Limits.frameCaps)) { a, _ in a }
      .merging([
        "scale": Flick.scaleRule.check("scale"),
        "time": { text throws(CommandError) in try instant(time: text) },
        "frame": { text throws(CommandError) in try instant(frame: text) },
        "at": { text throws(CommandError) in try instant(at: text) },
      ]) { _, b in b }

    /// Checks the grammar of `--time`, `--frame` or `--at` (``FlickSnapshot/StillTime``).
    static func instant(time: String? = nil, frame: String? = nil, at: String? = nil) throws(CommandError) {
      do {
        try StillTime.check(time: time, frame: frame, at: at)
      } catch {
        throw CommandError.usage(error.message)
      }
    }

    static func run(_ args: [String]) throws {
      StartupTrace.mark("flick still")
      let a = try Arguments(
        args,
        valued: Flick.templateOptions.union(["o", "output", "time", "frame", "at", "scale"])
          .union(Limits.frameCaps.map(\.option))
          .union(Flick.sceneOptions),
        flags: Flick.templateFlags.union(["help", "h", "strict", "quiet", "q"]).union(Flick.sceneFlags),
        checks: checks)
      if a.has("help") || a.has("h") {
        StandardStream.writeOutputLine(help)
        return
      }
      guard a.positionals.count == 1, let path = a.positionals.first else {
        throw CommandError.usage("still needs one TEMPLATE")
      }
      guard let output = a.value("o") ?? a.value("output") else {
        throw CommandError.usage("still needs an output: -o frame.png")
      }
      guard output.lowercased().hasSuffix(".png") else {
        throw CommandError.usage("still writes PNG files; give an output ending in .png")
      }
      let given = ["time", "frame", "at"].filter { a.value($0) != nil }
      guard given.count <= 1 else {
        throw CommandError.usage(
          "give one of --time, --frame and --at, not \(quoted: given.map { "--" + $0 }.joined(separator: " and "))")
      }
      var scale = 1.0
      if let text = a.value("scale") {
        scale = try Flick.scale(text)
      }
      // fontconfig reads its configuration on a second thread while the template loads; once
      // the layers are decoded, the text threads load Pango and shape their text, if they have
      // any, and once the frame's instant is known, the text of that instant (SharedText); their
      // pictures are decoded on a thread of their own meanwhile (PicturePrefetch): the same
      // layouts and pixels, sooner.
      let text = SharedText()
      text.startHelper()
      defer { text.stopHelper() }
      let pictures = PicturePrefetch()
      defer { pictures.finish() }
      let early = DecodeObserver(layers: { layers in
        pictures.start(layers.layers)
        text.layOutEarly(layers)
      })
      let assetLog = AssetLog()
      let quiet = a.has("quiet") || a.has("q")
      let scene = try loadScene(path, a, decodeObserver: early, assetLog: assetLog, angleWarnings: !quiet)
      StartupTrace.mark("template loaded")
      // The glyph check reads the layouts the frame's drawing made (one shaping of each text),
      // so it runs after the drawing, and the PNG is written only once it has passed. When the
      // still stops before drawing, it runs first: its message comes before the others.
      let strict = a.has("strict")
      func awaitGlyphCheck() throws {
        try checkGlyphs(scene, strict: strict, quiet: quiet, sharing: text)
        StartupTrace.mark("glyphs checked")
      }
      let time: Double
      do {
        time = try stillTime(a, scene)
        text.layOutAhead(of: scene, at: [time, 0], glyphScale: scale)
        try checkOutputFolder(output)
        if let refusal = RenderSession.inputReplaced(by: output, inputs: renderInputs(path, a, assetLog)) {
          throw CommandError(message: refusal, code: .invalidInput)
        }
      } catch {
        // The glyph check's message comes first, as when it ran before these checks.
        try awaitGlyphCheck()
        throw error
      }
      // The frame's size and memory are checked before drawing, as for a render.
      var session = RenderSession(
        scene: scene, outputs: [], frames: scene.frameCount > 0 ? 0..<1 : nil, scale: scale, discardFrames: true)
      session.limits = try Limits.render(a)
      session.pipeline = RenderPipeline(jobs: 1, framesInFlight: 1)
      do {
        try session.validate()
      } catch {
        try awaitGlyphCheck()
        throw CommandError(message: error.description, code: error.isInvalidInput ? .invalidInput : .environment)
      }
      // Frame.writePNG writes `.NAME.PID.tmp` beside the output and renames it into place: it is
      // registered so an interruption removes it, and stale ones of killed runs are removed first.
      Interruption.install()
      Limits.startWatches(session.limits, width: session.width, height: session.height)
      let url = URL(fileURLWithPath: output)
      let folder = url.deletingLastPathComponent().path
      Cleanup.removeStale(in: folder)
      let temporary = AtomicDestination.temporary(for: output)
      Cleanup.shared.register(temporaryFile: temporary)
      defer { Cleanup.shared.forget(temporaryFile: temporary) }
      let rendered = Result { () throws(RasterError) in
        try Renderer(scale: scale).render(scene.renderTree(at: time), sharing: text)
      }
      StartupTrace.mark("frame rendered")
      try awaitGlyphCheck()
      do {
        let frame = try rendered.get()
        // Committed under the interruption's lock: an interruption either comes first (the
        // temporary is removed, the output left as it was, exit 130) or finds the still done.
        try frame.writePNG(to: output, threads: Frame.threadsForOneFrame) { temporary, destination in
          Cleanup.shared.commitLastFile(temporary, to: destination)?.reason
        }
        StartupTrace.mark("PNG written")
      } catch {
        Interruption.waitIfInterrupted()
        let message = Flick.located(error)
        throw CommandError(message: message, code: .environment)
      }
      if !quiet { StandardStream.writeOutputLine(output) }
    }
  }
}
