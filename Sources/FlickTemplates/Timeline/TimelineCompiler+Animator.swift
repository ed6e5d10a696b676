import FlickMotion
import FlickScene

/// One group of animations an animator drives: what it animates and when it was added.
struct AnimatorGroup {
  /// `{ target(s), animate }` (the animator itself, an item of `animations`, or an `addAnimations` event).
  var o: [String: TemplateNode]
  var node: TemplateNode
  /// `addAnimations(_:delayFactor:)`: the fraction of the remaining time to wait.
  var delayFactor: Double
  /// Animator time it is added (nil: with the first event, as UIKit's animations given at init).
  var at: Double?
}

/// How an animator is made: `UIViewPropertyAnimator(duration:timingParameters:)` and its flags.
struct AnimatorOptions {
  var duration: Double
  var timing: PropertyAnimator<[Double]>.TimingParameters
  var pausesOnCompletion: Bool
  var scrubsLinearly: Bool
}

extension TimelineCompiler {
  static let animatorKeys = [
    "duration", "curve", "target", "targets", "animate", "animations", "events", "pausesOnCompletion", "scrubsLinearly",
  ]
  static let animatorEventKeys = [
    "at", "do", "delay", "fraction", "duration", "curve", "durationFactor", "position", "reversed", "withoutFinishing",
    "target", "targets", "animate", "delayFactor",
  ]

  /// `{ animator: { duration, curve, target + animate (or animations: […]), events: […] } }`: a
  /// `UIViewPropertyAnimator` driven by scripted events (`start`, `pause`, `reverse`, `scrub`,
  /// `continue`, `stop`, `finish`, `addAnimations`) at times relative to the entry's begin.
  mutating func animator(_ o: [String: TemplateNode], _ node: TemplateNode, begin: Double) throws(TemplateError) -> Span
  {
    guard let animatorNode = o["animator"] else { return Span(begin: begin, end: begin) }
    let a = try animatorNode.object(allowed: Self.animatorKeys)
    guard let durationNode = a["duration"] else {
      throw animatorNode.error("an animator needs a 'duration' in seconds")
    }
    let duration = try durationNode.double(in: 0.001...3600)
    let timing = try Self.timingParameters(a["curve"])
    guard let eventsNode = a["events"] else {
      throw animatorNode.error("an animator needs 'events', e.g. [{ at: 0, do: \"start\" }]")
    }
    let events = try eventsNode.array()
    guard !events.isEmpty else {
      throw eventsNode.error("an animator needs at least one event, e.g. { at: 0, do: \"start\" }")
    }

    // What it animates: `target` + `animate`, or a list of { target(s), animate, delayFactor }.
    var groups: [AnimatorGroup] = []
    if a["animate"] != nil || a["target"] != nil || a["targets"] != nil {
      if a["animations"] != nil { throw animatorNode.error("give 'target' + 'animate' or 'animations', not both") }
      groups.append(AnimatorGroup(o: a, node: animatorNode, delayFactor: 0))
    }
    for item in try a["animations"]?.array() ?? [] {
      let g = try item.object(allowed: ["target", "targets", "animate", "delayFactor"])
      groups.append(AnimatorGroup(o: g, node: item, delayFactor: try g["delayFactor"]?.double(in: 0...1) ?? 0))
    }
    let hasAdds = events.contains { e in
      if case .object(let m) = e.value.kind {
        return m.contains { $0.key == "do" && $0.value.kind == .string("addAnimations") }
      }
      return false
    }
    guard !groups.isEmpty || hasAdds else {
      throw animatorNode.error("an animator needs something to animate: 'target' and 'animate'")
    }
    let options = AnimatorOptions(
      duration: duration, timing: timing, pausesOnCompletion: try a["pausesOnCompletion"]?.bool() ?? false,
      scrubsLinearly: try a["scrubsLinearly"]?.bool() ?? true)
    let script = try Self.replay(events, options, groups: &groups)

    for (k, group) in groups.enumerated() {
      guard let animateNode = group.o["animate"] else {
        throw group.node.error("missing 'animate' (properties and their targets)")
      }
      guard case .object(let members) = animateNode.value.kind, !members.isEmpty else {
        throw animateNode.expected("an object of properties and target values, like { scaleXY: [2, 2] }")
      }
      let added = group.at ?? script.firstEventTime
      for target in try targets(group.o, group.node) {
        for m in members {
          let valueNode = animateNode.child(m.key, m.value)
          let property = try Self.property(named: m.key, valueNode, layer: layer(target.id), layerID: target.id)
          _ = try perform(
            property, layerID: target.id,
            .animator(valueNode, script: script, slot: k, added: added, begin: begin + added))
        }
      }
    }
    return Span(begin: begin, end: begin + script.end)
  }

  mutating func animatorTyped<V: Animatable>(
    _ p: LayerProperty<V>, layerID: String, _ node: TemplateNode, script: AnimatorScript, slot: Int, added: Double,
    begin: Double, decode: (TemplateNode) throws(TemplateError) -> V
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
      from: from, to: try decode(toNode), source: script, group: slot, offset: added, duration: script.end - added)
    try add(p, layerID: layerID, curve: AnyAnimationCurve(curve), begin: begin, node: node)
    return begin + curve.duration
  }

  /// The animator's timing (`UITimingCurveProvider`): a curve name or bezier (cubic timing), or a
  /// spring; `spring(dampingRatio: …)` alone is UIKit's `UISpringTimingParameters(dampingRatio:)`,
  /// which settles within the animator's duration. Default `easeInEaseOut`.
  static func timingParameters(_ node: TemplateNode?) throws(TemplateError)
    -> PropertyAnimator<[Double]>.TimingParameters
  {
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

  /// Plays the scripted events on `animator` through ``PropertyAnimator/apply(_:at:)``, the
  /// same rules Swift calls follow (what UIKit ignores is ignored, what it forbids is an error
  /// at the event). `addAnimations` events append to `groups`.
  static func replay(
    _ events: [TemplateNode], _ options: AnimatorOptions, groups: inout [AnimatorGroup]
  ) throws(TemplateError) -> AnimatorScript {
    let slots =
      groups.count
      + events.filter { e in
        if case .object(let m) = e.value.kind {
          return m.contains { $0.key == "do" && $0.value.kind == .string("addAnimations") }
        }
        return false
      }.count
    var animator = PropertyAnimator(
      duration: options.duration, timingParameters: options.timing, model: [Double](repeating: 0, count: slots))
    animator.pausesOnCompletion = options.pausesOnCompletion
    animator.scrubsLinearly = options.scrubsLinearly
    var script = AnimatorScript(animator: animator)
    var time: Double?
    var busyUntil = 0.0
    let allowed: [AnimatorScript.Command: [String]] = [
      .start: ["delay"], .scrub: ["fraction", "duration", "curve"], .continue: ["durationFactor", "curve"],
      .finish: ["position"], .reverse: ["reversed"], .stop: ["withoutFinishing"],
      .addAnimations: ["target", "targets", "animate", "delayFactor"], .pause: [],
    ]
    for event in events {
      let e = try event.object(allowed: Self.animatorEventKeys)
      guard let doNode = e["do"] else {
        throw event.error(
          "an event needs 'do': one of \(AnimatorScript.Command.allCases.map(\.rawValue).joined(separator: ", "))")
      }
      let command =
        AnimatorScript.Command(
          rawValue: try doNode.string(oneOf: AnimatorScript.Command.allCases.map(\.rawValue))) ?? .start
      for (key, n) in e where !["at", "do"].contains(key) && !(allowed[command] ?? []).contains(key) {
        throw n.error("'\(quoted: key)' does not apply to '\(command.rawValue)'")
      }
      /// Runs one control call through PropertyAnimator's rules, reporting a violation at the event.
      func apply(_ call: PropertyAnimator<[Double]>.Command, at t: Double) throws(TemplateError) {
        do {
          try script.animator.apply(call, at: t)
        } catch {
          let hint = command == .finish ? "; in a template, { do: \"stop\" } comes before 'finish'" : ""
          throw doNode.error(error.message + hint)
        }
      }
      func add(_ slot: Int, delayFactor: Double, at t: Double) throws(TemplateError) {
        do {
          try script.animator.addAnimation(AnimatorScript.slot(slot), to: 1, delayFactor: delayFactor, at: t)
        } catch {
          throw doNode.error(error.message)
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
          "at \(TemplateNode.format(t)) s the previous scrub is still moving (until \(TemplateNode.format(busyUntil)) s)"
        )
      }
      if time == nil {
        script.firstEventTime = t
        // The animations given with the animator are added before its first event (UIKit: at init).
        for (k, g) in groups.enumerated() { try add(k, delayFactor: g.delayFactor, at: t) }
      }
      time = t
      switch command {
      case .start:
        let delay = try e["delay"]?.double(in: 0...3600) ?? 0
        try apply(delay > 0 ? .startAfterDelay(delay) : .start, at: t)
      case .pause:
        try apply(.pause, at: t)
      case .reverse:
        try apply(.setReversed(try e["reversed"]?.bool() ?? true), at: t)
      case .scrub:
        guard let fNode = e["fraction"] else { throw event.error("a scrub needs a 'fraction' in 0…1") }
        let fraction = try fNode.double(in: 0...1)
        let d = try e["duration"]?.double(in: 0...3600) ?? 0
        let curve = try e["curve"].map { n throws(TemplateError) in try TemplateMotion.timingFunction(n) } ?? .linear
        if d > 0 {
          // A glide holds the animator paused while the finger moves the slider.
          if script.animator.isRunning(at: t) {
            throw doNode.error(
              "scrubbing needs a paused animator (UIKit sets fractionComplete only while paused); pause it first")
          }
          if script.animator.state(at: t) == .inactive { try apply(.pause, at: t) }
          let from = (0..<slots).map { script.progress(of: $0, at: t, limit: .left).progress }
          try apply(.setFractionComplete(fraction), at: t + d)
          let to = (0..<slots).map { script.progress(of: $0, at: t + d).progress }
          script.glides.append(AnimatorScript.Glide(start: t, duration: d, from: from, to: to, curve: curve))
          busyUntil = t + d
        } else {
          try apply(.setFractionComplete(fraction), at: t)
        }
        time = t + d
      case .continue:
        let factor = try e["durationFactor"]?.double(in: 0.001...1000) ?? 1
        let timing = try e["curve"].map { n throws(TemplateError) in try timingParameters(n) }
        // UIKit: the rest of the animation takes durationFactor × the original duration.
        try apply(.continueAnimation(timing, durationFactor: factor), at: t)
      case .stop:
        try apply(.stop(withoutFinishing: try e["withoutFinishing"]?.bool() ?? false), at: t)
      case .finish:
        let name = try e["position"]?.string(oneOf: ["start", "current", "end"]) ?? "end"
        try apply(.finish(at: PropertyAnimator<[Double]>.Position(rawValue: name) ?? .end), at: t)
      case .addAnimations:
        guard e["animate"] != nil else {
          throw event.error("'addAnimations' needs 'target' and 'animate' (the properties and their targets)")
        }
        let delayFactor = try e["delayFactor"]?.double(in: 0...1) ?? 0
        groups.append(AnimatorGroup(o: e, node: event, delayFactor: delayFactor, at: t))
        try add(groups.count - 1, delayFactor: delayFactor, at: t)
      }
    }
    let last = time ?? 0
    // The last completion (a run scheduled after a start delay counts: it has not begun at the
    // last event yet), or the last event or glide when the animator ends held. With
    // pausesOnCompletion the animator pauses at the end instead of completing: that is its end.
    var completing = script.animator
    completing.pausesOnCompletion = false
    let natural = completing.completions(through: .greatestFiniteMagnitude).last?.time ?? 0
    script.end = max(natural, last, busyUntil)
    return script
  }
}
