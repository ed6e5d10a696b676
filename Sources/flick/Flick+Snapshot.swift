import FlickMotion
import FlickRaster
import FlickScene
import FlickSnapshot
import FlickTemplates
import Foundation

extension Flick {
  /// `flick snapshot TEMPLATE --at TIMES --out DIR`
  enum Snapshot {
    static let help = """
      USAGE: flick snapshot TEMPLATE [--at TIMES] [--scale S] [--motion] --out DIR

      Renders TEMPLATE at each time to DIR/<label>.png and writes DIR/manifest.json (template and
      parameter hashes, times, size, Flick version, renderer fingerprint). What the frames were
      rendered from (the template, its parameter files and --set values, every image, font, Lottie
      and SVG file it uses) is stored in DIR/inputs/, content-addressed, so that 'flick verify' on
      another renderer re-renders these inputs and compares exactly. Use the folder as goldens for
      'flick verify'.

        --at TIMES   comma-separated: seconds (0, 1.2s), percentages of the duration (25%),
                     'end' (the last frame) or 'frame:N'; or 'all': every frame.
                     Default: 0,25%,50%,75%,end
        --scale S    \(Flick.scaleHelp) (default 1)
        --out DIR    the snapshot folder (created if needed)
        --motion     also record DIR/motion.txt: every animated property's value and velocity at
                     every frame time and event time (checked by 'flick verify' without rendering)
        --max-frames N  most frames one run draws: the times listed (default 216000;
                     FLICK_MAX_FRAMES; exit 2 before any frame is drawn, the folder untouched)
        --max-work N  most pixels drawn: frames × pixels × motion-blur samples (default 1e12;
                     FLICK_MAX_WORK; exit 2 up front, the folder untouched)
        --max-memory B  memory cap, estimated up front and watched (default 8G; FLICK_MAX_MEMORY;
                     exit 2 up front, 3 when the watch stops the process, the folder untouched)
        --frame-timeout T  stop when one frame takes longer than T to draw (default 120s;
                     FLICK_FRAME_TIMEOUT; exit 3, the folder untouched)
        -q, --quiet  print nothing but errors (not the golden paths, no notes or warnings)
      TEMPLATE OPTIONS
      \(Flick.templateOptionsHelp)
      """

    static let defaultTimes = "0,25%,50%,75%,end"
    /// How `snapshot` and `verify` draw fewer frames, as a message over the frame or work cap says.
    static let fewerTimes = "fewer --at times draw part"

    static func run(_ args: [String]) throws {
      let a = try Arguments(
        args, valued: Flick.templateOptions.union(["at", "out", "o", "scale"]).union(Limits.listCaps.map(\.option)),
        flags: Flick.templateFlags.union(["help", "h", "quiet", "q", "motion"]),
        checks: timeChecks.merging(Limits.checks(Limits.listCaps)) { a, _ in a })
      if a.has("help") || a.has("h") {
        StandardStream.writeOutputLine(help)
        return
      }
      guard a.positionals.count == 1, let path = a.positionals.first else {
        throw CommandError.usage("snapshot needs one TEMPLATE")
      }
      guard let out = a.value("out") ?? a.value("o") else {
        throw CommandError.usage("snapshot needs an output folder: --out DIR")
      }
      let scale = try parseScale(a.value("scale"))
      let assetLog = AssetLog()
      let source = try readSource(path, a)
      let template = try loadTemplate(path, a, assetLog: assetLog, source: source)
      let times = try parseTimes(a.value("at") ?? defaultTimes, scene: template.scene)
      let resolved = try resolve(times, in: template)
      try Limits.checkFrames(
        resolved.count, of: template.scene, scale: scale ?? 1,
        listing: a.value("at") != nil ? "--at lists" : "--at (default \(defaultTimes)) lists", part: fewerTimes, a)
      let quiet = a.has("quiet") || a.has("q")
      let captured = try captureInputs(source, a, assetLog, note: { if !quiet { log($0) } })
      // A previous manifest names the goldens this run replaces or removes: it must be sound
      // (every name inside the folder) before anything is rendered or touched.
      let previous: SnapshotManifest?
      do {
        previous = try SnapshotManifest.read(from: out)
      } catch {
        throw CommandError(message: error.description, code: .invalidInput)
      }
      // Each frame is encoded and spooled to a temporary file as soon as it is drawn: the run
      // holds one frame, however many times --at lists (what the memory estimate counts).
      let spool: GoldenSpool
      do {
        spool = try GoldenSpool(tracking: .cleanup)
      } catch {
        throw CommandError(message: error.description + "; the snapshot folder was left unchanged", code: .environment)
      }
      var entries: [SnapshotManifest.Entry] = []
      var frames: [(file: String, content: SnapshotCommit.Content)] = []
      var size = (width: 0, height: 0)
      for (time, seconds) in resolved {
        let frame = try render(template, at: seconds, scale: scale)
        size = (frame.width, frame.height)
        let file = SnapshotManifest.fileName(for: time)
        do {
          frames.append((file, try spool.add(frame, renderer: .current)))
        } catch {
          throw CommandError(
            message: error.description + "; the snapshot folder was left unchanged", code: .environment)
        }
        entries.append(SnapshotManifest.Entry(time: time, seconds: seconds, file: file))
      }
      var manifest = try makeManifest(
        source, a, template, scale: scale, size: size, frames: entries, inputs: captured?.inputs)
      let motion =
        a.has("motion")
        ? MotionGolden.record(
          tracks: template.tracks,
          at: MotionGolden.sampleTimes(
            tracks: template.tracks, duration: template.scene.duration, fps: template.scene.fps))
        : nil
      manifest.motion = motion?.manifestEntry
      // Goldens and manifest are committed together (all or nothing); goldens of times no longer
      // listed, which the last manifest made, are removed after.
      do {
        try SnapshotCommit(
          directory: out, files: frames, manifest: manifest, previous: previous, blobs: captured?.blobs ?? [:],
          motion: motion
        ).apply()
      } catch {
        throw CommandError(
          message: error.description + (error.isInvalidInput ? "" : "; the snapshot folder was left unchanged"),
          code: error.isInvalidInput ? .invalidInput : .environment)
      }
      guard !quiet else { return }
      for entry in entries { StandardStream.writeOutputLine((out as NSString).appendingPathComponent(entry.file)) }
      do {
        log("snapshot \(quoted: template.name): \(entries.count) frames \(size.width)×\(size.height) in \(quoted: out)")
        if let motion {
          log("motion golden: \(motion.tracks.count) animated properties at \(motion.times.count) times")
        }
      }
    }

    // MARK: - Shared with verify

    /// The checks of `--at`, `--scale` and the template caps, run as the arguments are parsed
    /// (`snapshot` and `verify`).
    static let timeChecks: [String: Arguments.Check] = Flick.templateChecks.merging([
      "scale": Flick.scaleRule.check("scale"),
      "at": { text throws(CommandError) in if !SnapshotTime.isEveryFrame(text) { _ = try parseTimes(text) } },
    ]) { _, b in b }

    static func parseTimes(_ text: String, scene: Scene) throws(CommandError) -> [SnapshotTime] {
      if SnapshotTime.isEveryFrame(text) { return SnapshotTime.everyFrame(duration: scene.duration, fps: scene.fps) }
      return try parseTimes(text)
    }

    static func parseTimes(_ text: String) throws(CommandError) -> [SnapshotTime] {
      do {
        return try SnapshotTime.list(text)
      } catch {
        throw CommandError.usage("--at: \(escaped: error.description)")
      }
    }

    static func parseScale(_ text: String?) throws(CommandError) -> Double? {
      guard let text else { return nil }
      return try Flick.scale(text)
    }

    /// Resolves each time to seconds in the template's scene (exit 2 for a time outside it).
    static func resolve(_ times: [SnapshotTime], in template: Template) throws(CommandError)
      -> [(SnapshotTime, Double)]
    {
      var out: [(SnapshotTime, Double)] = []
      for time in times {
        do {
          out.append((time, try time.seconds(duration: template.scene.duration, fps: template.scene.fps)))
        } catch {
          throw CommandError(message: error.description, code: .invalidInput)
        }
      }
      return out
    }

    static func render(_ template: Template, at seconds: Double, scale: Double?) throws(CommandError) -> Frame {
      do {
        return try Renderer(scale: scale ?? 1).render(template.scene.renderTree(at: seconds))
      } catch {
        if case .invalidSize = error { throw CommandError(message: error.description, code: .invalidInput) }
        throw CommandError(message: error.description, code: .environment)
      }
    }

    static func ensureDirectory(_ path: String) throws(CommandError) {
      do {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
      } catch {
        throw CommandError(
          message: "cannot create \(quoted: path): \(escaped: MessageText.reason(error))", code: .environment)
      }
    }

    static func makeManifest(
      _ source: SourceFile, _ a: Arguments, _ template: Template, scale: Double?, size: (width: Int, height: Int),
      frames: [SnapshotManifest.Entry], inputs: SnapshotInputs? = nil
    ) throws(CommandError) -> SnapshotManifest {
      // The template's hash is of the bytes it was loaded from (read once, ``readSource(_:_:)``).
      let file = source.path
      let bytes = source.head.bytes
      let parameters = parameters(a)
      return SnapshotManifest(
        template: (file as NSString).lastPathComponent, templateHash: SnapshotManifest.hash(bytes),
        parameters: parameters, parameterHash: try parameterHash(parameters, a), width: size.width,
        height: size.height, scale: scale ?? 1, fps: template.scene.fps, duration: template.scene.duration,
        frames: frames, flickVersion: Flick.version, inputs: inputs)
    }

    /// What the template load used (template, parameter files, `--set` values, assets, fonts),
    /// to store beside the goldens; nil, with a warning, when something cannot be stored (an
    /// asset outside the template's folder): the goldens then compare perceptually on another
    /// renderer, as goldens recorded before Flick stored inputs do.
    static func captureInputs(
      _ source: SourceFile, _ a: Arguments, _ assetLog: AssetLog, note: (String) -> Void = { log($0) }
    ) throws(CommandError) -> SnapshotInputs.Captured? {
      do {
        return try SnapshotInputs.capture(
          templateFile: source.path, templateBytes: source.head.bytes, parameterFiles: a.all("params"),
          sets: a.all("set"),
          allowOutsideAssets: a.has("allow-outside-assets"), assets: assetLog.paths)
      } catch {
        note(
          "warning: the goldens' inputs are not stored (\(escaped: error.description)): on another renderer "
            + "they will be compared perceptually, not re-rendered")
        return nil
      }
    }
  }
}
