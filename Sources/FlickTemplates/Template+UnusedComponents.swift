import FlickMotion
import FlickScene

extension Template {
  /// The path the probe instance of an unused component stands at; it is taken out of the
  /// messages again, so an error points at the definition alone.
  private static let probePath = "(unused component)"

  /// Checks the components no layer uses (directly or through another component), so a mistake
  /// in a component not (yet) placed is not silent: each is expanded once as an instance with its
  /// parameters' defaults, and its layers and timeline are decoded as a placed instance's would be,
  /// into a scene that is then dropped. An error names the place in the definition and says the
  /// component is unused: `components.badge.layer.opacty: unknown key 'opacty'; … (in component
  /// 'badge', which no layer uses)`.
  ///
  /// A component with a parameter that has no default cannot be placed without a value, so it is
  /// checked where an instance gives one. All the probes together expand at most what one template
  /// may (``TemplateLimits/maximumExpandedBytes``, ``TemplateLimits/maximumLayers`` and
  /// ``TemplateLimits/maximumComponentInstances``), so checking adds at most one template's work.
  static func checkUnusedComponents(
    _ components: [String: TemplateComponent], used: Set<String>, in doc: TemplateNode,
    styles: [String: [JSON5Value.Member]],
    values: [String: JSON5Value], fontFiles: [String], canvas: Scene, horizon: Double?, colorSpace: ColorSpace
  ) throws(TemplateError) {
    let limits = doc.context.limits
    var budget = ExpansionBudget(limit: limits.maximumExpandedBytes)
    var layers = 0
    var instances = 0
    for name in components.keys.sorted() where !used.contains(name) {
      guard let component = components[name], component.parameters.allSatisfy({ $0.defaultValue != nil }) else {
        continue
      }
      let site = component.node.value
      let member = { (key: String) in
        JSON5Value.Member(
          key: key, value: JSON5Value(.string(name), line: site.line, column: site.column), line: site.line,
          column: site.column)
      }
      let instance = JSON5Value(.object([member("id"), member("use")]), line: site.line, column: site.column)
      let probe = TemplateNode(
        value: JSON5Value(.array([instance]), line: site.line, column: site.column), path: probePath, file: doc.file,
        context: doc.context)
      do throws(TemplateError) {
        var expander = ComponentExpander(
          components: components, templateValues: values, budget: budget,
          instanceLimit: limits.maximumComponentInstances, layerLimit: limits.maximumLayers, layersBefore: layers,
          instancesBefore: instances)
        var plays: [ComponentExpander.Autoplay] = []
        let expanded = probe.with(value: try expander.expandLayers(probe, namespace: "", plays: &plays))
        budget = expander.budget
        layers = expander.layerCount
        instances += expander.order.count
        let timeline = try ComponentExpander.timeline(nil, plays: plays, path: "timeline", in: doc)
        try refuseNULCharacters(in: expanded)
        var scene = canvas
        scene.layers = []
        var ids = Set<String>()
        let styled = expanded.with(value: try applyStyles(expanded, styles))
        scene.layers = try decodeLayers(styled, ids: &ids, fontFiles: fontFiles)
        let constraints = try applyConstraints(try styled.array(), to: &scene.layers)
        if let timeline {
          _ = try decodeTimeline(
            timeline, ids: ids, scene: &scene, horizon: horizon, colorSpace: colorSpace,
            instances: expander.order.compactMap { expander.instances[$0] }, constraints: constraints)
        }
      } catch {
        throw unused(error, component: name)
      }
    }
  }

  /// `error` from the probe of component `name`, pointed at the definition alone.
  private static func unused(_ error: TemplateError, component name: String) -> TemplateError {
    var error = error
    let prefix = probePath + "[0] (use \"\(name)\") → "
    if error.path.hasPrefix(prefix) {
      error.path = String(error.path.dropFirst(prefix.count))
    } else if error.path.hasPrefix(probePath) {
      error.path = "components.\(name)"
    }
    error.message += " (in component '\(quoted: name)', which no layer uses)"
    return error
  }

  /// The top-level layers of `styled` (styles applied), decoded, with the totals over the whole
  /// frame checked as they grow: the top-level layer that passes a cap is named.
  static func decodeLayers(_ styled: TemplateNode, ids: inout Set<String>, fontFiles: [String]) throws(TemplateError)
    -> [Layer]
  {
    var layers: [Layer] = []
    var copies = 0
    var segments = 0
    for var node in try styled.array() {
      node.context.fontFiles = fontFiles
      let layer = try decodeLayer(node, ids: &ids)
      copies = min(1 << 60, copies + layer.replicatedLayerCount)
      try checkReplicas(copies, at: node)
      segments = min(1 << 60, segments + drawnPathSegments(layer))
      try checkDrawnSegments(segments, at: node)
      layers.append(layer)
    }
    return layers
  }
}
