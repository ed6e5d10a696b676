/// A reusable layer subtree with its own parameters and timeline: one member of a template's
/// top-level `components` section (an After Effects or Lottie precomp, a Figma component).
///
///     components: {
///       toggleRow: {
///         parameters: { label: { type: "string" }, on: { type: "integer", minimum: 0, maximum: 1, default: 0 } },
///         layer: { size: [400, 56], sublayers: [ { id: "knob", … } ] },
///         timeline: [ { target: "knob", animate: { positionX: "$(52 - 30 * on)" }, spring: { … } } ],
///       },
///     }
///
/// A layer `{ id: "wifi", use: "toggleRow", params: { label: "Wi-Fi" } }` is an instance: the
/// definition with the parameters substituted, its inner layer ids qualified as `wifi/knob`, its
/// timeline played for the instance (see ``ComponentExpander``).
struct TemplateComponent {
  /// The keys a definition accepts.
  static let keys = ["description", "parameters", "layer", "layers", "size", "timeline"]

  /// The name instances `use`.
  var name: String
  /// What it is, for `flick info`.
  var description: String
  /// Its own parameters (the template's are visible too; these shadow them).
  var parameters: [TemplateParameter]
  /// The definition (`components.name`) as written, before substitution.
  var node: TemplateNode
  /// About how many bytes one instance expands to (against ``TemplateLimits/maximumExpandedBytes``).
  var size: Int

  /// Decodes the `components` section (nil: none).
  static func decodeAll(_ node: TemplateNode?) throws(TemplateError) -> [String: TemplateComponent] {
    guard let node else { return [:] }
    guard case .object(let members) = node.value.kind else {
      throw node.expected("an object of component definitions, like { button: { layer: { … }, timeline: [ … ] } }")
    }
    var out: [String: TemplateComponent] = [:]
    for m in members {
      out[m.key] = try decode(name: m.key, node.child(m.key, m.value))
    }
    return out
  }

  private static func decode(name: String, _ node: TemplateNode) throws(TemplateError) -> TemplateComponent {
    guard TemplateParameter.isValidName(name) else {
      throw node.error(
        "invalid component name '\(quoted: name)': use letters, digits and '_', starting with a "
          + "letter or '_'")
    }
    let o = try node.object(allowed: keys)
    switch (o["layer"], o["layers"]) {
    case (nil, nil):
      throw node.error(
        "component '\(quoted: name)' needs a 'layer' (its root layer) or 'layers' (drawn in a "
          + "plain root layer)")
    case (let one?, _?):
      throw one.error("give 'layer' (one root layer) or 'layers' (several), not both")
    case (let layer?, nil):
      guard case .object = layer.value.kind else { throw layer.expected("a layer object (the component's root)") }
      if layer.value["use"] != nil {
        throw layer.error("a component's root layer cannot be an instance itself; put the instance in 'layers'")
      }
      if let size = o["size"] { throw size.error("'size' goes with 'layers'; with 'layer' give the root layer a size") }
    case (nil, let layers?):
      guard case .array = layers.value.kind else { throw layers.expected("an array of layers") }
    }
    if let timeline = o["timeline"] {
      guard case .array = timeline.value.kind else { throw timeline.expected("an array of timeline entries") }
    }
    return TemplateComponent(
      name: name, description: try o["description"]?.string() ?? "",
      parameters: try Template.decodeParameters(o["parameters"]), node: node,
      size: ExpansionBudget.size(of: node.value))
  }

  /// The definition's members that an instance substitutes and expands (all but `parameters`
  /// and `description`).
  var body: JSON5Value {
    var value = node.value
    if case .object(let members) = value.kind {
      value.kind = .object(members.filter { $0.key != "parameters" && $0.key != "description" })
    }
    return value
  }

  /// The values an instance's body is substituted with: the outer scope (the template's
  /// parameters), overlaid by this component's own parameters, given (`params`, checked) or
  /// defaulted. Inner names shadow outer ones.
  ///
  /// - Throws: ``TemplateError`` for an unknown name (with did-you-mean), an ill-typed value, or
  ///   a required parameter not given, located at the instance.
  ///
  /// With `keepingOuter` (a `play` entry's `params`), a parameter not given keeps its value in
  /// `outer` (the instance's) instead of taking its default.
  func scope(given: TemplateNode?, outer: [String: JSON5Value], instance: TemplateNode, keepingOuter: Bool = false)
    throws(TemplateError) -> [String: JSON5Value]
  {
    var values = outer
    var givenNodes: [String: TemplateNode] = [:]
    if let given {
      guard case .object(let members) = given.value.kind else {
        throw given.expected("an object of parameter values, like { label: \"Wi-Fi\" }")
      }
      let names = parameters.map(\.name)
      for m in members {
        let node = given.child(m.key, m.value)
        guard names.contains(m.key) else {
          var message = "component '\(quoted: name)' has no parameter '\(quoted: m.key)'"
          if let guess = TemplateNode.closest(to: m.key, in: names) { message += "; did you mean '\(escaped: guess)'?" }
          message += names.isEmpty ? " (it declares none)" : " (parameters: \(TemplateText.list(names)))"
          throw TemplateError(file: node.file, path: node.path, line: m.line, column: m.column, message: message)
        }
        givenNodes[m.key] = node
      }
    }
    for p in parameters {
      if let node = givenNodes[p.name] {
        do throws(TemplateError) {
          values[p.name] = try p.validate(node)
        } catch {
          var error = error
          error.message = "component '\(quoted: name)': " + error.message
          throw error
        }
      } else if keepingOuter, outer[p.name] != nil {
        continue
      } else if let value = p.defaultValue {
        values[p.name] = value
      } else {
        throw (given ?? instance).error(
          "component '\(quoted: name)' needs a value for parameter '\(quoted: p.name)' (\(quoted: p.typeDescription)): "
            + "add params: { \(quoted: p.name): … }")
      }
    }
    return values
  }
}

/// One component instance of the expanded layer tree: what the timeline plays (``TimelineCompiler``'s
/// `play` entries) and what `flick info` shows.
package struct ComponentInstance: Sendable {
  /// The instance's layer id, qualified by the instances it is in (`list/wifi`).
  package var id: String
  /// The component it instantiates.
  package var component: String
  /// The values of the component's own parameters for this instance, by name.
  package var parameterValues: [String: JSON5Value]
  /// The component's timeline for this instance (parameters substituted, with the plays of the
  /// instances inside it); nil when it has none.
  var timeline: TemplateNode?
  /// What a `play` entry with `params` substitutes again: the definition, the instance's
  /// values (the template's and the component's), the definition's own timeline as written and
  /// the plays of the instances inside it.
  var definition: TemplateComponent?
  var values: [String: JSON5Value] = [:]
  var writtenTimeline: TemplateNode?
  var innerPlays: [ComponentExpander.Autoplay] = []

  /// The prefix of the instance's inner layer and timeline entry ids (`wifi/`).
  var namespace: String { id + ComponentExpander.separator }
}
