import FlickMotion
import FlickScene

extension Template {
  /// What ``decodeContent(layers:timeline:in:expander:styles:fontFiles:scene:ids:horizon:colorSpace:observer:)``
  /// makes of the written layers and timeline besides the scene's layers and animations.
  struct DecodedContent {
    /// Every component instance, outer before inner, with qualified ids.
    var instances: [ComponentInstance] = []
    /// Where each layer was written, by id.
    var layerSites: [String: LayerSite] = [:]
    var tracks = PropertyTracks(layers: [])
    var crossings: [ResolvedCrossing] = []
    var markers: [TimelineMarker] = []
  }

  /// The steps that turn a template's written `layers` and `timeline` into the layers and
  /// animations of `scene`, in their one order: component instances expanded (through `expander`,
  /// which keeps what they spent of the caps), NUL characters refused, styles applied, layers
  /// decoded, constraints applied, `observer` told, Lottie clocks added and the timeline
  /// compiled. ``decode(_:file:defaultName:parameters:options:baseFolder:)`` runs them on the
  /// template, ``checkUnusedComponents(_:used:in:styles:values:fontFiles:canvas:horizon:colorSpace:)``
  /// on each probe instance of a component no layer uses.
  static func decodeContent(
    layers: TemplateNode?, timeline: TemplateNode?, in doc: TemplateNode, expander: inout ComponentExpander,
    styles: [String: [JSON5Value.Member]], fontFiles: [String], scene: inout Scene, ids: inout Set<String>,
    horizon: Double?, colorSpace: ColorSpace, observer: DecodeObserver? = nil
  ) throws(TemplateError) -> DecodedContent {
    let expanded = try expandComponents(layers: layers, timeline: timeline, in: doc, with: &expander)
    if let n = expanded.layers { try refuseNULCharacters(in: n) }
    if let n = expanded.timeline { try refuseNULCharacters(in: n) }
    var content = DecodedContent(instances: expanded.instances)
    var constraints: [LayerConstraint] = []
    if let layersNode = expanded.layers {
      let styled = layersNode.with(value: try applyStyles(layersNode, styles))
      scene.layers += try decodeLayers(styled, ids: &ids, fontFiles: fontFiles)
      content.layerSites = Self.layerSites(styled)
      constraints = try applyConstraints(try styled.array(), to: &scene.layers)
    }
    observer?.layersDecoded(scene)
    content.tracks = PropertyTracks(layers: scene.layers)
    scene.animations.insert(contentsOf: lottieClocks(scene.layers), at: 0)
    if let timeline = expanded.timeline {
      (content.tracks, content.crossings, content.markers) = try decodeTimeline(
        timeline, ids: ids, scene: &scene, horizon: horizon, colorSpace: colorSpace, instances: expanded.instances,
        constraints: constraints)
    }
    return content
  }
}
