import FlickMotion
import FlickScene

extension Template {
  /// Compiles the `timeline` section into `scene`'s animations (see ``TimelineCompiler``) and
  /// returns the property tracks they form.
  /// - Parameter horizon: The scene's length when it is fixed (nil for `"auto"`).
  static func decodeTimeline(_ node: TemplateNode, ids: Set<String>, scene: inout Scene, horizon: Double?)
    throws(TemplateError) -> PropertyTracks
  {
    var compiler = TimelineCompiler(layers: scene.layers, layerIDs: ids, horizon: horizon)
    try compiler.compile(node)
    scene.animations += compiler.animations
    return compiler.tracks
  }
}
