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
struct TimelineCompiler {
  /// When an entry starts and when everything it started has settled (scene seconds).
  struct Span: Equatable {
    var begin: Double
    var end: Double
  }

  /// Where an entry sits, which decides what its default start is and what `at` means.
  enum Placement {
    /// A top-level entry: `at` is scene time; default start 0.
    case top
    /// A child of a group: `at` is relative to the group's start, the default start.
    case group(begin: Double)
    /// A step of a sequence: starts when the previous step ends; only `delay` may shift it.
    case sequence(begin: Double)
  }

  /// What a timeline entry does: the key that picks it, and the other keys it accepts.
  enum EntryKind: String, CaseIterable {
    case animate, set, group, sequence, drag, release, animator
    /// `link`: properties as functions of another property or of time (TimelineCompiler+Links.swift).
    case link
    /// `{ play: "wifi" }`: a component instance's timeline, played again (TimelineCompiler+Play.swift).
    case play
    /// The single-property form `{ target, property, to, … }`.
    case property

    /// Keys this kind accepts besides its own key and the placement keys.
    var extraKeys: [String] {
      switch self {
      case .animate:
        ["target", "targets", "stagger", "duration", "colorSpace"] + TemplateMotion.keys + TimelineCompiler.timingKeys
      case .set: ["target", "targets", "stagger"]
      case .group: ["stagger"] + TimelineCompiler.repeatKeys
      case .sequence: TimelineCompiler.repeatKeys
      case .drag, .release: ["target"]
      case .animator: []
      case .link: ["target", "targets", "stagger"]
      case .play: ["params"] + TimelineCompiler.repeatKeys
      case .property:
        ["target", "to", "from", "by", "velocity", "duration", "colorSpace"] + TemplateMotion.keys
          + TimelineCompiler.timingKeys
      }
    }
  }

  /// The compiled animations, in the order the scene applies them. (The compiler has no scene
  /// to render: current values come from ``tracks``.)
  var animations: [LayerAnimation] = []
  let layerIDs: Set<String>
  /// Spans of entries with an `id`.
  private(set) var spans: [String: Span] = [:]
  /// Every animation compiled so far, per layer and property: where current values and
  /// velocities come from.
  var tracks: PropertyTracks
  /// The animations per `layer.property` in list order, for order checks and interruptions.
  var order = AnimationOrder()
  /// Above 0 while a repeat adds its reruns (every run after its first): what a later entry
  /// may cut.
  var rerunning = 0
  /// Indices into ``animations`` of reruns an interruption cut (dropped once compiled).
  var cancelled: Set<Int> = []
  /// (layer, property) of every animation added, in order (what a repeat plays backwards).
  var addedLog: [(layerID: String, name: String)] = []
  /// Iterations played by every repeat so far (``iterationLimit``).
  var repeatIterations = 0
  /// The scene's length when it is fixed: a `repeat: "forever"` unrolls up to it.
  var horizon: Double?
  /// The template's default space for colour animations (top-level `colorSpace`).
  var colorSpace: ColorSpace
  /// Every string a text layer shows in the timeline so far, by layer id (its own first):
  /// what an autoreversing repeat plays backwards through.
  var textStrings: [String: [String]] = [:]
  /// Every link compiled so far, to rebuild over the finished tracks (``finishLinks()``).
  var links: [LinkBuilder] = []
  /// The latest value read through a link per `layer.property` it read, with the linked
  /// property and the entry that read it (``checkLinkReads(_:layerID:begin:node:)``).
  var linkReadLog: [String: (read: LinkRead, reader: String, path: String)] = [:]
  /// The JSON path of the entry being compiled.
  var currentEntryPath = ""
  /// The component instances by qualified id: what `play` entries play.
  var instances: [String: ComponentInstance] = [:]
  /// The prefix of the ids that entries name while a component's timeline compiles (`wifi/`);
  /// empty in the template's own timeline.
  var namespace = ""
  /// What `play` entries with `params` may substitute, in all (bytes; see ``TemplateLimits``).
  var replayBudget = ExpansionBudget(limit: TemplateLimits().maximumExpandedBytes)

  /// A compiler for the layer tree `layers` whose ids are `layerIDs`.
  init(layers: [Layer], layerIDs: Set<String>, horizon: Double? = nil, colorSpace: ColorSpace = .sRGB) {
    self.layerIDs = layerIDs
    self.horizon = horizon
    self.colorSpace = colorSpace
    self.tracks = PropertyTracks(layers: layers)
  }

  /// Compiles every entry of the `timeline` array.
  mutating func compile(_ timeline: TemplateNode) throws(TemplateError) {
    for node in try timeline.array() {
      _ = try entry(node, placement: .top)
    }
    finishLinks()
    if !cancelled.isEmpty {
      animations = animations.indices.filter { !cancelled.contains($0) }.map { animations[$0] }
    }
  }

  // MARK: - Entries

  static let placementKeys = ["id", "at", "after", "with", "delay"]
  static let timingKeys = [
    "repeatCount", "repeatForever", "autoreverses", "speed", "timeOffset", "repeatDuration", "fill",
  ]
  /// Keys that repeat a group or a sequence (see ``repeating(_:_:begin:_:)``).
  static let repeatKeys = ["repeat", "autoreverses"]
  static let entryKeys =
    placementKeys + EntryKind.allCases.map(\.rawValue)
    + Array(Set(EntryKind.allCases.flatMap(\.extraKeys))).sorted()

  /// The spans of entries with an id, for a repeat to forget an iteration's ids.
  var spanIDs: Set<String> { Set(spans.keys) }

  mutating func forgetSpans(except keep: Set<String>) {
    for id in spans.keys where !keep.contains(id) { spans[id] = nil }
  }

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
        "an entry does one thing: '\(present[0].rawValue)' and '\(present[1].rawValue)' are both set; use a group for both"
      )
    }
    let extra = kind.extraKeys
    for (key, n) in o where !Self.placementKeys.contains(key) && key != kind.rawValue && !extra.contains(key) {
      throw n.error(
        "'\(quoted: key)' does not apply to \(quoted: kind == .property ? "a single-property" : "a '\(kind.rawValue)'") entry"
      )
    }
    let begin = try beginTime(o, node, placement)
    currentEntryPath = node.path
    let span: Span
    switch kind {
    case .animate: span = try animate(o, node, begin: begin)
    case .set: span = try set(o, node, begin: begin)
    case .group: span = try group(o, node, begin: begin)
    case .sequence: span = try sequence(o, node, begin: begin)
    case .drag: span = try drag(o, node, begin: begin)
    case .release: span = try release(o, node, begin: begin)
    case .animator: span = try animator(o, node, begin: begin)
    case .link: span = try link(o, node, begin: begin)
    case .play: span = try play(o, node, begin: begin)
    case .property: span = try legacy(o, node, begin: begin)
    }
    if let idNode = o["id"] {
      let id = try idNode.string()
      guard !id.isEmpty else { throw idNode.error("an entry id cannot be empty") }
      guard spans[namespace + id] == nil else { throw idNode.error("duplicate timeline id '\(quoted: id)'") }
      spans[namespace + id] = span
    }
    return span
  }

  /// The begin time from `at` / `after` / `with` and `delay`.
  private func beginTime(_ o: [String: TemplateNode], _ node: TemplateNode, _ placement: Placement)
    throws(TemplateError)
    -> Double
  {
    let placers = ["at", "after", "with"].filter { o[$0] != nil }
    if placers.count > 1, let second = o[placers[1]] {
      throw second.error(
        "give one of 'at', 'after' and 'with', not '\(quoted: placers[0])' and "
          + "'\(quoted: placers[1])'")
    }
    var begin: Double
    switch placement {
    case .top: begin = 0
    case .group(let b): begin = b
    case .sequence(let b):
      begin = b
      if let key = placers.first, let n = o[key] {
        throw n.error(
          "a step of a sequence starts when the previous step ends; shift it with 'delay' instead of "
            + "'\(quoted: key)'")
      }
    }
    if let n = o["at"] {
      begin += try n.double(in: 0...3600)
    } else if let n = o["after"] {
      let span = try referencedSpan(n)
      guard span.end.isFinite else {
        throw n.error(
          "'\(quoted: try n.string())' never ends (it repeats forever); start with 'with' and a "
            + "delay instead")
      }
      begin = span.end
    } else if let n = o["with"] {
      begin = try referencedSpan(n).begin
    }
    if let n = o["delay"] { begin += try n.double(in: -3600...3600) }
    guard begin >= 0 else {
      throw (o["delay"] ?? node).error(
        "this entry would start at \(TemplateNode.format(begin)) s, before the scene starts")
    }
    return begin
  }

  private func referencedSpan(_ node: TemplateNode) throws(TemplateError) -> Span {
    let id = try node.string()
    if let span = spans[namespace + id] { return span }
    var message = "no earlier timeline entry with id '\(quoted: id)'"
    if layerIDs.contains(namespace + id) {
      message += "; '\(quoted: id)' is a layer: 'after' and 'with' name timeline entries (give the entry an 'id')"
    } else if let guess = TemplateNode.closest(to: id, in: visible(spans.keys)) {
      message += "; did you mean '\(escaped: guess)'?"
    } else {
      message += " (entries can refer only to entries above them)"
    }
    throw node.error(message)
  }

  // MARK: - Groups

  private mutating func group(_ o: [String: TemplateNode], _ node: TemplateNode, begin: Double) throws(TemplateError)
    -> Span
  {
    guard let list = o["group"] else { return Span(begin: begin, end: begin) }
    let stagger = try o["stagger"]?.double(in: -60...60) ?? 0
    let children = try list.array()
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
          cursor += try step.child("delay", members[0].value).double(in: 0...3600)
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

  // MARK: - Targets

  /// The layer ids an entry acts on (`target` or `targets`), checked.
  func targets(_ o: [String: TemplateNode], _ node: TemplateNode) throws(TemplateError) -> [(
    id: String, node: TemplateNode
  )] {
    if let n = o["target"] {
      if o["targets"] != nil { throw n.error("give 'target' or 'targets', not both") }
      return [(try layerID(n), n)]
    }
    guard let n = o["targets"] else { throw node.error("this entry needs a 'target' layer id (or 'targets')") }
    var out: [(String, TemplateNode)] = []
    for item in try n.array() { out.append((try layerID(item), item)) }
    guard !out.isEmpty else { throw n.error("'targets' is empty") }
    return out
  }

  func layerID(_ node: TemplateNode) throws(TemplateError) -> String {
    let written = try node.string()
    return try qualifiedLayerID(
      written, node,
      ownLayersHint:
        "a component's timeline animates its own layers ('\(written)' is the template's: animate it in the template's timeline)"
    )
  }

  /// The layer `written` names, qualified by the component namespace (`wifi/knob` inside the
  /// `wifi` instance's timeline), or an error at `node`: `use` follows "no layer with id …"
  /// (" to link from"), `ownLayersHint` explains why a template layer cannot be named from a
  /// component, and `trailer` ends the message.
  func qualifiedLayerID(
    _ written: String, _ node: TemplateNode, use: String = "", ownLayersHint: String, trailer: String = ""
  ) throws(TemplateError) -> String {
    let id = namespace + written
    guard !layerIDs.contains(id) else { return id }
    var message = "no layer with id '\(quoted: written)'"
    if !namespace.isEmpty {
      message += " in the component"
      if layerIDs.contains(written) { throw node.error(message + use + "; " + ownLayersHint) }
    }
    message += use
    if let guess = TemplateNode.closest(to: written, in: visible(layerIDs)) {
      message += "; did you mean '\(escaped: guess)'?"
    }
    throw node.error(message + trailer)
  }

  /// The layer `id` as written, before any animation (for its kind).
  func layer(_ id: String) -> Layer? { tracks.layer(id) }
}
