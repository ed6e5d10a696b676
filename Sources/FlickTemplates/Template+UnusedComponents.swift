import FlickMotion
import FlickScene

extension Template {
  /// The path the probe instance of an unused component stands at; it is taken out of the
  /// messages again, so an error points at the definition alone.
  private static let probePath = "(unused component)"

  /// Checks the components no layer uses (directly or through another component), so a mistake
  /// in a component not (yet) placed is not silent: each is expanded once as an instance with its
  /// parameters' defaults, and its layers and timeline are decoded as a placed instance's would be
  /// (``decodeContent(layers:timeline:in:expander:styles:fontFiles:scene:ids:horizon:colorSpace:observer:)``),
  /// into a scene that is then dropped. An error names the place in the definition and says the
  /// component is unused: `components.badge.layer.opacty: unknown key 'opacty'; … (in component
  /// 'badge', which no layer uses)`.
  ///
  /// A parameter without a default takes a placeholder of its declared type within its bounds
  /// (``TemplateParameter/placeholder(_:)``). An error the placeholders may have caused is not
  /// reported: one whose value came from such a parameter, or one that changes when the
  /// placeholders do (the probe runs again with the second set); one that stays the same whatever
  /// the parameters are is. All the probes together expand at most what one template may
  /// (``TemplateLimits/maximumExpandedBytes``, ``TemplateLimits/maximumLayers`` and
  /// ``TemplateLimits/maximumComponentInstances``), so checking adds at most one template's work.
  static func checkUnusedComponents(
    _ components: [String: TemplateComponent], used: Set<String>, in doc: TemplateNode,
    styles: [String: [JSON5Value.Member]],
    values: [String: JSON5Value], fontFiles: [String], canvas: Scene, horizon: Double?, colorSpace: ColorSpace
  ) throws(TemplateError) {
    let limits = doc.context.limits
    var spent = (budget: ExpansionBudget(limit: limits.maximumExpandedBytes), layers: 0, instances: 0)
    for name in components.keys.sorted() where !used.contains(name) {
      guard let component = components[name] else { continue }
      let required = component.parameters.filter { $0.defaultValue == nil }.map(\.name)
      /// The error of one probe with the placeholders of `variant` (nil: none).
      func probe(_ variant: Int) -> TemplateError? {
        var probed = components
        probed[name] = component.withPlaceholders(variant)
        let site = component.node.value
        let member = { (key: String) in
          JSON5Value.Member(
            key: key, value: JSON5Value(.string(name), line: site.line, column: site.column), line: site.line,
            column: site.column)
        }
        let instance = JSON5Value(.object([member("id"), member("use")]), line: site.line, column: site.column)
        let layers = TemplateNode(
          value: JSON5Value(.array([instance]), line: site.line, column: site.column), path: probePath,
          file: doc.file, context: doc.context)
        var expander = ComponentExpander(
          components: probed, templateValues: values, budget: spent.budget,
          instanceLimit: limits.maximumComponentInstances, layerLimit: limits.maximumLayers,
          layersBefore: spent.layers, instancesBefore: spent.instances)
        defer { spent = (expander.budget, expander.layerCount, spent.instances + expander.order.count) }
        var scene = canvas
        scene.layers = []
        var ids = Set<String>()
        do throws(TemplateError) {
          _ = try decodeContent(
            layers: layers, timeline: nil, in: doc, expander: &expander, styles: styles, fontFiles: fontFiles,
            scene: &scene, ids: &ids, horizon: horizon, colorSpace: colorSpace)
          return nil
        } catch {
          return error
        }
      }
      guard let error = probe(0) else { continue }
      if !required.isEmpty {
        let fromPlaceholder = required.contains {
          error.message.contains("(value from parameter '\($0)')")
            || error.message.contains("(key from parameter '\($0)')")
        }
        if fromPlaceholder || probe(1) != error { continue }
      }
      throw unused(error, component: name)
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
