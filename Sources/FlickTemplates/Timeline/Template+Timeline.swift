import FlickMotion
import FlickScene

extension Template {
  /// Compiles the `timeline` section into `scene`'s animations (see ``TimelineCompiler``) and
  /// returns the property tracks they form, the crossings `when` entries waited for and the entries
  /// with an id (``TimelineMarker``).
  /// - Parameter horizon: The scene's length when it is fixed (nil for `"auto"`).
  /// - Parameter colorSpace: The template's default space for colour animations.
  /// - Parameter instances: The component instances, whose timelines `play` entries play.
  /// - Parameter constraints: The sublayers laid out by `constraints`: their size and position
  ///   follow their superlayers' bounds tracks (links added before the entries).
  static func decodeTimeline(
    _ node: TemplateNode, ids: Set<String>, scene: inout Scene, horizon: Double?, colorSpace: ColorSpace = .sRGB,
    instances: [ComponentInstance] = [], constraints: [LayerConstraint] = []
  ) throws(TemplateError) -> (tracks: PropertyTracks, crossings: [ResolvedCrossing], markers: [TimelineMarker]) {
    var compiler = TimelineCompiler(layers: scene.layers, layerIDs: ids, horizon: horizon, colorSpace: colorSpace)
    for instance in instances { compiler.schedule.instances[instance.id] = instance }
    compiler.schedule.canvas = scene.size
    compiler.schedule.replayBudget = ExpansionBudget(limit: node.context.limits.maximumExpandedBytes)
    compiler.output.crossingBudget = node.context.limits.maximumCrossingSamples
    compiler.output.animationLimit = node.context.limits.maximumAnimations
    try compiler.output.addConstraints(constraints)
    try compiler.compile(node)
    scene.animations += compiler.output.animations
    return (compiler.output.tracks, compiler.output.crossings, compiler.schedule.markers)
  }
}
