import FlickMotion
import FlickScene

extension LayerHit {
  /// The corners of layer `id`'s bounds in canvas points (top-left, top-right, bottom-right,
  /// bottom-left), through every transform above it (3D and perspective included), as the page
  /// outlines the selected layer; nil when no layer has that id or a corner lies behind the eye.
  static func outline(of id: String, in layers: [Layer]) -> [Point]? {
    for layer in layers {
      if let corners = outline(of: id, layer, toCanvas: .identity) { return corners }
    }
    return nil
  }

  private static func outline(of id: String, _ layer: Layer, toCanvas parent: ProjectiveTransform) -> [Point]? {
    let transform = parent.concatenating(layer.transformToSuperlayer)
    if layer.id == id {
      let b = layer.bounds
      let corners = [
        Point(x: b.minX, y: b.minY), Point(x: b.minX + b.width, y: b.minY),
        Point(x: b.minX + b.width, y: b.minY + b.height), Point(x: b.minX, y: b.minY + b.height),
      ].compactMap { transform.apply(to: $0) }
      return corners.count == 4 ? corners : nil
    }
    for child in layer.sublayers {
      if let corners = outline(of: id, child, toCanvas: transform) { return corners }
    }
    return nil
  }
}
