import FlickMotion
import FlickRaster
import Foundation

extension Flick {
  /// `flick curve SPEC --from 0 --to 100 [--fps 60] [--duration auto|SECONDS] [--format csv|json] [--plot curve.png]`
  enum Curve {
    static let help = """
      USAGE: flick curve SPEC [--from 0] [--to 100] [--fps 60] [--duration auto|SECONDS]
                              [--format csv|json] [--plot curve.png]

      Samples an animation at t = n/fps and prints t,value,velocity (units and units/s).
      --duration auto (default) samples until the animation ends (a spring's settling time).

      SPEC examples (quote them for the shell):
        'spring(bounciness: 8, speed: 12)'      'spring(stiffness: 200, damping: 10)'
        'spring(duration: 0.5, bounce: 0.3)'    'spring(response: 0.55, dampingRatio: 0.825)'
        'spring(tension: 300, friction: 12, mass: 3)'   (Pop's dynamics)
        'spring(bounciness: 8, stepping: pop, fps: 120)'   (Pop's RK4 stepping at 120 Hz)
        'spring(stiffness: 200, damping: 10, stepping: gpuanimation, fps: 60)'
        'decay(velocity: 1000)'                 'decay(velocity: 2000, min: 0, max: 300)'
        'easeInEaseOut(duration: 0.6)'          'cubicBezier(0.2, 0.9, 0.3, 1.2, duration: 1)'
        'steps(5)'  'backOut'  'bounceOut'  'elasticOut(period: 0.4)'
        'keyframes(values: [0, 1.2, 0.9, 1], keyTimes: [0, 0.4, 0.7, 1], mode: cubic, duration: 0.8)'
        'constant'  'constant(0.5)'             (held: at --to, or at that fraction of the way)
        'drag(points: [0, 0.4, 1], curve: easeIn, duration: 0.5)'   (a finger; points are fractions)
        'spin(to: 6.28, duration: 1)' --duration 3   (from rest, the speed eased to 6.28 units/s, then held)
      Any spec also takes delay, repeatCount, repeatForever, autoreverses, timeOffset, fill.
      Springs take stepping: analytic (default) | pop | gpuanimation and fps (the display rate):
      a stepped spring shows the engine's frames, each held until the next.
      See docs/motion.md.
      """

    static func run(_ args: [String]) throws {
      let a = try Arguments(
        args, valued: ["format", "plot"], flags: ["help", "h"],
        checks: NumberRule.checks(numbers).merging([
          "duration": { text throws(CommandError) in _ = try Self.duration(text) }
        ]) { _, b in b })
      if a.has("help") || a.has("h") {
        StandardStream.writeOutputLine(help)
        return
      }
      guard a.positionals.count == 1, let text = a.positionals.first else {
        throw CommandError.usage("curve needs one SPEC, e.g. flick curve 'spring(bounciness: 8, speed: 12)'")
      }
      let from = try a.number("from", in: numbers) ?? 0
      let to = try a.number("to", in: numbers) ?? 100
      let fps = try a.number("fps", in: numbers) ?? 60
      let format = a.value("format") ?? "csv"
      guard format == "csv" || format == "json" else {
        throw CommandError.usage("--format must be csv or json, found '\(quoted: format)'")
      }
      let spec: AnimationSpec
      let curve: AnyAnimationCurve<Double>
      do {
        spec = try AnimationSpec(parsing: text)
        curve = try spec.curve(from: from, to: to)
      } catch {
        // A long spec is shown by its start (the column still counts in the whole text).
        throw CommandError(
          message: "invalid spec '\(quoted: text, limit: 60)': \(escaped: error.description)", code: .invalidInput)
      }
      var duration = curve.duration
      if let d = a.value("duration"), let v = try Self.duration(d) {
        duration = v
      } else if !duration.isFinite {
        throw CommandError.usage(
          "this animation never ends (repeatForever, a spin, or undamped); give --duration SECONDS")
      } else if duration > 3600 {
        throw CommandError.usage("this animation lasts \(duration) s; give --duration SECONDS (≤ 3600)")
      }
      let count = Int((duration * fps).rounded(.up))
      guard count <= 2_000_000 else {
        throw CommandError.usage("\(count + 1) samples is too many; lower --fps or --duration")
      }
      let samples = (0...count).map { n -> CurvePlot.Sample in
        let t = Double(n) / fps
        return CurvePlot.Sample(time: t, value: curve.value(at: t), velocity: curve.velocity(at: t))
      }
      if let plotPath = a.value("plot") {
        guard plotPath.lowercased().hasSuffix(".png") else {
          throw CommandError.usage("--plot writes a PNG; give a path ending in .png")
        }
        // The chart is sampled densely (≥ 1200 points) whatever --fps is, so it draws smoothly.
        let dense = max(count, 1200)
        let plotSamples = (0...dense).map { n -> CurvePlot.Sample in
          let t = duration * Double(n) / Double(dense)
          return CurvePlot.Sample(time: t, value: curve.value(at: t), velocity: curve.velocity(at: t))
        }
        let plot = CurvePlot(
          title: spec.source, subtitle: subtitle(spec: spec, curve: curve, from: from, to: to, samples: plotSamples),
          samples: plotSamples, fromValue: from, toValue: isDecay(spec) ? curve.finalValue : to,
          endTime: curve.duration.isFinite ? curve.duration : nil)
        do {
          try plot.render().writePNG(to: plotPath)
        } catch {
          throw CommandError(message: error.description, code: .environment)
        }
        log("wrote \(quoted: plotPath)")
      }
      StandardStream.writeOutputLine(
        format == "csv"
          ? csv(samples) : json(samples, spec: spec, from: from, to: to, fps: fps, duration: curve.duration))
    }

    private static func isDecay(_ spec: AnimationSpec) -> Bool {
      if case .decay = spec.kind { return true }
      return false
    }

    /// The options that take a plain number, and what each takes.
    static let numbers: [String: NumberRule] = [
      "from": .any, "to": .any, "fps": Trace.fpsRule,
    ]

    /// The seconds of `--duration` (`1.5`, `1.5s`, in 0…3600), or nil for `auto`.
    static func duration(_ text: String) throws(CommandError) -> Double? {
      guard text != "auto" else { return nil }
      let trimmed = text.hasSuffix("s") ? String(text.dropLast()) : text
      guard let v = DecimalText.optionValue(trimmed), (0...3600).contains(v) else {
        throw CommandError.usage("--duration must be 'auto' or seconds in 0…3600, found '\(quoted: text)'")
      }
      return v
    }

    private static func f(_ v: Double) -> String {
      if v == 0 { return "0" }
      return String(format: "%.10g", v)
    }

    static func csv(_ samples: [CurvePlot.Sample]) -> String {
      var out = "t,value,velocity"
      for s in samples { out += "\n\(f(s.time)),\(f(s.value)),\(f(s.velocity))" }
      return out
    }

    static func json(
      _ samples: [CurvePlot.Sample], spec: AnimationSpec, from: Double, to: Double, fps: Double, duration: Double
    ) -> String {
      // Not finite (an overflow: from 1e308 to -1e308 has an infinite velocity): null.
      func j(_ v: Double) -> String { JSONText.number(v, significantDigits: 10) }
      let rows = samples.map {
        "    {\"t\": \(j($0.time)), \"value\": \(j($0.value)), \"velocity\": \(j($0.velocity))}"
      }
      return """
        {
          "spec": \(JSONText.quoted(spec.source)),
          "from": \(j(from)),
          "to": \(j(to)),
          "fps": \(j(fps)),\(steppingField(spec))
          "duration": \(j(duration)),
          "samples": [
        \(rows.joined(separator: ",\n"))
          ]
        }
        """
    }

    /// `"stepping": {"engine": "pop", "fps": 120},` for a stepped spring, nothing otherwise.
    private static func steppingField(_ spec: AnimationSpec) -> String {
      switch spec.stepping {
      case .analytic: return ""
      case .pop(let fps):
        return "\n  \"stepping\": {\"engine\": \"pop\", \"fps\": \(JSONText.number(fps, significantDigits: 10))},"
      case .gpuAnimation(let fps):
        return
          "\n  \"stepping\": {\"engine\": \"gpuanimation\", \"fps\": \(JSONText.number(fps, significantDigits: 10))},"
      }
    }

    private static func subtitle(
      spec: AnimationSpec, curve: AnyAnimationCurve<Double>, from: Double, to: Double, samples: [CurvePlot.Sample]
    ) -> String {
      if isDecay(spec) {
        return "from \(f(from))  ·  final \(f(curve.finalValue))  ·  ends \(String(format: "%.3f s", curve.duration))"
      }
      var parts = ["\(f(from)) → \(f(to))"]
      if case .spring(let p, _, _, _) = spec.kind {
        parts.append(
          String(
            format: "k %.2f · c %.2f · m %.2f · ζ %.3f · response %.3f s", p.stiffness, p.damping, p.mass,
            p.dampingRatio, p.response))
      }
      if let fps = spec.stepping.fps {
        parts.append(
          String(format: "%@ stepping at %g fps", spec.stepping == .pop(fps: fps) ? "Pop" : "GPUAnimation", fps))
      }
      if curve.duration.isFinite { parts.append(String(format: "ends %.3f s", curve.duration)) }
      let range = to - from
      if range != 0 {
        let peak = samples.map { ($0.value - from) / range }.max() ?? 1
        if peak > 1 + 1e-9 { parts.append(String(format: "overshoot %.1f %%", (peak - 1) * 100)) }
      }
      return parts.joined(separator: "  ·  ")
    }
  }
}
