import FlickMotion
import FlickScene

/// What an entry says about every property it animates (each property may override it), over
/// what its groups say (``GroupTiming``): the entry's own keys win, key by key.
struct MotionDefaults {
  var motion: TemplateMotion?
  var duration: Double?
  var timing: MediaTiming?
  /// The entry's `colorSpace` for its colour properties (nil: the template's default).
  var colorSpace: ColorSpace?
  /// Whether ``motion`` is a group's (the entry gives none).
  var motionIsInherited = false
  /// Whether ``duration`` is a group's (the entry gives none): it is dropped for a spring or
  /// decay, whose length comes from its parameters.
  var durationIsInherited = false
  /// Where the entry's own `duration` is written, for messages.
  var durationNode: TemplateNode?

  /// The entry-level motion, duration, timing and colour space of `o`, over the group's `group`.
  init(_ o: [String: TemplateNode], group: GroupTiming = GroupTiming()) throws(TemplateError) {
    motion = try TemplateMotion.decode(o)
    duration = try o["duration"]?.double(in: TemplateNode.seconds)
    durationNode = o["duration"]
    timing = try PropertyAnimation.timing(o)
    colorSpace = try o["colorSpace"]?.colorSpace()
    inherit(group)
  }

  /// No entry-level defaults: the group's, if any.
  init(group: GroupTiming = GroupTiming()) {
    inherit(group)
  }

  private mutating func inherit(_ group: GroupTiming) {
    if motion == nil, let m = group.motion {
      motion = m
      motionIsInherited = true
    }
    if duration == nil, let d = group.duration {
      duration = d
      durationIsInherited = true
    }
    if timing == nil { timing = group.timing }
  }

  /// The duration for a property whose own `duration` is `own` (at `ownNode`) and whose motion
  /// is `motion`: its own, else the entry's, else the group's when `motion` takes one. An own or
  /// entry duration that meets a group's spring or decay is an error saying so.
  func duration(own: Double?, at ownNode: TemplateNode?, motion: TemplateMotion?, ownMotion: Bool)
    throws(TemplateError) -> Double?
  {
    let takes = motion?.takesDuration ?? true
    if !takes, !ownMotion, motionIsInherited, let n = ownNode ?? durationNode, let motion {
      throw n.error(
        "this 'duration' cannot go with the group's motion, \(quoted: motion.noun), whose length comes from its "
          + "parameters; give this entry its own 'curve' or drop 'duration'")
    }
    if let own { return own }
    if durationIsInherited && !takes { return nil }
    return duration
  }
}

/// The animation of one property from its value or animation object (`opacity: 0`, `position:
/// { to: […], spring: {…} }`): written by `animate` entries, the single-property form and
/// `release`. The curve comes from a ``CurveRequest`` that takes over from what the property is
/// doing at its start.
struct PropertyAnimation: PropertyJob {
  /// Keys of a property's own animation object (`position: { to: […], spring: {…} }`).
  static let propertySpecKeys =
    ["to", "from", "by", "velocity", "duration", "delay", "colorSpace"] + TemplateMotion.keys
    + TimelineCompiler.timingKeys

  /// The property's value or animation object.
  var node: TemplateNode
  /// The entry's motion, duration, timing and colour space.
  var defaults: MotionDefaults
  /// The entry's begin time (plus its stagger), seconds.
  var begin: Double
  /// The motion when neither the property nor the entry gives one (a `release`'s).
  var defaultMotion: TemplateMotion?
  /// The template's default space for colour animations.
  var templateColorSpace: ColorSpace

  func write<V: Animatable>(
    _ p: LayerProperty<V>, layerID: String, values: PropertyValueDecoder<V>, into output: inout TimelineOutput
  ) throws(TemplateError) -> Double {
    let decode = values.value
    var spec: [String: TemplateNode] = [:]
    var valueNode: TemplateNode? = node
    if case .object(let members) = node.value.kind, members.contains(where: { Self.propertySpecKeys.contains($0.key) })
    {
      spec = try node.object(allowed: Self.propertySpecKeys)
      valueNode = spec["to"]
    }
    let own = try Self.timing(spec)
    let start = begin + (try spec["delay"]?.double(in: TemplateNode.seconds) ?? 0)
    let ownMotion = try TemplateMotion.decode(spec)
    // A spec's own delay moves the hand-over to when its curve starts (``AnimationSpec/handover(at:)``).
    let handover =
      (ownMotion ?? defaults.motion ?? defaultMotion)?.spec?.handover(at: start) ?? (time: start, atRest: false)
    let from = try spec["from"].map(decode) ?? output.currentValue(p, layerID: layerID, at: handover.time)
    var to = try valueNode.map(decode)
    if to == nil, let by = spec["by"] {
      let end = from + (try values.change(by))
      try values.check(end, at: by, how: "where 'by' ends from the start value")
      to = end
    }
    let handoff = Handoff(
      value: from,
      velocity: handover.atRest ? .zero : output.currentVelocity(p, layerID: layerID, at: handover.time),
      time: handover.time)
    let motion = ownMotion ?? defaults.motion ?? defaultMotion
    let duration = try defaults.duration(
      own: try spec["duration"]?.double(in: TemplateNode.seconds), at: spec["duration"], motion: motion,
      ownMotion: ownMotion != nil || (defaults.motion != nil && !defaults.motionIsInherited))
    let request = CurveRequest(
      handoff: handoff, to: to, velocity: try spec["velocity"].map(values.change), threshold: p.threshold,
      motion: motion, duration: duration,
      timing: own ?? defaults.timing, node: node, property: p.name,
      colorSpace: try Self.colorSpace(
        spec["colorSpace"], entry: defaults.colorSpace, template: templateColorSpace, for: p))
    let curve = try request.curve(decode: decode)
    try output.add(p, layerID: layerID, curve: curve, begin: start, node: node)
    return start + curve.duration
  }

  /// The space a colour animation of `p` travels through: its own `colorSpace`, the entry's,
  /// then the template's default. An own `colorSpace` on a property that is not a colour is
  /// an error; the entry's applies to the entry's colour properties only.
  static func colorSpace<V>(_ own: TemplateNode?, entry: ColorSpace?, template: ColorSpace, for p: LayerProperty<V>)
    throws(TemplateError) -> ColorSpace
  {
    if let own {
      guard V.self == Color.self else {
        throw own.error(
          "'colorSpace' applies to colour properties (backgroundColor, borderColor, …), and "
            + "\(quoted: p.name) is not one")
      }
      return try own.colorSpace()
    }
    guard V.self == Color.self else { return .sRGB }
    return entry ?? template
  }

  /// Core Animation timing from `repeatCount`, `repeatForever`, `autoreverses`, `speed`,
  /// `timeOffset`, `repeatDuration`, `fill`, or nil when none is given.
  static func timing(_ o: [String: TemplateNode]) throws(TemplateError) -> MediaTiming? {
    guard TimelineCompiler.timingKeys.contains(where: { o[$0] != nil }) else { return nil }
    let fill = try o["fill"]?.string(oneOf: MediaTiming.FillMode.allCases.map(\.rawValue))
    return MediaTiming(
      speed: try o["speed"]?.double(in: MediaTiming.Ranges.speed) ?? 1,
      timeOffset: try o["timeOffset"]?.double(in: MediaTiming.Ranges.timeOffset) ?? 0,
      repeatCount: try o["repeatCount"]?.double(in: MediaTiming.Ranges.repeatCount) ?? 0,
      repeatDuration: try o["repeatDuration"]?.double(in: MediaTiming.Ranges.repeatDuration) ?? 0,
      repeatForever: try o["repeatForever"]?.bool() ?? false,
      autoreverses: try o["autoreverses"]?.bool() ?? false,
      fillMode: fill.flatMap(MediaTiming.FillMode.init(rawValue:)) ?? .forwards)
  }
}
