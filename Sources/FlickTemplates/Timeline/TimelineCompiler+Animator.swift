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
    let mapping = try Self.animatorMapping(a["curve"])
    guard let eventsNode = a["events"] else {
      throw animatorNode.error("an animator needs 'events', e.g. [{ at: 0, do: \"start\" }]")
    }
    let events = try eventsNode.array()
    guard !events.isEmpty else { throw eventsNode.error("an animator needs at least one event, e.g. { at: 0, do: \"start\" }") }
    let progress = try Self.replay(events, duration: duration, mapping: mapping)

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
    _ p: LayerProperty<V>, layerID: String, _ node: TemplateNode, progress: AnimatorProgress, begin: Double,
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

  /// The animator's timing: a curve name, bezier or spring spec; default `easeInEaseOut` (UIKit's).
  static func animatorMapping(_ node: TemplateNode?) throws(TemplateError) -> AnyAnimationCurve<Double> {
    guard let node else { return AnyAnimationCurve(BasicAnimation(from: 0.0, to: 1, duration: 1, timingFunction: .easeInEaseOut)) }
    guard case .spec(let spec, _) = try TemplateMotion.curve(node) else {
      throw node.error("expected a timing curve or spring")
    }
    switch spec.kind {
    case .tween(let f, _):
      return AnyAnimationCurve(BasicAnimation(from: 0.0, to: 1, duration: 1, timingFunction: f))
    case .spring(let parameters, _, _, _):
      return AnyAnimationCurve(SpringAnimation(from: 0.0, to: 1, parameters: parameters, restThreshold: 0.001))
    default:
      throw node.error("an animator's curve is a timing curve (\"easeOut\", [x1, y1, x2, y2]) or a spring")
    }
  }

  /// Replays the scripted events into the animator's progress over time.
  static func replay(_ events: [TemplateNode], duration: Double, mapping: AnyAnimationCurve<Double>) throws(TemplateError)
    -> AnimatorProgress
  {
    var progress = AnimatorProgress(duration: duration, mapping: mapping)
    var s = AnimatorProgress.State(rate: 1 / duration)
    var first: Double?
    for event in events {
      let e = try event.object(allowed: ["at", "do", "delay", "fraction", "duration", "curve", "durationFactor", "position", "reversed"])
      guard let doNode = e["do"] else {
        throw event.error("an event needs 'do': one of \(AnimatorProgress.Command.allCases.map(\.rawValue).joined(separator: ", "))")
      }
      let command = AnimatorProgress.Command(
        rawValue: try doNode.string(oneOf: AnimatorProgress.Command.allCases.map(\.rawValue))) ?? .start
      let allowed: [AnimatorProgress.Command: [String]] = [
        .start: ["delay"], .scrub: ["fraction", "duration", "curve"], .continue: ["durationFactor"],
        .finish: ["position"], .reverse: ["reversed"],
      ]
      for (key, n) in e where !["at", "do"].contains(key) && !(allowed[command] ?? []).contains(key) {
        throw n.error("'\(key)' does not apply to '\(command.rawValue)'")
      }
      let t = try e["at"]?.double(in: 0...3600) ?? s.time
      guard t >= s.time else {
        throw (e["at"] ?? event).error("events must be in time order: \(TemplateNode.format(t)) s comes after \(TemplateNode.format(s.time)) s")
      }
      guard t >= s.busyUntil else {
        throw (e["at"] ?? event).error("at \(TemplateNode.format(t)) s the previous scrub or delayed start is still going (until \(TemplateNode.format(s.busyUntil)) s)")
      }
      if first == nil {
        first = t
        s.time = t
        progress.firstEventTime = t
      }
      progress.advance(&s, to: t)
      if s.stopped && command != .finish {
        throw doNode.error("the animator was stopped; a stopped animator can only 'finish' (UIKit)")
      }
      switch command {
      case .start:
        if s.running { throw doNode.error("the animator is already running") }
        if s.finished { throw doNode.error("the animator has finished; it cannot start again") }
        let delay = try e["delay"]?.double(in: 0...3600) ?? 0
        s.running = true
        if delay > 0 {
          progress.push(.hold(f: s.f), at: t)
          s.time = t + delay
          s.busyUntil = t + delay
        }
        progress.push(.run(f0: s.f, rate: s.reversed ? -s.rate : s.rate), at: s.time)
      case .pause:
        s.running = false
        progress.push(.hold(f: s.f), at: t)
      case .reverse:
        s.reversed = try e["reversed"]?.bool() ?? true
        if s.running { progress.push(.run(f0: s.f, rate: s.reversed ? -s.rate : s.rate), at: t) }
      case .scrub:
        if s.running { throw doNode.error("scrubbing needs a paused animator (UIKit sets fractionComplete only while paused); pause it first") }
        guard let fNode = e["fraction"] else { throw event.error("a scrub needs a 'fraction' in 0…1") }
        let target = try fNode.double(in: 0...1)
        let d = try e["duration"]?.double(in: 0...3600) ?? 0
        let curve = try e["curve"].map { n throws(TemplateError) in try TemplateMotion.timingFunction(n) } ?? .linear
        progress.push(d > 0 ? .scrub(f0: s.f, f1: target, duration: d, curve: curve) : .hold(f: target), at: t)
        s.finished = false
        s.f = target
        s.busyUntil = t + d
        if d > 0 { progress.push(.hold(f: target), at: t + d) }
        s.time = t + d
      case .continue:
        if s.running { throw doNode.error("the animator is already running") }
        let factor = try e["durationFactor"]?.double(in: 0.001...1000) ?? 1
        let remaining = s.reversed ? s.f : 1 - s.f
        // UIKit: the rest of the animation takes durationFactor × the original duration.
        s.rate = remaining > 0 ? remaining / (factor * duration) : 1 / duration
        s.running = true
        s.finished = false
        progress.push(.run(f0: s.f, rate: s.reversed ? -s.rate : s.rate), at: t)
      case .stop:
        s.running = false
        s.stopped = true
        progress.push(.hold(f: s.f), at: t)
      case .finish:
        guard s.stopped else {
          throw doNode.error("'finish' needs a stopped animator (add { do: \"stop\" } before it), as in UIKit")
        }
        let position = try e["position"]?.string(oneOf: ["start", "current", "end"]) ?? "end"
        s.f = position == "start" ? 0 : position == "end" ? 1 : s.f
        s.finished = true
        s.stopped = false
        progress.push(.hold(f: s.f), at: t)
      }
    }
    progress.finish(&s)
    return progress
  }
}

/// A property driven by a property animator: `from + progress·(to − from)`.
struct AnimatorCurve<Value: Animatable>: AnimationCurve {
  let from: Value
  let to: Value
  let progress: AnimatorProgress
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
