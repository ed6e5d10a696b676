import FlickMotion
import FlickScene

/// Hit-testing of a render tree: which layer is drawn topmost at a canvas point, through every
/// layer's transform (3D rotations and perspective included), `isHidden`, zero opacity and
/// `masksToBounds` clipping.
enum LayerHit {
  /// The ids from the top-level layer down to the topmost layer that draws at `point` (canvas
  /// points), or an empty list when no layer does.
  static func topmost(in layers: [Layer], at point: Point) -> [String] {
    for layer in drawingOrder(layers).reversed() {
      if let path = hit(layer, point, toCanvas: .identity) { return path }
    }
    return []
  }

  /// Siblings in drawing order (by `zPosition`, stable).
  private static func drawingOrder(_ layers: [Layer]) -> [Layer] {
    layers.enumerated().sorted { ($0.element.zPosition, $0.offset) < ($1.element.zPosition, $1.offset) }.map(\.element)
  }

  private static func hit(_ layer: Layer, _ point: Point, toCanvas parent: ProjectiveTransform) -> [String]? {
    guard !layer.isHidden, layer.opacity > 0 else { return nil }
    let transform = parent.concatenating(layer.transformToSuperlayer)
    guard let inverse = transform.inverted, let local = inverse.apply(to: point) else { return nil }
    let inside = layer.bounds.contains(local)
    if !layer.masksToBounds || inside {
      for child in layer.sublayersInDrawingOrder.reversed() {
        if let path = hit(child, point, toCanvas: transform) { return [layer.id] + path }
      }
    }
    return inside && draws(layer) ? [layer.id] : nil
  }

  /// Whether the layer itself puts pixels in its bounds (a fill, a border, a picture, content).
  private static func draws(_ layer: Layer) -> Bool {
    layer.backgroundColor.alpha > 0 || (layer.borderWidth > 0 && layer.borderColor.alpha > 0) || layer.contents != nil
      || layer.content.kind != .none
  }
}

extension Rect {
  /// Whether `p` lies inside (edges included).
  fileprivate func contains(_ p: Point) -> Bool {
    p.x >= minX && p.x <= minX + width && p.y >= minY && p.y <= minY + height
  }
}
