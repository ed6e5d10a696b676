import FlickMotion
import FlickScene

extension Template {
  /// Compiles the `timeline` section into `scene`'s animations (see ``TimelineCompiler``).
  static func decodeTimeline(_ node: TemplateNode, ids: Set<String>, scene: inout Scene) throws(TemplateError) {
    var compiler = TimelineCompiler(scene: scene, layerIDs: ids)
    try compiler.compile(node)
    scene = compiler.scene
  }
}
