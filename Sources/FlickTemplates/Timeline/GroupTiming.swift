import FlickMotion

/// The timing a `group` gives its entries: `{ at: 0.1, spring: { … }, group: [ … ] }` or
/// `{ curve: "easeOut", duration: 0.3, group: [ … ] }`. Every entry in the group that takes
/// timing (`animate`, the single-property form, `release`, `drag`, `spin`) and gives none of its
/// own uses it; an entry's own motion, duration or timing keys win, key by key. A group inside
/// a group inherits the outer group's timing and overrides what it gives itself. Entries that
/// take no timing (`set`, `link`, `animator`, `play` — a component's timeline keeps its own) are
/// unaffected.
struct GroupTiming {
  /// The group's motion (`curve`, `spring`, `decay`, `tween`), or an outer group's.
  var motion: TemplateMotion?
  /// Where ``motion`` was written (the group's key), for messages.
  var motionKey: String?
  /// The group's `duration` (seconds): the length of tweens, drags and spins that give none.
  var duration: Double?
  /// Where ``duration`` was written.
  var durationNode: TemplateNode?
  /// The group's Core Animation timing (`repeatCount`, `speed`, …; not `autoreverses`, which
  /// repeats the group itself).
  var timing: MediaTiming?

  /// The keys a group accepts for its entries' timing.
  static let keys =
    TemplateMotion.keys.filter { $0 != "keyframes" } + ["duration"]
    + TimelineCompiler.timingKeys.filter { !TimelineCompiler.repeatKeys.contains($0) }

  /// No timing from any group.
  init() {}

  /// The timing of a group written as `o` inside a group whose timing is `outer`.
  init(_ o: [String: TemplateNode], inside outer: GroupTiming) throws(TemplateError) {
    self = outer
    var own: [String: TemplateNode] = [:]
    for key in Self.keys { own[key] = o[key] }
    if let motion = try TemplateMotion.decode(own) {
      self.motion = motion
      motionKey = TemplateMotion.keys.first { own[$0] != nil }
      if let n = own["duration"], !motion.takesDuration {
        throw n.error(
          "\(quoted: motion.noun) gets its length from its parameters, so the group's 'duration' cannot apply; "
            + "give the length in the spring (e.g. spring: { duration: 0.4, bounce: 0.2 }) or drop 'duration'")
      }
    }
    if let n = own["duration"] {
      duration = try n.double(in: TemplateNode.seconds)
      durationNode = n
    }
    if let timing = try PropertyAnimation.timing(own) { self.timing = timing }
  }

  /// Whether the group gives anything.
  var isEmpty: Bool { motion == nil && duration == nil && timing == nil }

  /// The group's curve as a drag's or spin's timing curve, or nil when it gives none; an error
  /// at `node` (the entry) when the group's motion is a spring or decay, which cannot pace one.
  func timingFunction(for what: StaticString, at node: TemplateNode) throws(TemplateError) -> TimingFunction? {
    guard let motion else { return nil }
    if case .spec(let spec, _) = motion, case .tween(let f, _) = spec.kind { return f }
    throw node.error(
      "the group's '\(quoted: motionKey ?? "curve")' cannot pace " + what.description
        + ", which follows a timing curve; give it its own 'curve' (e.g. curve: \"easeInEaseOut\")")
  }
}

extension TemplateMotion {
  /// Whether a `duration` key goes with this motion (tweens and keyframes; not springs or decays).
  var takesDuration: Bool {
    guard case .spec(let spec, _) = self else { return true }
    switch spec.kind {
    case .spring, .decay: return false
    default: return true
    }
  }

  /// What the motion is called in messages.
  var noun: String {
    switch self {
    case .spec(let spec, _): spec.kind.noun
    case .keyframes: "keyframes"
    }
  }
}
