import FlickMotion
import FlickScene

/// Plays an animator entry's scripted `events` on FlickMotion's ``PropertyAnimator`` through
/// ``PropertyAnimator/apply(_:at:)``, the rules Swift calls follow (what UIKit ignores is
/// ignored, what it forbids is an error at the event), and records the scrubs that glide.
///
/// A gliding scrub (`{ do: "scrub", fraction, duration }`) is a finger moving the slider: the
/// animator stays paused and the progress follows the glide until it arrives. A `continue` may
/// come while it moves (the finger lets go early: the glide stops there) or as it arrives; the
/// new timing then takes over the glide's velocity, so the motion stays C¹. Any other event
/// must wait for the glide to arrive.
struct AnimatorEventPlayer {
  /// The keys an event may have, and those each command accepts besides `at` and `do`.
  /// A `continue` event's `durationFactor` (× the animator's duration for the rest).
  static let durationFactorRange: ClosedRange<Double> = 0.001...1000

  static let eventKeys = [
    "at", "do", "delay", "fraction", "duration", "curve", "durationFactor", "position", "reversed", "withoutFinishing",
    "target", "targets", "animate", "delayFactor",
  ]
  static let commandKeys: [AnimatorScript.Command: [String]] = [
    .start: ["delay"], .scrub: ["fraction", "duration", "curve"], .continue: ["durationFactor", "curve"],
    .finish: ["position"], .reverse: ["reversed"], .stop: ["withoutFinishing"],
    .addAnimations: ["target", "targets", "animate", "delayFactor"], .pause: [],
  ]

  /// A glide written but not yet settled: where it arrives depends on whether a `continue` cuts it.
  private struct PendingGlide {
    var start: Double
    var duration: Double
    var fraction: Double
    var curve: TimingFunction
    /// The animator's progress and its fraction when the glide starts.
    var fromProgress: Double
    var fromFraction: Double
    var node: TemplateNode
    var arrival: Double { start + duration }
  }

  var script: AnimatorScript
  /// The groups of animations, one model slot each (`addAnimations` events append to them).
  var groups: [AnimatorGroup]
  private let slots: Int
  private var time: Double?
  private var pending: PendingGlide?
  /// When the last glide stopped and the progress and fraction velocities it had then (what a
  /// `continue` at that instant takes over).
  private var glideHandover: (time: Double, motion: ScrubMotion)?
  /// The last instant a glide moves the progress.
  private var busyUntil = 0.0

  init(_ options: AnimatorOptions, groups: [AnimatorGroup], events: [TemplateNode]) {
    let adds = events.filter(Self.isAddAnimations).count
    slots = groups.count + adds
    var animator = PropertyAnimator(
      duration: options.duration, timingParameters: options.timing, model: [Double](repeating: 0, count: slots))
    animator.pausesOnCompletion = options.pausesOnCompletion
    animator.scrubsLinearly = options.scrubsLinearly
    script = AnimatorScript(animator: animator)
    self.groups = groups
  }

  /// Whether `event` is an `addAnimations` event (it adds a model slot).
  static func isAddAnimations(_ event: TemplateNode) -> Bool {
    if case .object(let m) = event.value.kind {
      return m.contains { $0.key == "do" && $0.value.kind == .string("addAnimations") }
    }
    return false
  }

  /// Plays every event, then settles the script's end.
  mutating func play(_ events: [TemplateNode]) throws(TemplateError) {
    for event in events { try play(event) }
    if let g = pending { try settle(g, at: g.arrival) }
    // The last completion (a run scheduled after a start delay counts: it has not begun at the
    // last event yet), or the last event or glide when the animator ends held. With
    // pausesOnCompletion the animator pauses at the end instead of completing: that is its end.
    var completing = script.animator
    completing.pausesOnCompletion = false
    let natural = completing.completions(through: .greatestFiniteMagnitude).last?.time ?? 0
    script.end = max(natural, time ?? 0, busyUntil)
  }

  private mutating func play(_ event: TemplateNode) throws(TemplateError) {
    let e = try event.object(allowed: Self.eventKeys)
    guard let doNode = e["do"] else {
      throw event.error(
        "an event needs 'do': one of \(AnimatorScript.Command.allCases.map(\.rawValue).joined(separator: ", "))")
    }
    let command =
      AnimatorScript.Command(rawValue: try doNode.string(oneOf: AnimatorScript.Command.allCases.map(\.rawValue)))
      ?? .start
    for (key, n) in e where !["at", "do"].contains(key) && !(Self.commandKeys[command] ?? []).contains(key) {
      throw n.error("'\(quoted: key)' does not apply to '\(command.rawValue)'")
    }
    // Without `at`, an event comes when the one before is done (a glide when it arrives).
    let previous = time ?? 0
    let t = try e["at"]?.double(in: TemplateNode.seconds) ?? max(previous, pending?.arrival ?? previous)
    // Times compare as every start and end does (``FlickMotion/MediaTiming/hasReached(_:at:leftLimit:)``):
    // an event at 0.3 s meets a glide from 0.1 s for 0.2 s (arriving at 0.30000000000000004) as it arrives.
    guard MediaTiming.hasReached(previous, at: t) else {
      throw (e["at"] ?? event).error(
        "events must be in time order: this one at \(TemplateNode.format(t)) s is listed after one at "
          + "\(TemplateNode.format(previous)) s")
    }
    if let g = pending {
      if !MediaTiming.hasReached(g.arrival, at: t) && command != .continue {
        throw (e["at"] ?? event).error(
          "at \(TemplateNode.format(t)) s the scrub that started at \(TemplateNode.format(g.start)) s is still moving "
            + "(until \(TemplateNode.format(g.arrival)) s); only 'continue' may come before it arrives")
      }
      try settle(g, at: MediaTiming.hasReached(g.arrival, at: t) ? g.arrival : t)
      pending = nil
    }
    if time == nil {
      script.firstEventTime = t
      // The animations given with the animator are added before its first event (UIKit: at init).
      for (k, g) in groups.enumerated() { try add(k, delayFactor: g.delayFactor, at: t, doNode) }
    }
    time = t
    try run(command, e, event, doNode, at: t)
  }

  private mutating func run(
    _ command: AnimatorScript.Command, _ e: [String: TemplateNode], _ event: TemplateNode, _ doNode: TemplateNode,
    at t: Double
  ) throws(TemplateError) {
    switch command {
    case .start:
      let delay = try e["delay"]?.double(in: TemplateNode.seconds) ?? 0
      try apply(delay > 0 ? .startAfterDelay(delay) : .start, at: t, doNode)
    case .pause:
      try apply(.pause, at: t, doNode)
    case .reverse:
      try apply(.setReversed(try e["reversed"]?.bool() ?? true), at: t, doNode)
    case .scrub:
      try scrub(e, event, doNode, at: t)
    case .continue:
      let factor = try e["durationFactor"]?.double(in: Self.durationFactorRange) ?? 1
      let timing = try e["curve"].map { n throws(TemplateError) in try AnimatorWriter.timingParameters(n) }
      // UIKit: the rest of the animation takes durationFactor × the original duration; a glide
      // that moves the progress up to now hands over its velocity.
      let handed = glideHandover.flatMap { $0.time == t ? $0.motion : nil }
      do {
        try script.animator.continueAnimation(
          withTimingParameters: timing, durationFactor: factor, scrub: handed, at: t)
      } catch {
        throw doNode.error(error.message)
      }
    case .stop:
      try apply(.stop(withoutFinishing: try e["withoutFinishing"]?.bool() ?? false), at: t, doNode)
    case .finish:
      let name = try e["position"]?.string(oneOf: ["start", "current", "end"]) ?? "end"
      try apply(.finish(at: PropertyAnimator<[Double]>.Position(rawValue: name) ?? .end), at: t, doNode)
    case .addAnimations:
      guard e["animate"] != nil else {
        throw event.error("'addAnimations' needs 'target' and 'animate' (the properties and their targets)")
      }
      let delayFactor = try e["delayFactor"]?.double(in: 0...1) ?? 0
      groups.append(AnimatorGroup(o: e, node: event, delayFactor: delayFactor, at: t))
      try add(groups.count - 1, delayFactor: delayFactor, at: t, doNode)
    }
  }

  /// `{ do: "scrub", fraction, duration, curve }`: at once, or a glide settled later.
  private mutating func scrub(
    _ e: [String: TemplateNode], _ event: TemplateNode, _ doNode: TemplateNode, at t: Double
  ) throws(TemplateError) {
    guard let fNode = e["fraction"] else { throw event.error("a scrub needs a 'fraction' in 0…1") }
    let fraction = try fNode.double(in: 0...1)
    let d = try e["duration"]?.double(in: TemplateNode.seconds) ?? 0
    let curve = try e["curve"].map { n throws(TemplateError) in try TemplateMotion.timingFunction(n) } ?? .linear
    guard d > 0 else { return try apply(.setFractionComplete(fraction), at: t, doNode) }
    // A glide holds the animator paused while the finger moves the slider.
    if script.animator.isRunning(at: t) {
      throw doNode.error(
        "scrubbing needs a paused animator (UIKit sets fractionComplete only while paused); pause it first")
    }
    if script.animator.state(at: t) == .inactive { try apply(.pause, at: t, doNode) }
    pending = PendingGlide(
      start: t, duration: d, fraction: fraction, curve: curve, fromProgress: script.animator.progress(at: t),
      fromFraction: script.animator.fractionComplete(at: t),
      node: doNode)
  }

  /// Settles a glide that stops at `end`: its arrival, or an earlier `continue` that cuts it.
  /// The glide moves the fraction and the progress side by side from the state on screen; the
  /// animator is left paused exactly where the glide is at `end`, and the `continue` takes over
  /// both rates there (value and velocity carry over for every group).
  private mutating func settle(_ g: PendingGlide, at end: Double) throws(TemplateError) {
    var arrived = script.animator
    do {
      try arrived.apply(.setFractionComplete(g.fraction), at: g.arrival)
    } catch {
      throw g.node.error(error.message)
    }
    let glide = AnimatorScript.Glide(
      start: g.start, duration: g.duration, fromFraction: g.fromFraction, toFraction: g.fraction,
      fromProgress: g.fromProgress, toProgress: arrived.progress(at: g.arrival), curve: g.curve, end: end)
    let s = glide.state(at: end, left: true)
    if end < g.arrival {
      do {
        try script.animator.setFractionComplete(min(max(s.u, 0), 1), progress: s.p, at: end)
      } catch {
        throw g.node.error(error.message)
      }
    } else {
      try apply(.setFractionComplete(g.fraction), at: g.arrival, g.node)
    }
    script.glides.append(glide)
    glideHandover = (end, ScrubMotion(progressRate: s.rate, fractionRate: s.uRate))
    busyUntil = max(busyUntil, end)
  }

  /// Runs one control call through PropertyAnimator's rules, reporting a violation at the event.
  private mutating func apply(
    _ call: PropertyAnimator<[Double]>.Command, at t: Double, _ doNode: TemplateNode
  ) throws(TemplateError) {
    do {
      try script.animator.apply(call, at: t)
    } catch {
      let hint = call.isFinish ? "; in a template, { do: \"stop\" } comes before 'finish'" : ""
      throw doNode.error(error.message + hint)
    }
  }

  private mutating func add(_ slot: Int, delayFactor: Double, at t: Double, _ doNode: TemplateNode)
    throws(TemplateError)
  {
    script.blends[slot] = min(script.animator.duration, script.animator.timeLeft(at: t))
    do {
      try script.animator.addAnimation(AnimatorScript.slot(slot), to: 1, delayFactor: delayFactor, at: t)
    } catch {
      throw doNode.error(error.message)
    }
  }
}

extension PropertyAnimator.Command {
  /// Whether this is ``finish(at:)`` (its errors get a template hint).
  fileprivate var isFinish: Bool {
    if case .finish = self { return true }
    return false
  }
}
