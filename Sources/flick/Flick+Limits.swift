import FlickMotion
import FlickRaster
import FlickScene
import FlickTemplates
import FlickVideo
import Foundation

extension Flick {
  /// Operator caps: each by option, else by environment variable, else the default that no
  /// legitimate preview reaches (docs/security.md). A template over a cap is refused before
  /// rendering (exit 2); a run that reaches one while rendering stops (exit 3).
  enum Limits {
    /// A cap: its option (without dashes), the kind of value it takes and what it caps with its
    /// default (the lines of `--help` after the option column). Its environment variable and its
    /// `--help` lines are derived from these.
    struct Cap {
      enum Kind {
        case count, bytes, seconds

        /// The value's placeholder in `--help`.
        var placeholder: String {
          switch self {
          case .count: "N"
          case .bytes: "B"
          case .seconds: "T"
          }
        }
      }
      var option: String
      var kind: Kind
      var summary: [String]

      /// `FLICK_` and the option in capitals (`max-pixels` → `FLICK_MAX_PIXELS`). Built without
      /// Foundation's `replacingOccurrences`, whose first use costs a command about 1.3 M
      /// instructions before its encoder starts.
      var variable: String { "FLICK_" + String(option.uppercased().map { $0 == "-" ? "_" : $0 }) }

      /// The `--help` lines: the option and its placeholder in a 26-column field, then the summary.
      var help: String {
        let column = "  --\(option) \(kind.placeholder)"
        let indent = String(repeating: " ", count: 26)
        return zip(summary.indices, summary).map { i, line in
          (i == 0 ? column.padding(toLength: max(26, column.count + 2), withPad: " ", startingAt: 0) : indent) + line
        }.joined(separator: "\n")
      }
    }

    static let pixels = Cap(
      option: "max-pixels", kind: .count,
      summary: ["largest image asset and output frame, in pixels (default 8192×8192)"])
    static let text = Cap(
      option: "max-text", kind: .count, summary: ["longest text layer string, in characters (default 10000)"])
    static let templateBytes = Cap(
      option: "max-template-bytes", kind: .bytes, summary: ["largest template file (default 16M); expansion may be 4×"])
    static let timeout = Cap(
      option: "timeout", kind: .seconds, summary: ["stop the command after T (e.g. 90s, 10m; exit 3; default none)"])
    static let frames = Cap(option: "max-frames", kind: .count, summary: ["most frames in one render (default 216000)"])
    static let memory = Cap(
      option: "max-memory", kind: .bytes,
      summary: [
        "memory cap of Flick and its ffmpeg: estimated up front (fewer",
        "workers when that fits, else refused) and watched (default 8G)",
      ])
    static let encoderTimeout = Cap(
      option: "encoder-timeout", kind: .seconds, summary: ["stop when ffmpeg makes no progress for T (default 120s)"])
    static let frameTimeout = Cap(
      option: "frame-timeout", kind: .seconds,
      summary: ["stop when one frame takes longer than T to draw (default 120s)"])
    static let work = Cap(
      option: "max-work", kind: .count,
      summary: [
        "most pixels drawn: frames × pixels × motion-blur samples", "(default 1e12, about an hour of drawing)",
      ])

    /// Caps every command that reads a template accepts.
    static let templateCaps = [pixels, text, templateBytes, timeout]
    /// Caps only rendering commands accept.
    static let renderCaps = [frames, memory, work, encoderTimeout, frameTimeout]
    /// Caps the command that draws a single frame accepts (`still`).
    static let frameCaps = [memory, frameTimeout]
    /// Caps the commands that draw the frames a list names accept (`snapshot`, `verify`,
    /// `accept --renderer`): the frame and work caps of a render for the list's frames.
    static let listCaps = [frames, work, memory, frameTimeout]
    /// Caps `flick plan` checks each job against before writing the plan (what is known there).
    static let planCaps = [pixels, frames, work]
    /// Caps `flick run` gives every job's render (and the memory watch of the process).
    static let runCaps = [pixels] + renderCaps
    /// Caps `flick merge` applies: the chunks' frame size, the memory watch and ffmpeg's progress.
    static let mergeCaps = [pixels, memory, encoderTimeout]

    /// Every cap: limits of a run, never parameters of a picture (a golden's manifest does not
    /// record them, and ignores them where an older Flick recorded them).
    /// The template's caps and a render's, which between them are every cap.
    static let allCaps = templateCaps + renderCaps

    static let templateHelp = help(templateCaps)
    static let renderHelp = help(renderCaps)

    /// The `--help` lines of `caps`.
    static func help(_ caps: [Cap]) -> String {
      caps.map(\.help).joined(separator: "\n")
    }

    /// "(each also by environment: FLICK_…, …)" for the caps of a command's help.
    static func variables(_ caps: [Cap]) -> String {
      "each also by environment: " + caps.map(\.variable).joined(separator: ", ")
    }

    /// The value of `cap` from `arguments` or the environment, or nil when neither sets it.
    static func value(_ cap: Cap, _ arguments: Arguments) throws(CommandError) -> Double? {
      // getenv, not ProcessInfo's environment, which copies every variable at each call.
      if let v = arguments.value(cap.option) {
        return try read(v, cap, source: "--\(cap.option)")
      } else if let p = getenv(cap.variable), case let v = String(cString: p), !v.isEmpty {
        return try read(v, cap, source: cap.variable)
      }
      return nil
    }

    /// The value of `cap` written as `text` in `source` (its option or variable).
    ///
    /// - Throws: A usage error (exit 2) naming `source`, the text and what it expects.
    static func read(_ text: String, _ cap: Cap, source: String) throws(CommandError) -> Double {
      guard let v = parse(text, cap.kind), v > 0 else {
        let example: String
        switch cap.kind {
        case .count: example = "a whole number such as 1000000 or 1e6"
        case .bytes: example = "a size such as 512M or 4G"
        case .seconds: example = "a duration such as 90, 90s, 10m or 1h"
        }
        throw CommandError.usage(
          "\(quoted: source) expects \(escaped: example) greater than 0 (decimal digits, as in templates), found "
            + "'\(quoted: text)'")
      }
      return v
    }

    /// The checks of `caps`' options, run as the arguments are parsed.
    static func checks(_ caps: [Cap]) -> [String: Arguments.Check] {
      var out: [String: Arguments.Check] = [:]
      for cap in caps { out[cap.option] = check(cap) }
      return out
    }

    /// The check of `cap`'s option.
    static func check(_ cap: Cap) -> Arguments.Check {
      let source = "--" + cap.option
      return { text throws(CommandError) in _ = try read(text, cap, source: source) }
    }

    /// Parses a count (`1000`, `1_000_000`, `1e6`), a size (`512K`, `4G`, bytes) or a duration
    /// (`90`, `1.5s`, `10m`, `1h`): a ``FlickMotion/DecimalText`` number (`_` may group its
    /// digits) and the unit, with nothing around them.
    static func parse(_ text: String, _ kind: Cap.Kind) -> Double? {
      var t = text.replacingOccurrences(of: "_", with: "")
      var factor = 1.0
      switch kind {
      case .count: break
      case .bytes:
        if t.lowercased().hasSuffix("ib") {
          t = String(t.dropLast(2))
        } else if t.lowercased().hasSuffix("b") {
          t = String(t.dropLast())
        }
        let units: [Character: Double] = ["k": 1024, "m": 1_048_576, "g": 1_073_741_824, "t": 1_099_511_627_776]
        if let last = t.last?.lowercased().first, let f = units[last] {
          factor = f
          t = String(t.dropLast())
        }
      case .seconds:
        let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600]
        if let last = t.last, let f = units[last] {
          factor = f
          t = String(t.dropLast())
        }
      }
      guard let v = DecimalText.optionValue(t), v >= 0 else { return nil }
      let result = v * factor
      if kind == .count && result != result.rounded() { return nil }
      return min(result, 1e15)
    }

    /// The template caps of `arguments` (and the environment) over the defaults.
    static func template(_ arguments: Arguments) throws(CommandError) -> TemplateLimits {
      var limits = TemplateLimits()
      if let v = try value(pixels, arguments) { limits.maximumImagePixels = Int(v) }
      if let v = try value(text, arguments) { limits.maximumTextLength = Int(v) }
      if let v = try value(templateBytes, arguments) {
        limits.maximumFileBytes = Int(v)
        limits.maximumExpandedBytes = Int(min(v * 4, 1e15))
      }
      return limits
    }

    /// The render caps of `arguments` (and the environment) over the defaults, reading only
    /// those of `caps` (a command reads the caps it accepts: ``planCaps``, ``runCaps``,
    /// ``mergeCaps``; every render cap by default).
    static func render(_ arguments: Arguments, caps: [Cap] = [pixels] + renderCaps) throws(CommandError)
      -> RenderLimits
    {
      func read(_ cap: Cap) throws(CommandError) -> Double? {
        caps.contains { $0.option == cap.option } ? try value(cap, arguments) : nil
      }
      var limits = RenderLimits()
      if let v = try read(pixels) { limits.maximumPixels = Int(v) }
      if let v = try read(frames) { limits.maximumFrames = Int(v) }
      if let v = try read(memory) { limits.maximumMemory = Int(v) }
      if let v = try read(encoderTimeout) { limits.encoderTimeout = v }
      if let v = try read(work) { limits.maximumWork = Int(v) }
      if let v = try read(frameTimeout) { limits.frameTimeout = v }
      return limits
    }

    /// Checks `count` frames of `scene` at `scale`, the frames `listing` names, against the caps
    /// of `arguments` (and the environment) before the first is drawn, then starts the memory and
    /// drawing watches; for the commands that draw a list of frames (`snapshot` and `verify`:
    /// the times of `--at` or of the goldens' manifest; `accept --renderer`: every golden).
    /// One frame's size and memory estimate are checked as a render's
    /// (``FlickVideo/RenderSession/validate()``, one worker), the frame count and the work
    /// (frames × pixels × motion-blur samples) by
    /// ``FlickVideo/RenderLimits/check(frames:width:height:samples:part:smaller:)``, render's check.
    ///
    /// - Parameters:
    ///   - listing: What lists the frames, as the message starts: `'goldens/manifest.json' lists`.
    ///   - part: How the command draws fewer frames (nil when it has no way).
    ///   - smaller: How it draws smaller frames (nil when it has no way).
    /// - Throws: exit 2 naming `listing`, the count and the cap (and how to raise it).
    static func checkFrames(
      _ count: Int, of scene: Scene, scale: Double, listing: String, part: String?,
      smaller: String? = "--scale draws smaller", _ arguments: Arguments
    ) throws(CommandError) {
      let limits = try refuseFrames(
        count, of: scene, scale: scale, listing: listing, part: part, smaller: smaller, arguments)
      let size = Renderer.pixelSize(of: scene.size, scale: scale)
      startWatches(limits, width: size.width, height: size.height)
    }

    /// What ``checkFrames(_:of:scale:listing:part:smaller:_:)`` checks, without starting the
    /// watches: the caps read, or the refusal.
    static func refuseFrames(
      _ count: Int, of scene: Scene, scale: Double, listing: String, part: String?, smaller: String?,
      _ arguments: Arguments
    ) throws(CommandError) -> RenderLimits {
      var session = RenderSession(
        scene: scene, outputs: [], frames: scene.frameCount > 0 ? 0..<1 : nil, scale: scale, discardFrames: true)
      let limits = try render(arguments)
      session.limits = limits
      // One frame's work is the list's to check, below, with the list's count.
      session.limits.maximumWork = .max
      session.pipeline = RenderPipeline(jobs: 1, framesInFlight: 1)
      do {
        try session.validate()
      } catch {
        throw CommandError(message: error.description, code: error.isInvalidInput ? .invalidInput : .environment)
      }
      do {
        try limits.check(
          frames: count, width: session.width, height: session.height, samples: scene.motionBlur?.samples ?? 1,
          part: part, smaller: smaller)
      } catch {
        throw CommandError(
          message: "\(escaped: listing) \(count) frames to draw: \(escaped: error.description)", code: .invalidInput)
      }
      return limits
    }

    /// Why the goldens' stored inputs must not be re-rendered: their template's `scene` drawn
    /// `count` times at `scale` passes a cap of `arguments` (``refuseFrames(_:of:scale:listing:part:smaller:_:)``),
    /// or nil when it does not. The stored template is the goldens', which may not be the
    /// template the command was given; for `verify` across a renderer change and `accept --renderer`
    /// (which draws nothing else: with `watch`, the memory and drawing watches start when it passes).
    static func rerenderRefusal(
      _ count: Int, _ scene: Scene, _ scale: Double, _ arguments: Arguments, watch: Bool = false
    ) -> String? {
      do {
        let limits = try refuseFrames(
          count, of: scene, scale: scale, listing: "re-rendering its goldens from their stored inputs takes",
          part: nil, smaller: nil, arguments)
        if watch {
          let size = Renderer.pixelSize(of: scene.size, scale: scale)
          startWatches(limits, width: size.width, height: size.height)
        }
        return nil
      } catch {
        return error.message
      }
    }

    /// Starts the memory watch (``FlickVideo/MemoryWatch``) at the cap of `limits` (or the
    /// process's control-group limit when lower), with the margin for frames of `width × height`
    /// pixels: the process stops with exit 3 before its resident size (with its ffmpeg
    /// processes') passes the cap. Starts the drawing watch (``FlickRaster/DrawingWatch``) too:
    /// the process stops with exit 3 when one frame draws for longer than `--frame-timeout`.
    static func startWatches(_ limits: RenderLimits, width: Int, height: Int) {
      Interruption.install()
      MemoryWatch.start(cap: limits.maximumMemory, frameBytes: width * height * 4)
      DrawingWatch.start(limit: limits.frameTimeout) { time, seconds in
        Interruption.stop(
          status: ExitCode.environment.rawValue,
          message: drawingStopMessage(time: time, seconds: seconds, limit: limits.frameTimeout))
      }
    }

    /// What the drawing watch says when it stops a command.
    static func drawingStopMessage(time: Double, seconds: Double, limit: Double) -> String {
      "\nflick: stopped: the frame at " + String(format: "%g", time) + " s has been drawing for "
        + "\(RenderLimits.format(seconds: seconds)), more than the limit of \(RenderLimits.format(seconds: limit)) "
        + "(a font, picture or effect the drawing libraries do not finish; --frame-timeout or FLICK_FRAME_TIMEOUT "
        + "sets the limit); temporary files removed\n"
    }

    /// Starts the `--timeout` watchdog when one is set: at the deadline every ffmpeg is killed,
    /// every temporary file removed, and the process exits with status 3.
    static func startTimeout(_ arguments: Arguments) throws(CommandError) {
      guard let seconds = try value(timeout, arguments) else { return }
      Interruption.install()
      Interruption.exit(after: seconds, status: ExitCode.environment.rawValue)
    }
  }
}
