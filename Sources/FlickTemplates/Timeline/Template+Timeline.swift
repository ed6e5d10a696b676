import FlickMotion
import FlickScene

extension Template {
  /// Compiles the `timeline` section into `scene`'s animations (see ``TimelineCompiler``) and
  /// returns the property tracks they form.
  static func decodeTimeline(_ node: TemplateNode, ids: Set<String>, scene: inout Scene) throws(TemplateError)
    -> PropertyTracks
  {
    var compiler = TimelineCompiler(layers: scene.layers, layerIDs: ids)
    try compiler.compile(node)
    scene.animations += compiler.animations
    return compiler.tracks
  }
}
