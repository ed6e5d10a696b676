import FlickMotion
import FlickScene

/// Turns a template's `timeline` into the scene's ``LayerAnimation``s.
///
/// Entries are compiled in file order. Each one gets a begin time (absolute `at`, or `after` /
/// `with` an earlier entry's id, plus `delay`) and, once compiled, an end time: when its last
/// animation settles. An animation's start value, when `from` is omitted, is the property's value
/// at its begin time, and a spring or decay without a velocity takes the velocity the property
/// has at that moment (so retargeting and releasing a drag keep the motion continuous). Both are
/// read from the ``PropertyTracks`` built so far, as left limits (a tween ending at that instant
/// hands over its final velocity): compiling never renders the scene and never differentiates.
/// Everything compiles to pure functions of time: any frame renders alone.
///
/// The compiler keeps the walk over the entries (groups, sequences, plays, repeats); each other
/// kind has its writer, a small type with one entry point that reads the ``TimelineSchedule``
/// and writes into the ``TimelineOutput``: ``AnimateWriter``, ``SetWriter``, ``DragWriter``,
/// ``ReleaseWriter``, ``AnimatorWriter``, ``LinkWriter``, ``SpinWriter`` and
/// ``SinglePropertyWriter``. Their work on one property runs through
/// ``AnyLayerProperty/write(_:layerID:into:)`` (a ``PropertyJob`` per writer). A group's timing
/// (``GroupTiming``) reaches its entries through the schedule.
struct TimelineCompiler {
  /// What a timeline entry does: the key that picks it, and the other keys it accepts.
  enum EntryKind: String, CaseIterable {
    case animate, set, group, sequence, drag, release, animator
    /// `link`: properties as functions of another property or of time (``LinkWriter``).
    case link
    /// `{ play: "wifi" }`: a component instance's timeline, played again (TimelineCompiler+Play.swift).
    case play
    /// The single-property form `{ target, property, to, … }`.
    case property
    /// `spin`: a speed eased to a new one, then held (``SpinWriter``).
    case spin

    /// Keys this kind accepts besides its own key and the placement keys.
    var extraKeys: [String] {
      switch self {
      case .animate:
        ["target", "targets", "stagger", "duration", "colorSpace"] + TemplateMotion.keys + TimelineCompiler.timingKeys
      case .set: ["target", "targets", "stagger", "transition"]
      case .group: ["stagger"] + TimelineCompiler.repeatKeys + GroupTiming.keys
      case .sequence: TimelineCompiler.repeatKeys
      case .drag, .release, .spin: ["target"]
      case .animator: []
      case .link: ["target", "targets", "stagger"]
      case .play: ["params"] + TimelineCompiler.repeatKeys
      case .property:
        ["target", "to", "from", "by", "velocity", "duration", "colorSpace"] + TemplateMotion.keys
          + TimelineCompiler.timingKeys
      }
    }
  }

  /// Where entries sit in time: begin times, entry ids and their spans, repeats, component namespaces.
  var schedule: TimelineSchedule
  /// What the entries wrote: the scene's animations and the property tracks hand-overs read.
  var output: TimelineOutput
  /// The template's default space for colour animations (top-level `colorSpace`).
  let colorSpace: ColorSpace

  typealias Span = TimelineSchedule.Span
  typealias Placement = TimelineSchedule.Placement

  /// A compiler for the layer tree `layers` whose ids are `layerIDs`.
  init(layers: [Layer], layerIDs: Set<String>, horizon: Double? = nil, colorSpace: ColorSpace = .sRGB) {
    schedule = TimelineSchedule(layerIDs: layerIDs, horizon: horizon)
    output = TimelineOutput(tracks: PropertyTracks(layers: layers))
    self.colorSpace = colorSpace
  }

  /// Compiles every entry of the `timeline` array.
  mutating func compile(_ timeline: TemplateNode) throws(TemplateError) {
    for node in try timeline.array() {
      _ = try entry(node, placement: .top)
    }
    output.finish()
  }

  // MARK: - Entries

  /// `when` waits for a property to cross a value (``CrossingPlacement``).
  static let placementKeys = ["id", "at", "after", "with", "delay", "when"]
  static let timingKeys = [
    "repeatCount", "repeatForever", "autoreverses", "speed", "timeOffset", "repeatDuration", "fill",
  ]
  /// Keys that repeat a group or a sequence (see ``repeating(_:_:begin:_:)``).
  static let repeatKeys = ["repeat", "autoreverses"]
  static let entryKeys =
    placementKeys + EntryKind.allCases.map(\.rawValue)
    + Array(Set(EntryKind.allCases.flatMap(\.extraKeys))).sorted()

  /// Compiles one entry and returns its span.
  mutating func entry(_ node: TemplateNode, placement: Placement) throws(TemplateError) -> Span {
    let o = try node.object(allowed: Self.entryKeys)
    let present = EntryKind.allCases.filter { o[$0.rawValue] != nil }
    guard let kind = present.first else {
      if o.count == 1, o["delay"] != nil {
        throw node.error("{ delay: … } alone is a step of a 'sequence'; elsewhere put 'delay' on an entry")
      }
      throw node.error(
        "a timeline entry needs one of: \(EntryKind.allCases.map(\.rawValue).joined(separator: ", ")) "
          + "(e.g. { target: \"card\", animate: { opacity: 0 } })")
    }
    if present.count > 1, let second = o[present[1].rawValue] {
      throw second.error(
        "an entry does one thing: '\(present[0].rawValue)' and '\(present[1].rawValue)' are both set; "
          + "use a group for both")
    }
    let extra = kind.extraKeys
    for (key, n) in o where !Self.placementKeys.contains(key) && key != kind.rawValue && !extra.contains(key) {
      let what = kind == .property ? "a single-property" : "a '\(kind.rawValue)'"
      throw n.error("'\(quoted: key)' does not apply to \(quoted: what) entry")
    }
    var begin = try schedule.beginTime(o, node, placement)
    output.currentEntryPath = node.path
    if let when = o["when"] {
      begin = try CrossingPlacement(schedule: schedule).begin(when, entry: o, node, placement, into: &output)
    }
    let span: Span
    switch kind {
    case .animate:
      span = try AnimateWriter(schedule: schedule, colorSpace: colorSpace).write(o, node, begin: begin, into: &output)
    case .set: span = try SetWriter(schedule: schedule).write(o, node, begin: begin, into: &output)
    case .group: span = try group(o, node, begin: begin)
    case .sequence: span = try sequence(o, node, begin: begin)
    case .drag: span = try DragWriter(schedule: schedule).write(o, node, begin: begin, into: &output)
    case .release:
      span = try ReleaseWriter(schedule: schedule, colorSpace: colorSpace).write(o, node, begin: begin, into: &output)
    case .animator: span = try AnimatorWriter(schedule: schedule).write(o, node, begin: begin, into: &output)
    case .link:
      span = try LinkWriter(schedule: schedule, colorSpace: colorSpace).write(o, node, begin: begin, into: &output)
    case .play: span = try play(o, node, begin: begin)
    case .spin: span = try SpinWriter(schedule: schedule).write(o, node, begin: begin, into: &output)
    case .property:
      span = try SinglePropertyWriter(schedule: schedule, colorSpace: colorSpace).write(
        o, node, begin: begin, into: &output)
    }
    if let idNode = o["id"] { try schedule.record(span, id: idNode) }
    return span
  }

  // MARK: - Groups

  private mutating func group(_ o: [String: TemplateNode], _ node: TemplateNode, begin: Double) throws(TemplateError)
    -> Span
  {
    guard let list = o["group"] else { return Span(begin: begin, end: begin) }
    let children = try list.array()
    let stagger = try TimelineSchedule.stagger(o, count: children.count, begin: begin)
    let outer = schedule.groupTiming
    schedule.groupTiming = try GroupTiming(o, inside: outer)
    defer { schedule.groupTiming = outer }
    return try repeating(o, node, begin: begin) { c, start throws(TemplateError) in
      var end = start
      for (i, child) in children.enumerated() {
        let offset = Double(i) * stagger
        end = max(end, try c.entry(child, placement: .group(begin: start + offset)).end)
      }
      return Span(begin: start, end: end)
    }
  }

  private mutating func sequence(_ o: [String: TemplateNode], _ node: TemplateNode, begin: Double) throws(TemplateError)
    -> Span
  {
    guard let list = o["sequence"] else { return Span(begin: begin, end: begin) }
    let steps = try list.array()
    return try repeating(o, node, begin: begin) { c, start throws(TemplateError) in
      var cursor = start
      for step in steps {
        switch step.value.kind {
        case .array:
          // A parallel step: every entry starts together; the step ends when all have settled.
          var end = cursor
          for child in try step.array() { end = max(end, try c.entry(child, placement: .group(begin: cursor)).end) }
          cursor = end
        case .object(let members) where members.count == 1 && members[0].key == "delay":
          cursor += try step.child("delay", members[0].value).double(in: TemplateNode.seconds)
        default:
          cursor = try c.entry(step, placement: .sequence(begin: cursor)).end
        }
        guard cursor.isFinite else {
          throw step.error("this step never ends (it repeats forever), so the steps after it could never start")
        }
      }
      return Span(begin: start, end: cursor)
    }
  }
}
