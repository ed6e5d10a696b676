/// Expands component instances (layers with `use:`) into ordinary layers, before styles are
/// applied and layers decoded, and collects what each instance plays in the timeline.
///
/// - An instance `{ id: "wifi", use: "toggleRow", params: { … }, position: … }` becomes the
///   component's root layer with the id `wifi`; keys given on the instance (every layer key but
///   `sublayers` and `mask`: position, size, opacity, transform, …) override the root's.
/// - Inner layer ids are qualified by the instance: `knob` becomes `wifi/knob` (the separator
///   `/` cannot be confused with the `layer.property` form, nor with JSON paths); instances in
///   instances nest: `list/wifi/knob`.
/// - Parameters: a component sees its own parameters and the template's; its own shadow the
///   template's (lexical scope: the component's parameters, then the template's, never those
///   of the instance it happens to be used in). `params` values are written in the scope where
///   the instance is (they may reference the outer parameters).
/// - Time: the component's timeline plays for each instance as a group, by default at 0 (`at`,
///   `after`, `with`, `delay`, `repeat`, `autoreverses` on the instance place and loop it;
///   `autoplay: false` leaves it to `{ play: "wifi" }` entries). Its entries name the
///   component's own layers and entry ids (unqualified), which the compiler qualifies.
/// - Every expanded layer reports errors with the instance path and the place in the definition:
///   `layers[3] (use "toggleRow") → components.toggleRow.layer.sublayers[0].fontSize`.
/// - Recursion (direct or through other components) is an error naming the cycle; nesting is
///   at most ``maximumDepth`` deep; all instances together are at most
///   ``TemplateLimits/maximumComponentInstances`` and count against
///   ``TemplateLimits/maximumExpandedBytes``, checked before each copy, so a component used 1,000
///   times by one used 1,000 times fails after the first few thousand small copies. The layers
///   made are counted as they are made, at most ``TemplateLimits/maximumLayers``: a component of
///   1,000 layers used 1,000 times is refused at its 100,001st layer, not after a million.
struct ComponentExpander {
  /// Between an instance id and the ids inside it.
  static let separator = "/"
  /// How deeply components may use components.
  static let maximumDepth = 16
  /// The keys an instance accepts besides the layer keys it may override.
  static let instanceKeys = ["id", "use", "params", "autoplay"] + timeKeys
  /// The keys that place and loop an instance's timeline (those of a timeline entry).
  static let timeKeys = ["at", "after", "with", "delay"] + TimelineCompiler.repeatKeys
  /// Layer keys an instance may give to override the component's root layer.
  static let overridingKeys = Template.baseLayerKeys.filter { !["id", "sublayers", "mask"].contains($0) }

  let components: [String: TemplateComponent]
  /// The template's parameter values (the outer scope of every component).
  let templateValues: [String: JSON5Value]
  var budget: ExpansionBudget
  let instanceLimit: Int
  /// The most layers the expansion may produce (``TemplateLimits/maximumLayers``).
  let layerLimit: Int
  /// The layers produced so far, instances' roots and their inner layers included (and those of
  /// earlier expansions that share the caps: ``Template/checkUnusedComponents``).
  private(set) var layerCount: Int
  /// The instances earlier expansions that share the caps made.
  private let instancesBefore: Int
  /// Every instance expanded, by qualified id, and in expansion order.
  private(set) var instances: [String: ComponentInstance] = [:]
  private(set) var order: [String] = []
  /// The components being expanded, outermost first (a repeat is a cycle).
  private var stack: [String] = []

  init(
    components: [String: TemplateComponent], templateValues: [String: JSON5Value], budget: ExpansionBudget,
    instanceLimit: Int, layerLimit: Int, layersBefore: Int = 0, instancesBefore: Int = 0
  ) {
    self.components = components
    self.layerCount = layersBefore
    self.instancesBefore = instancesBefore
    self.templateValues = templateValues
    self.budget = budget
    self.instanceLimit = instanceLimit
    self.layerLimit = layerLimit
  }

  /// An instance's own play of its component's timeline, to be placed in the enclosing timeline.
  struct Autoplay {
    /// The instance id as written (unqualified: the enclosing timeline qualifies it).
    var id: String
    /// The instance's placement and repeat members.
    var members: [JSON5Value.Member]
    /// The instance (where errors about its placement point).
    var node: TemplateNode
  }

  // MARK: - Layers

  /// The layers of the array `node` with every instance expanded and, inside a component
  /// (`namespace` not empty), every id qualified; instances found add their plays to `plays`.
  mutating func expandLayers(_ node: TemplateNode, namespace: String, plays: inout [Autoplay]) throws(TemplateError)
    -> JSON5Value
  {
    guard case .array = node.value.kind else { return node.value }  // the layer decoder says what was expected
    var out = node.value
    var items: [JSON5Value] = []
    for item in try node.array() { items.append(try expandLayer(item, namespace: namespace, plays: &plays)) }
    out.kind = .array(items)
    return out
  }

  private mutating func expandLayer(_ node: TemplateNode, namespace: String, plays: inout [Autoplay])
    throws(TemplateError) -> JSON5Value
  {
    guard case .object(var members) = node.value.kind else { return node.value }
    // Counted before anything is copied: an instance's body only once its root fits.
    layerCount += 1
    guard layerCount <= layerLimit else {
      throw node.error(
        "the template has more than \(layerLimit) layers (counting sublayers, masks and every layer of every "
          + "component instance); use fewer")
    }
    if members.contains(where: { $0.key == "use" }) {
      return try expandInstance(node, namespace: namespace, plays: &plays)
    }
    try expandChildren(&members, of: node, namespace: namespace, plays: &plays, qualifyID: true)
    var out = node.value
    out.kind = .object(members)
    return out
  }

  /// Qualifies the `id` (when `qualifyID`) and expands `sublayers` and `mask` of a layer's members.
  private mutating func expandChildren(
    _ members: inout [JSON5Value.Member], of node: TemplateNode, namespace: String, plays: inout [Autoplay],
    qualifyID: Bool
  ) throws(TemplateError) {
    for i in members.indices {
      let m = members[i]
      switch m.key {
      case "id" where qualifyID && !namespace.isEmpty:
        if case .string(let id) = m.value.kind { members[i].value.kind = .string(namespace + id) }
      case "sublayers":
        members[i].value = try expandLayers(node.child(m.key, m.value), namespace: namespace, plays: &plays)
      case "mask":
        members[i].value = try expandLayer(node.child(m.key, m.value), namespace: namespace, plays: &plays)
      default: break
      }
    }
  }

  private mutating func expandInstance(_ node: TemplateNode, namespace: String, plays: inout [Autoplay])
    throws(TemplateError) -> JSON5Value
  {
    // Two likely slips first, with what to write instead.
    for m in node.value.objectMembers {
      let member = node.child(m.key, m.value)
      if m.key == "with", case .object = m.value.kind {
        throw member.error(
          "parameter values go in 'params: { … }'; 'with' starts the instance's timeline together with a timeline entry (an id)"
        )
      }
      if m.key == "sublayers" || m.key == "mask" {
        throw member.error(
          "an instance cannot add '\(quoted: m.key)': its layers are the component's (add a "
            + "parameter, or wrap the instance in a layer)")
      }
    }
    try Template.checkMisplacedKeys(node, allowed: Self.instanceKeys + Self.overridingKeys)
    let o = try node.object(allowed: Self.instanceKeys + Self.overridingKeys)
    guard let useNode = o["use"] else { return node.value }
    let name = try useNode.string()
    guard let component = components[name] else {
      var message = "no component named '\(quoted: name)'"
      let names = components.keys.sorted()
      if names.isEmpty {
        message += "; the template has no 'components' section"
      } else {
        if let guess = TemplateNode.closest(to: name, in: names) { message += "; did you mean '\(escaped: guess)'?" }
        message += " (components: \(TemplateText.list(names)))"
      }
      throw useNode.error(message)
    }
    guard let idNode = o["id"] else {
      throw node.error("a component instance needs an 'id' (its inner layers are named id\(quoted: Self.separator)…)")
    }
    let localID = try idNode.string()
    guard !localID.isEmpty else { throw idNode.error("a layer id cannot be empty") }
    let id = namespace + localID
    if let start = stack.firstIndex(of: name) {
      throw useNode.error(
        "components use each other in a cycle: \(quoted: (stack[start...] + [name]).joined(separator: " → ")) "
          + "(a component cannot contain itself)")
    }
    guard stack.count < Self.maximumDepth else {
      throw useNode.error(
        "components are nested deeper than \(Self.maximumDepth) levels (\(quoted: (stack + [name]).joined(separator: " → ")))"
      )
    }
    guard instancesBefore + order.count < instanceLimit else {
      throw useNode.error(
        "the template expands to more than \(instanceLimit) component instances (counting instances inside instances: "
          + "\(quoted: (stack + [name]).joined(separator: " → "))); use fewer, or raise the cap with TemplateLimits.maximumComponentInstances"
      )
    }
    try budget.spend(component.size, at: useNode)
    let autoplay = try o["autoplay"]?.bool() ?? true

    let scope = try component.scope(given: o["params"], outer: templateValues, instance: node)
    let base = "\(node.path) (use \"\(name)\") → components.\(name)"
    let definition = TemplateNode(
      value: component.body, path: base, file: component.node.file, context: component.node.context)
    let body = try Template.substitute(definition, values: scope, budget: &self.budget)
    let bodyNode = definition.with(value: body)

    stack.append(name)
    defer { stack.removeLast() }
    order.append(id)
    var inner: [Autoplay] = []
    var root: JSON5Value
    if let layer = bodyNode.member("layer") {
      root = layer.value
      root.anchor = layer.path
    } else {
      root = JSON5Value(.object([]), line: node.value.line, column: node.value.column)
      root.anchor = node.path
      var members: [JSON5Value.Member] = []
      if let size = bodyNode.member("size") {
        members.append(
          JSON5Value.Member(key: "size", value: anchored(size), line: size.value.line, column: size.value.column))
      }
      if let layers = bodyNode.member("layers") {
        members.append(
          JSON5Value.Member(
            key: "sublayers", value: anchored(layers), line: layers.value.line, column: layers.value.column))
      }
      root.kind = .object(members)
    }
    // The root takes the instance's id and the keys the instance overrides.
    guard case .object(var members) = root.kind else { return root }
    members.removeAll { $0.key == "id" }
    var idValue = idNode.value.with(kind: .string(id))
    idValue.anchor = idNode.path  // a duplicate id is the instance's
    members.insert(
      JSON5Value.Member(key: "id", value: idValue, line: idNode.value.line, column: idNode.value.column), at: 0)
    for m in node.value.objectMembers where Self.overridingKeys.contains(m.key) {
      var m = m
      if m.value.anchor == nil { m.value.anchor = node.child(m.key, m.value).path }
      members.append(m)
    }
    members = Template.lastOfEachKey(members)
    let rootNode = TemplateNode(value: root, path: root.anchor ?? base, file: node.file, context: node.context)
    try expandChildren(&members, of: rootNode, namespace: id + Self.separator, plays: &inner, qualifyID: false)
    root.kind = .object(members)

    let timeline = try Self.timeline(bodyNode.member("timeline"), plays: inner, path: base + ".timeline", in: bodyNode)
    instances[id] = ComponentInstance(
      id: id, component: name, parameterValues: scope.filter { k, _ in component.parameters.contains { $0.name == k } },
      timeline: timeline, definition: component, values: scope, writtenTimeline: definition.member("timeline"),
      innerPlays: inner)

    let timing = node.value.objectMembers.filter { Self.timeKeys.contains($0.key) }
    if timeline == nil || !autoplay, let first = timing.first {
      let why = timeline == nil ? "component '\(name)' has no timeline" : "'autoplay' is false"
      throw node.child(first.key, first.value).error(
        "'\(quoted: first.key)' places the instance's own play of its timeline, but \(escaped: why)"
          + (timeline == nil
            ? "" : "; place the play entries in the timeline instead ({ at: …, play: \"\(quoted: localID)\" })"))
    }
    if timeline != nil && autoplay {
      plays.append(Autoplay(id: localID, members: timing, node: node))
    }
    return root
  }

  /// `node`'s value, reporting errors at `node`'s path (what it has when moved elsewhere).
  private func anchored(_ node: TemplateNode) -> JSON5Value {
    var value = node.value
    if value.anchor == nil { value.anchor = node.path }
    return value
  }

  // MARK: - Timeline

  /// The entries of `timeline` (an array node, or nil) with the instances' own plays inserted:
  /// an instance placed with `after`/`with` an entry id right after the top-level entry that
  /// has (or contains) that id, or at the end when no written entry has it; every other one
  /// first, in layer order. Written entries keep their paths (`timeline[2]`), the plays report
  /// errors at their instance. Nil when there is neither a timeline nor a play.
  static func timeline(_ timeline: TemplateNode?, plays: [Autoplay], path: String, in parent: TemplateNode)
    throws(TemplateError) -> TemplateNode?
  {
    guard let timeline else {
      guard !plays.isEmpty else { return nil }
      let value = JSON5Value(.array(plays.map(entry)), line: parent.value.line, column: parent.value.column)
      return TemplateNode(value: value, path: path, file: parent.file, context: parent.context)
    }
    guard !plays.isEmpty else { return timeline }
    let written = try timeline.array()
    var front: [JSON5Value] = []
    var following: [Int: [JSON5Value]] = [:]
    var end: [JSON5Value] = []
    for play in plays {
      let reference = play.members.first { $0.key == "after" || $0.key == "with" }
      guard let reference, case .string(let id) = reference.value.kind else {
        front.append(entry(play))
        continue
      }
      if let i = written.firstIndex(where: { defines(id, $0.value) }) {
        following[i, default: []].append(entry(play))
      } else {
        end.append(entry(play))
      }
    }
    var items = front
    for (i, node) in written.enumerated() {
      var value = node.value
      if value.anchor == nil { value.anchor = node.path }
      items.append(value)
      items += following[i] ?? []
    }
    var value = timeline.value
    value.kind = .array(items + end)
    return timeline.with(value: value)
  }

  /// The entry `{ play: id, at/after/…: … }` an instance adds to the enclosing timeline.
  private static func entry(_ play: Autoplay) -> JSON5Value {
    let site = play.node.value
    var idValue = JSON5Value(.string(play.id), line: site.line, column: site.column)
    idValue.anchor = play.node.path + ".use"
    var value = JSON5Value(
      .object([JSON5Value.Member(key: "play", value: idValue, line: site.line, column: site.column)] + play.members),
      line: site.line, column: site.column)
    value.anchor = play.node.path
    return value
  }

  /// Whether the entry `value` or one inside it (groups, sequences) has the id `id`.
  private static func defines(_ id: String, _ value: JSON5Value) -> Bool {
    switch value.kind {
    case .object(let members):
      return members.contains { m in
        if m.key == "id", case .string(let s) = m.value.kind, s == id { return true }
        return (m.key == "group" || m.key == "sequence") && defines(id, m.value)
      }
    case .array(let items): return items.contains { defines(id, $0) }
    default: return false
    }
  }
}

extension Template {
  /// The `layers` and `timeline` of a template with every component instance expanded (see
  /// ``ComponentExpander``), and the instances by qualified id. Without a `components` section
  /// and `use:` layers both come back unchanged.
  static func expandComponents(
    _ components: [String: TemplateComponent], layers: TemplateNode?, timeline: TemplateNode?, in doc: TemplateNode,
    values: [String: JSON5Value], budget: ExpansionBudget
  ) throws(TemplateError) -> (layers: TemplateNode?, timeline: TemplateNode?, instances: [ComponentInstance]) {
    var expander = ComponentExpander(
      components: components, templateValues: values, budget: budget,
      instanceLimit: doc.context.limits.maximumComponentInstances, layerLimit: doc.context.limits.maximumLayers)
    return try expandComponents(layers: layers, timeline: timeline, in: doc, with: &expander)
  }

  /// ``expandComponents(_:layers:timeline:in:values:budget:)`` through `expander`, which keeps
  /// what the expansion spent of its caps (also when it throws).
  static func expandComponents(
    layers: TemplateNode?, timeline: TemplateNode?, in doc: TemplateNode, with expander: inout ComponentExpander
  ) throws(TemplateError) -> (layers: TemplateNode?, timeline: TemplateNode?, instances: [ComponentInstance]) {
    guard let layers else { return (nil, timeline, []) }
    var plays: [ComponentExpander.Autoplay] = []
    let expanded = layers.with(value: try expander.expandLayers(layers, namespace: "", plays: &plays))
    let merged = try ComponentExpander.timeline(timeline, plays: plays, path: "timeline", in: doc)
    return (expanded, merged, expander.order.compactMap { expander.instances[$0] })
  }
}

extension JSON5Value {
  /// The members of an object (none for other kinds).
  var objectMembers: [Member] {
    if case .object(let members) = kind { return members }
    return []
  }

  /// The same value (position, origin, anchor) with another content.
  func with(kind: Kind) -> JSON5Value {
    var out = self
    out.kind = kind
    return out
  }
}
