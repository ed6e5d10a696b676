import FlickMotion
import FlickScene

extension LayerHit {
  /// The outline of layer `id`'s bounds in canvas points, through every transform above it (3D
  /// and perspective included), as the page outlines the selected layer: the four corners
  /// (top-left, top-right, bottom-right, bottom-left) when the whole layer is in front of the
  /// viewer's eye; when part of it reaches the eye, the part in front, clipped there as the
  /// renderer clips it (and to `canvas` grown by its own size on every side, so the points stay
  /// near the canvas), a convex polygon of three or more points. Nil when no layer has that id
  /// or none of it is in front.
  static func outline(of id: String, in layers: [Layer], canvas: Size) -> [Point]? {
    let window = Rect(x: -canvas.width, y: -canvas.height, width: 3 * canvas.width, height: 3 * canvas.height)
    for layer in layers {
      if let points = outline(of: id, layer, toCanvas: .identity, window: window) {
        return points.isEmpty ? nil : points
      }
    }
    return nil
  }

  /// The outline of layer `id` in `layer`'s subtree, empty when it was found but none of it is in
  /// front; nil when it is not there.
  private static func outline(of id: String, _ layer: Layer, toCanvas parent: ProjectiveTransform, window: Rect)
    -> [Point]?
  {
    let transform = parent.concatenating(layer.transformToSuperlayer)
    if layer.id == id {
      let corners = layer.bounds.cornerPolygon
      let images = corners.compactMap(transform.apply(to:))
      if images.count == 4 { return images }
      return transform.frontPart(of: corners, within: window).map(transform.frontImage(of:))
    }
    for child in layer.sublayers {
      if let points = outline(of: id, child, toCanvas: transform, window: window) { return points }
    }
    return nil
  }
}
