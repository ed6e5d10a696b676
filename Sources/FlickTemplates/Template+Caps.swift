import FlickMotion
import FlickScene

extension Template {
  /// Throws at `node` when `copies` layer copies drawn per frame by replicators pass
  /// ``FlickScene/LayerReplicator/maximumDrawnInstances``.
  static func checkReplicas(_ copies: Int, at node: TemplateNode) throws(TemplateError) {
    let cap = LayerReplicator.maximumDrawnInstances
    guard copies > cap else { return }
    let amount = copies >= 1 << 60 ? "more than 10¹⁸" : "\(copies)"
    throw node.error(
      "replicators draw \(quoted: amount) layer copies per frame here (each layer inside a replicator counts once per copy; "
        + "nested replicators and components multiply), more than the cap of \(cap); use fewer instances")
  }

  /// `path`, or an error at `node` when it has more than ``TemplateLimits/maximumPathSegments``.
  static func checkedPath(_ path: ShapePath, at node: TemplateNode) throws(TemplateError) -> ShapePath {
    let cap = TemplateLimits.maximumPathSegments
    guard path.elements.count > cap else { return path }
    throw node.error(
      "the path has \(path.elements.count) segments, more than the cap of \(cap) per path; simplify it")
  }

  /// Throws at `node` when `segments` path segments drawn per frame pass
  /// ``TemplateLimits/maximumDrawnPathSegments``.
  static func checkDrawnSegments(_ segments: Int, at node: TemplateNode) throws(TemplateError) {
    let cap = TemplateLimits.maximumDrawnPathSegments
    guard segments > cap else { return }
    throw node.error(
      "the template's paths have \(quoted: segments >= 1 << 60 ? "more than 10¹⁸" : "\(segments)") segments drawn per frame "
        + "(counting each replicator copy), more than the cap of \(cap); simplify the paths or use fewer copies")
  }

  /// The path segments `layer`'s subtree draws per frame: each shape path and shadow path once
  /// per replicator copy it sits in (`multiplier` copies of the layer itself). Saturates at 2⁶⁰.
  static func drawnPathSegments(_ layer: Layer, multiplier: Int = 1) -> Int {
    let top = 1 << 60
    guard multiplier > 0 else { return 0 }
    func times(_ a: Int, _ b: Int) -> Int {
      let (p, overflow) = a.multipliedReportingOverflow(by: b)
      return overflow ? top : min(p, top)
    }
    var own = layer.shadowPath?.elements.count ?? 0
    if case .shape(let shape) = layer.content { own += shape.path.elements.count }
    var total = times(own, multiplier)
    if let mask = layer.mask { total = min(top, total + drawnPathSegments(mask, multiplier: multiplier)) }
    let inner = layer.replicator.isNone ? multiplier : times(multiplier, layer.replicator.clampedInstanceCount)
    for sublayer in layer.sublayers where total < top {
      total = min(top, total + drawnPathSegments(sublayer, multiplier: inner))
    }
    return total
  }
}
