import FlickMotion
import FlickScene

/// What a template's timeline entries wrote: the scene's animations, in the order the scene
/// applies them, and every compiled animation per layer and property (``PropertyTracks``), where
/// hand-overs read the value and velocity an animation takes over. It checks that the
/// animations of one property are listed in time order (``AnimationOrder``) and keeps the links
/// and their reads. The writers of ``TimelineCompiler`` append here; the compiler has no scene
/// to render.
struct TimelineOutput {
  /// The compiled animations, in the order the scene applies them.
  var animations: [LayerAnimation] = []
  /// Every animation compiled so far, per layer and property: where current values and
  /// velocities come from.
  var tracks: PropertyTracks
  /// The animations per `layer.property` in list order, for order checks and interruptions.
  var order = AnimationOrder()
  /// Above 0 while a repeat adds its reruns (every run after its first): what a later entry
  /// may cut.
  var rerunning = 0
  /// Indices into ``animations`` of reruns an interruption cut (dropped by ``finish()``).
  var cancelled: Set<Int> = []
  /// (layer, property) of every animation added, in order (what a repeat plays backwards).
  var addedLog: [(layerID: String, name: String)] = []
  /// Every string a text layer shows in the timeline so far, by layer id (its own first):
  /// what an autoreversing repeat plays backwards through.
  var textStrings: [String: [String]] = [:]
  /// Each string of ``textStrings`` with its index there, per layer id: where
  /// ``remember(_:layerID:)`` finds whether the layer has a string, and where the layer's
  /// ``stringProperty(of:)`` reads its string's index, without reading the list.
  var textStringIndices: [String: [String: Int]] = [:]
  /// Strings ``remember(_:layerID:)`` has compared a new string with: one look-up per string
  /// given, however many the layer shows (counted, not timed, by the compile-cost tests).
  private(set) var textStringComparisons = 0
  /// Every link compiled so far, to rebuild over the finished tracks (``finishLinks()``).
  var links: [LinkBuilder] = []
  /// The latest value read through a link per `layer.property` it read, with the linked
  /// property and the entry that read it (``checkLinkReads(_:layerID:begin:node:)``).
  var linkReadLog: [String: (read: LinkRead, reader: String, path: String)] = [:]
  /// The JSON path of the entry being compiled.
  var currentEntryPath = ""
  /// The crossings `when` entries waited for, in compile order (``CrossingPlacement``).
  var crossings: [ResolvedCrossing] = []
  /// The latest crossing time per `layer.trackName` crossed, for ``checkCrossingReads``.
  var crossingEnds: [String: Double] = [:]
  /// Track samples the `when` searches may still read (``TemplateLimits/maximumCrossingSamples``).
  var crossingBudget = TemplateLimits().maximumCrossingSamples
  /// The most animations the timeline may add (``TemplateLimits/maximumAnimations``).
  var animationLimit = TemplateLimits().maximumAnimations
  /// The layers laid out by `constraints`, with the JSON path of their `constraints` object.
  var constrained: [String: String] = [:]

  init(tracks: PropertyTracks) {
    self.tracks = tracks
  }

  /// The layer `id` as written, before any animation (for its kind).
  func layer(_ id: String) -> Layer? { tracks.layer(id) }

  /// Rebuilds the links over the finished tracks and drops the reruns an interruption cut.
  mutating func finish() {
    finishLinks()
    if !cancelled.isEmpty {
      animations = animations.indices.filter { !cancelled.contains($0) }.map { animations[$0] }
    }
  }

  /// The property's value that an animation starting at `t` takes over: the left limit of
  /// what was animating it, or its value as written.
  mutating func currentValue<V>(_ p: LayerProperty<V>, layerID: String, at t: Double) -> V {
    noteLinkReads(p.name, layerID: layerID, at: t)
    return tracks.value(of: p, layerID: layerID, at: t, limit: .handOver)
  }

  /// The property's velocity that an animation starting at `t` takes over (the left limit:
  /// a tween ending at `t` hands over the velocity it arrives with), through every name that
  /// writes the same state (`position` for `positionX`).
  mutating func currentVelocity<V>(_ p: LayerProperty<V>, layerID: String, at t: Double) -> V {
    noteLinkReads(p.name, layerID: layerID, at: t)
    return tracks.velocity(of: p, layerID: layerID, at: t, limit: .handOver)
  }

  /// Adds a compiled animation to the scene and its track, checking that animations of one
  /// property are listed in time order (a later start must win).
  mutating func add<V>(
    _ p: LayerProperty<V>, layerID: String, curve: AnyAnimationCurve<V>, begin: Double, node: TemplateNode
  ) throws(TemplateError) {
    try checkAnimationCount(node)
    try checkOrder(p.name, layerID: layerID, begin: begin, node: node)
    recordAdded(p.name, layerID: layerID, begin: begin, node: node)
    tracks.append(p, layerID: layerID, curve: curve, begin: begin)
    animations.append(LayerAnimation(layerID: layerID, property: p, curve: curve, beginTime: begin))
  }

  /// Refuses, at `node`, one animation more than ``animationLimit``.
  func checkAnimationCount(_ node: TemplateNode) throws(TemplateError) {
    guard animations.count >= animationLimit else { return }
    throw node.error(
      "the timeline compiles to more than \(animationLimit) animations (repeats and component instances "
        + "multiply their entries); animate fewer layers or repeat fewer times")
  }

  /// Checks that an animation of `name` on `layerID` from `begin` may be added now: after the
  /// ones of the same state in time, and not under a value already read through a link. A
  /// loop that a repeat unrolled is interrupted instead: its reruns that begin later are cut
  /// (``AnimationOrder``).
  mutating func checkOrder(_ name: String, layerID: String, begin: Double, node: TemplateNode) throws(TemplateError) {
    let key = "\(layerID).\(name)"
    // Animations apply in list order, so a later start must come later in the list; names that
    // write the same state (`position` and `positionX`) count as one property.
    for other in AnyLayerProperty.sameState(as: name) {
      switch order.verdict("\(layerID).\(other)", begin: begin) {
      case .inOrder:
        continue
      case .interrupts(let cut):
        order.cut("\(layerID).\(other)", after: begin)
        tracks.removeSegments(layerID: layerID, name: other, beginningAfter: begin)
        for entry in cut { cancelled.insert(entry.index) }
      case .outOfOrder(let last):
        let one = other == name ? "the one" : "the one of \(layerID).\(other)"
        let also = other == name ? "" : " (\(other) writes \(name) too)"
        throw node.error(
          "this animation of \(quoted: key) starts at \(TemplateNode.format(begin)) s, before \(quoted: one) at "
            + "\(quoted: last.path) (\(TemplateNode.format(last.begin)) s)\(quoted: also); list the animations of one property in time order"
        )
      }
    }
    try checkLinkReads(name, layerID: layerID, begin: begin, node: node)
    try checkCrossingReads(name, layerID: layerID, begin: begin, node: node)
    try checkConstrained(name, layerID: layerID, node: node)
  }

  /// Notes an animation of `name` on `layerID` from `begin` (the next one to be appended to
  /// ``animations``), checked by ``checkOrder(_:layerID:begin:node:)``. A link is never a rerun:
  /// links are not cut.
  mutating func recordAdded(_ name: String, layerID: String, begin: Double, node: TemplateNode, isLink: Bool = false) {
    let entry = AnimationOrder.Entry(begin: begin, path: node.path, index: animations.count)
    order.record("\(layerID).\(name)", entry, rerun: rerunning > 0 && !isLink)
    addedLog.append((layerID, name))
  }

  /// Adds `strings` to the ones `layerID` shows (``textStrings``).
  /// Each string is found in a set, and the list is taken out of the dictionary while it grows
  /// (not copied): a layer that shows n strings costs O(n), where searching the list cost O(n²)
  /// (80,000 distinct keyframes took minutes).
  mutating func remember(_ strings: [String], layerID: String) {
    var known = textStrings.removeValue(forKey: layerID) ?? [layer(layerID)?.text?.string ?? ""]
    var indices = textStringIndices.removeValue(forKey: layerID) ?? [known[0]: 0]
    for s in strings {
      textStringComparisons += 1
      if indices[s] == nil {
        indices[s] = known.count
        known.append(s)
      }
    }
    textStrings[layerID] = known
    textStringIndices[layerID] = indices
  }

  /// The `string` of `layerID` as an index into every string it shows: what an autoreversing
  /// repeat reads from the tracks and plays backwards, and what a text transition reads its
  /// texts through. It finds the index in ``textStringIndices``, not by searching the list.
  func stringProperty(of layerID: String) -> LayerProperty<Double> {
    guard let strings = textStrings[layerID], let indices = textStringIndices[layerID] else {
      return .string(choosingFrom: [layer(layerID)?.text?.string ?? ""])
    }
    return .string(choosingFrom: strings, indices: indices)
  }
}
