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

/// Writes an `animator` entry, `{ animator: { duration, curve, target + animate (or animations:
/// […]), events: […] } }`: a `UIViewPropertyAnimator` driven by scripted events (`start`,
/// `pause`, `reverse`, `scrub`, `continue`, `stop`, `finish`, `addAnimations`) at times relative
/// to the entry's begin. ``AnimatorEventPlayer`` plays the events into an ``AnimatorScript``;
/// every property of every group follows it (an ``AnimatorCurve``).
struct AnimatorWriter {
  /// One property driven by group `slot` of the animator, added at animator time `added`.
  struct Job: PropertyJob {
    var node: TemplateNode
    var script: AnimatorScript
    var slot: Int
    var added: Double
    var begin: Double

    func write<V: Animatable>(
      _ p: LayerProperty<V>, layerID: String, values: PropertyValueDecoder<V>, into output: inout TimelineOutput
    ) throws(TemplateError) -> Double {
      var toNode = node
      var from = output.currentValue(p, layerID: layerID, at: begin)
      // UIKit's animations are additive: what was moving the property keeps its momentum, which
      // fades over the animator's duration, or the time left to its end when the group was added
      // if shorter (AnimatorCurve, AnimatorScript.blends), so value and velocity carry over; it
      // fades on its own clock, through a later pause, stop or reverse.
      var handover: V? = output.currentVelocity(p, layerID: layerID, at: begin)
      if case .object(let members) = node.value.kind, members.contains(where: { $0.key == "to" || $0.key == "from" }) {
        let o = try node.object(allowed: ["to", "from"])
        guard let to = o["to"] else { throw node.error("missing 'to'") }
        toNode = to
        if let f = o["from"] {
          from = try values.value(f)
          handover = nil
        }
      }
      if let v = handover, v.norm <= p.threshold { handover = nil }
      let curve = AnimatorCurve(
        from: from, to: try values.value(toNode), source: script, group: slot, offset: added,
        duration: script.end - added, handover: handover, blend: script.blends[slot] ?? script.animator.duration)
      try output.add(p, layerID: layerID, curve: AnyAnimationCurve(curve), begin: begin, node: node)
      return begin + curve.duration
    }
  }

  static let animatorKeys = [
    "duration", "curve", "target", "targets", "animate", "animations", "events", "pausesOnCompletion", "scrubsLinearly",
  ]
  /// The keys of one animator event (the schema's `animatorEvent`).
  static let animatorEventKeys = AnimatorEventPlayer.eventKeys

  /// The animated layers.
  let schedule: TimelineSchedule

  /// Writes the entry `o` (at `node`) beginning at `begin` seconds; returns its span.
  func write(_ o: [String: TemplateNode], _ node: TemplateNode, begin: Double, into output: inout TimelineOutput)
    throws(TemplateError) -> TimelineSchedule.Span
  {
    guard let animatorNode = o["animator"] else { return .init(begin: begin, end: begin) }
    let a = try animatorNode.object(allowed: Self.animatorKeys)
    guard let durationNode = a["duration"] else {
      throw animatorNode.error("an animator needs a 'duration' in seconds")
    }
    let duration = try durationNode.double(in: TemplateNode.positiveSeconds)
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
    let hasAdds = events.contains(where: AnimatorEventPlayer.isAddAnimations)
    guard !groups.isEmpty || hasAdds else {
      throw animatorNode.error("an animator needs something to animate: 'target' and 'animate'")
    }
    let options = AnimatorOptions(
      duration: duration, timing: timing, pausesOnCompletion: try a["pausesOnCompletion"]?.bool() ?? false,
      scrubsLinearly: try a["scrubsLinearly"]?.bool() ?? true)
    var player = AnimatorEventPlayer(options, groups: groups, events: events)
    try player.play(events)
    let script = player.script
    groups = player.groups

    for (k, group) in groups.enumerated() {
      guard let animateNode = group.o["animate"] else {
        throw group.node.error("missing 'animate' (properties and their targets)")
      }
      guard case .object(let members) = animateNode.value.kind, !members.isEmpty else {
        throw animateNode.expected("an object of properties and target values, like { scaleXY: [2, 2] }")
      }
      let added = group.at ?? script.firstEventTime
      for target in try schedule.targets(group.o, group.node) {
        for m in members {
          let valueNode = animateNode.child(m.key, m.value)
          let property = try AnyLayerProperty.timeline(
            named: m.key, valueNode, key: m, layer: output.layer(target.id), layerID: target.id)
          let job = Job(node: valueNode, script: script, slot: k, added: added, begin: begin + added)
          _ = try property.write(job, layerID: target.id, into: &output)
        }
      }
    }
    return .init(begin: begin, end: begin + script.end)
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
    do {
      return try spec.animatorTiming()
    } catch {
      throw node.error(error.message)
    }
  }
}
