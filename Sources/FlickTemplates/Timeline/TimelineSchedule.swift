import FlickMotion
import FlickScene

/// Where a template's timeline entries sit in time: begin times from `at` / `after` / `with` and
/// `delay`, the spans of entries with an id, the repeat budget, the component namespace being
/// compiled, and which layer ids entries may name. It writes no animation (``TimelineOutput``
/// does): the scheduler of ``TimelineCompiler``.
struct TimelineSchedule {
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

  /// Every layer id of the template (qualified: `wifi/knob` inside a component instance).
  let layerIDs: Set<String>
  /// Spans of entries with an id, by qualified id.
  private(set) var spans: [String: Span] = [:]
  /// Every entry with an id as it was scheduled, in compile order (a repeated entry once per
  /// iteration): the template's named moments (``Template/timelineMarkers``).
  private(set) var markers: [TimelineMarker] = []
  /// The scene's length when it is fixed: a `repeat: "forever"` unrolls up to it.
  var horizon: Double?
  /// Iterations played by every repeat so far (``TimelineCompiler/iterationLimit``).
  var repeatIterations = 0
  /// How many times what is being compiled is still to play because of the repeats around it:
  /// the product of their iterations still to come, the current one included (1 outside any).
  var repeatMultiplier = 1
  /// The component instances by qualified id: what `play` entries play.
  var instances: [String: ComponentInstance] = [:]
  /// The prefix of the ids that entries name while a component's timeline compiles (`wifi/`);
  /// empty in the template's own timeline.
  var namespace = ""
  /// The timing the enclosing groups give their entries (``GroupTiming``); empty outside groups.
  var groupTiming = GroupTiming()
  /// The canvas size in points: a drag's resistance stretches toward it by default.
  var canvas = Size(width: 0, height: 0)
  /// What `play` entries with `params` may substitute, in all (bytes; see ``TemplateLimits``).
  var replayBudget = ExpansionBudget(limit: TemplateLimits().maximumExpandedBytes)

  init(layerIDs: Set<String>, horizon: Double?) {
    self.layerIDs = layerIDs
    self.horizon = horizon
  }

  /// The spans of entries with an id, for a repeat to forget an iteration's ids.
  var spanIDs: Set<String> { Set(spans.keys) }

  mutating func forgetSpans(except keep: Set<String>) {
    for id in spans.keys where !keep.contains(id) { spans[id] = nil }
  }

  /// Records the span of the entry whose `id` member is `idNode`.
  mutating func record(_ span: Span, id idNode: TemplateNode) throws(TemplateError) {
    let id = try idNode.string()
    guard !id.isEmpty else { throw idNode.error("an entry id cannot be empty") }
    guard spans[namespace + id] == nil else { throw idNode.error("duplicate timeline id '\(quoted: id)'") }
    spans[namespace + id] = span
    markers.append(TimelineMarker(name: namespace + id, begin: span.begin, end: span.end))
  }

  /// The begin time from `at` / `after` / `with` and `delay`.
  func beginTime(_ o: [String: TemplateNode], _ node: TemplateNode, _ placement: Placement)
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
      begin += try n.double(in: TemplateNode.seconds)
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
    if let n = o["delay"] { begin += try n.double(in: TemplateNode.signedSeconds) }
    guard begin >= 0 else {
      throw (o["delay"] ?? node).error(
        "this entry would start at \(TemplateNode.format(begin)) s, before the scene starts")
    }
    return begin
  }

  /// Seconds between one target's (or child's) start and the next's.
  static let staggerRange: ClosedRange<Double> = -60...60

  /// The entry's `stagger` (seconds between its `count` targets or children, 0 when not given),
  /// checked as `at` and `delay` are: a negative stagger that would start one before the scene
  /// does (at `begin` + (count − 1) × stagger < 0) is refused.
  static func stagger(_ o: [String: TemplateNode], count: Int, begin: Double) throws(TemplateError) -> Double {
    guard let n = o["stagger"] else { return 0 }
    let stagger = try n.double(in: staggerRange)
    let last = begin + Double(max(count - 1, 0)) * stagger
    guard last >= 0 else {
      let earliest = -Double(count - 1) * stagger
      throw n.error(
        "a stagger of \(TemplateNode.format(stagger)) s would start the last of \(count) at "
          + "\(TemplateNode.format(last)) s, before the scene starts (a negative stagger needs the entry to start at "
          + "\(TemplateNode.format(earliest)) s or later)")
    }
    return stagger
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

  /// The ids among `ids` that entries compiling now can name (those in ``namespace``, without
  /// it), sorted: what suggestions choose from.
  func visible(_ ids: some Collection<String>) -> [String] {
    ids.filter { $0.hasPrefix(namespace) }.map { String($0.dropFirst(namespace.count)) }.sorted()
  }
}
