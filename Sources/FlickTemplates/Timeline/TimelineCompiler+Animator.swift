import FlickMotion
import FlickScene

extension TimelineCompiler {
  /// `{ animator: { duration, curve, target + animate (or animations: […]), events: […] } }`: a
  /// `UIViewPropertyAnimator` driven by scripted events (`start`, `pause`, `reverse`, `scrub`,
  /// `continue`, `stop`, `finish`) at times relative to the entry's begin.
  mutating func animator(_ o: [String: TemplateNode], _ node: TemplateNode, begin: Double) throws(TemplateError) -> Span {
    guard let animatorNode = o["animator"] else { return Span(begin: begin, end: begin) }
    let a = try animatorNode.object(allowed: ["duration", "curve", "target", "targets", "animate", "animations", "events"])
    guard let durationNode = a["duration"] else { throw animatorNode.error("an animator needs a 'duration' in seconds") }
    let duration = try durationNode.double(in: 0.001...3600)
    let timing = try Self.timingParameters(a["curve"])
    guard let eventsNode = a["events"] else {
      throw animatorNode.error("an animator needs 'events', e.g. [{ at: 0, do: \"start\" }]")
    }
    let events = try eventsNode.array()
    guard !events.isEmpty else { throw eventsNode.error("an animator needs at least one event, e.g. { at: 0, do: \"start\" }") }
    let progress = try Self.replay(events, duration: duration, timing: timing)

    // What it animates: `target` + `animate`, or a list of { target(s), animate }.
    var groups: [(o: [String: TemplateNode], node: TemplateNode)] = []
    if a["animate"] != nil || a["target"] != nil || a["targets"] != nil {
      if a["animations"] != nil { throw animatorNode.error("give 'target' + 'animate' or 'animations', not both") }
      groups.append((a, animatorNode))
    }
    for item in try a["animations"]?.array() ?? [] {
      groups.append((try item.object(allowed: ["target", "targets", "animate"]), item))
    }
    guard !groups.isEmpty else { throw animatorNode.error("an animator needs something to animate: 'target' and 'animate'") }
    let firstEvent = begin + progress.firstEventTime
    for (g, groupNode) in groups {
      guard let animateNode = g["animate"] else { throw groupNode.error("missing 'animate' (properties and their targets)") }
      guard case .object(let members) = animateNode.value.kind, !members.isEmpty else {
        throw animateNode.expected("an object of properties and target values, like { scaleXY: [2, 2] }")
      }
      for target in try targets(g, groupNode) {
        for m in members {
          let valueNode = animateNode.child(m.key, m.value)
          let property = try Self.property(named: m.key, valueNode, layer: layer(target.id), layerID: target.id)
          _ = try perform(property, layerID: target.id, .animator(valueNode, progress: progress, begin: firstEvent))
        }
      }
    }
    return Span(begin: begin, end: begin + progress.end)
  }

  mutating func animatorTyped<V: Animatable>(
    _ p: LayerProperty<V>, layerID: String, _ node: TemplateNode, progress: AnimatorScript, begin: Double,
    decode: (TemplateNode) throws(TemplateError) -> V
  ) throws(TemplateError) -> Double {
    var toNode = node
    var from = currentValue(p, layerID: layerID, at: begin)
    if case .object(let members) = node.value.kind, members.contains(where: { $0.key == "to" || $0.key == "from" }) {
      let o = try node.object(allowed: ["to", "from"])
      guard let to = o["to"] else { throw node.error("missing 'to'") }
      toNode = to
      if let f = o["from"] { from = try decode(f) }
    }
    let curve = AnimatorCurve(
      from: from, to: try decode(toNode), progress: progress, offset: progress.firstEventTime)
    try add(p, layerID: layerID, curve: AnyAnimationCurve(curve), begin: begin, node: node)
    return begin + curve.duration
  }

  /// The animator's timing (`UITimingCurveProvider`): a curve name or bezier (cubic timing), or a
  /// spring; `spring(dampingRatio: …)` alone is UIKit's `UISpringTimingParameters(dampingRatio:)`,
  /// which settles within the animator's duration. Default `easeInEaseOut`.
  static func timingParameters(_ node: TemplateNode?) throws(TemplateError) -> PropertyAnimator<Double>.TimingParameters {
    guard let node else { return .cubic(.easeInEaseOut) }
    guard case .spec(let spec, _) = try TemplateMotion.curve(node) else {
      throw node.error("expected a timing curve or spring")
    }
    switch spec.kind {
    case .tween(let f, _):
      return .cubic(f)
    case .spring(let parameters, _, let normalized, _):
      let source = spec.source
      if source.contains("dampingRatio") && !source.contains("response") {
        return .spring(dampingRatio: parameters.dampingRatio, initialVelocity: normalized ?? 0)
      }
      return .springPhysics(parameters, initialVelocity: normalized ?? 0)
    default:
      throw node.error("an animator's curve is a timing curve (\"easeOut\", [x1, y1, x2, y2]) or a spring")
    }
  }

  /// Plays the scripted events on a ``PropertyAnimator``.
  static func replay(
    _ events: [TemplateNode], duration: Double, timing: PropertyAnimator<Double>.TimingParameters
  ) throws(TemplateError) -> AnimatorScript {
    var script = AnimatorScript(animator: PropertyAnimator(duration: duration, timingParameters: timing, model: 0))
    var time: Double?
    var busyUntil = 0.0
    for event in events {
      let e = try event.object(allowed: [
        "at", "do", "delay", "fraction", "duration", "curve", "durationFactor", "position", "reversed", "withoutFinishing",
      ])
      guard let doNode = e["do"] else {
        throw event.error("an event needs 'do': one of \(AnimatorScript.Command.allCases.map(\.rawValue).joined(separator: ", "))")
      }
      let command = AnimatorScript.Command(
        rawValue: try doNode.string(oneOf: AnimatorScript.Command.allCases.map(\.rawValue))) ?? .start
      let allowed: [AnimatorScript.Command: [String]] = [
        .start: ["delay"], .scrub: ["fraction", "duration", "curve"], .continue: ["durationFactor", "curve"],
        .finish: ["position"], .reverse: ["reversed"], .stop: ["withoutFinishing"],
      ]
      for (key, n) in e where !["at", "do"].contains(key) && !(allowed[command] ?? []).contains(key) {
        throw n.error("'\(key)' does not apply to '\(command.rawValue)'")
      }
      /// Runs one control call, reporting UIKit rule violations at the event.
      func control(_ body: (inout PropertyAnimator<Double>) throws(AnimatorError) -> Void) throws(TemplateError) {
        do {
          try body(&script.animator)
        } catch {
          let hint = command == .finish ? "; in a template, { do: \"stop\" } comes before 'finish'" : ""
          throw doNode.error(error.message + hint)
        }
      }
      let previous = time ?? 0
      let t = try e["at"]?.double(in: 0...3600) ?? previous
      guard t >= previous else {
        throw (e["at"] ?? event).error(
          "events must be in time order: \(TemplateNode.format(t)) s comes after \(TemplateNode.format(previous)) s")
      }
      guard t >= busyUntil else {
        throw (e["at"] ?? event).error(
          "at \(TemplateNode.format(t)) s the previous scrub is still moving (until \(TemplateNode.format(busyUntil)) s)")
      }
      if time == nil {
        script.firstEventTime = t
        // One track whose value is the animator's progress: sample(at:) then reads it, with
        // UIKit's rules for where it ends up (completion, finish at start/current/end).
        try control { a throws(AnimatorError) in try a.addAnimation(AnimatorScript.progressProperty, to: 1, at: t) }
      }
      time = t
      // The state rules (what a stopped or running animator accepts) are PropertyAnimator's
      // own, the same for templates and Swift: `control` reports what it throws.
      let state = script.animator.state(at: t)
      switch command {
      case .start:
        let delay = try e["delay"]?.double(in: 0...3600) ?? 0
        try control { a throws(AnimatorError) in
          if delay > 0 { try a.startAnimation(afterDelay: delay, at: t) } else { try a.startAnimation(at: t) }
        }
      case .pause:
        try control { a throws(AnimatorError) in try a.pauseAnimation(at: t) }
      case .reverse:
        let reversed = try e["reversed"]?.bool() ?? true
        try control { a throws(AnimatorError) in try a.setReversed(reversed, at: t) }
      case .scrub:
        if script.animator.isRunning(at: t) {
          throw doNode.error("scrubbing needs a paused animator (UIKit sets fractionComplete only while paused); pause it first")
        }
        guard let fNode = e["fraction"] else { throw event.error("a scrub needs a 'fraction' in 0…1") }
        let fraction = try fNode.double(in: 0...1)
        let d = try e["duration"]?.double(in: 0...3600) ?? 0
        let curve = try e["curve"].map { n throws(TemplateError) in try TemplateMotion.timingFunction(n) } ?? .linear
        if d > 0 {
          if state == .inactive { try control { a throws(AnimatorError) in try a.pauseAnimation(at: t) } }
          script.glides.append(
            AnimatorScript.Glide(start: t, duration: d, from: script.progress(at: t), fraction: fraction, curve: curve))
          busyUntil = t + d
        }
        try control { a throws(AnimatorError) in try a.setFractionComplete(fraction, at: t + d) }
        time = t + d
      case .continue:
        let factor = try e["durationFactor"]?.double(in: 0.001...1000) ?? 1
        let timing = try e["curve"].map { n throws(TemplateError) in try timingParameters(n) }
        // UIKit: the rest of the animation takes durationFactor × the original duration.
        try control { a throws(AnimatorError) in
          try a.continueAnimation(withTimingParameters: timing, durationFactor: factor, at: t)
        }
      case .stop:
        let withoutFinishing = try e["withoutFinishing"]?.bool() ?? false
        try control { a throws(AnimatorError) in try a.stopAnimation(withoutFinishing: withoutFinishing, at: t) }
      case .finish:
        let name = try e["position"]?.string(oneOf: ["start", "current", "end"]) ?? "end"
        let position = PropertyAnimator<Double>.Position(rawValue: name) ?? .end
        try control { a throws(AnimatorError) in try a.finishAnimation(at: position, time: t) }
      }
    }
    let last = time ?? 0
    // The last completion (a run scheduled after a start delay counts: it has not begun at the
    // last event yet), or the last event or glide when the animator ends held.
    let natural = script.animator.completions(through: .greatestFiniteMagnitude).last?.time ?? 0
    script.end = max(natural, last, busyUntil)
    return script
  }
}

/// A property driven by a property animator: `from + progress·(to − from)`.
struct AnimatorCurve<Value: Animatable>: AnimationCurve {
  let from: Value
  let to: Value
  let progress: AnimatorScript
  /// Animator time of the curve's local time 0 (its first event).
  let offset: Double

  var duration: Double { max(0, progress.end - offset) }

  func value(at t: Double) -> Value {
    from.interpolated(to: to, amount: progress.progress(at: t + offset))
  }

  func velocity(at t: Double) -> Value {
    let h = 1e-5
    let rate = (progress.progress(at: t + offset + h) - progress.progress(at: t + offset - h)) / (2 * h)
    return (to - from).scaled(by: rate)
  }
}
