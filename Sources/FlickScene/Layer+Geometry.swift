import FlickMotion
import Foundation

extension Layer {
  /// The anchor point in the layer's own (bounds) coordinates, in points.
  public var anchorInBounds: Point {
    Point(x: bounds.minX + anchorPoint.x * bounds.width, y: bounds.minY + anchorPoint.y * bounds.height)
  }

  /// The map from this layer's coordinates to its superlayer's: anchor point to `position`,
  /// then ``transform`` about it (scale, `rotationX`, `rotationY`, `rotation`, perspective,
  /// translation). Affine unless there is a 3D rotation.
  package var transformToSuperlayer: ProjectiveTransform {
    let t = transform
    let a = anchorInBounds
    let cx = position.x + t.translation.x
    let cy = position.y + t.translation.y
    let sx = t.scale.x
    let sy = t.scale.y
    // Columns of R = Rz · Ry · Rx applied to (x, y, 0), pre-multiplied by the scale.
    let (cX, sX) = (cos(t.rotationX), sin(t.rotationX))
    let (cY, sY) = (cos(t.rotationY), sin(t.rotationY))
    let (cZ, sZ) = (cos(t.rotation), sin(t.rotation))
    // Image of the unit x axis: Rx leaves it, Ry gives (cY, 0, -sY), Rz rotates in-plane.
    let ex = (cY, 0.0, -sY)
    // Image of the unit y axis: Rx gives (0, cX, sX), Ry gives (sY·sX, cX, cY·sX).
    let ey = (sY * sX, cX, cY * sX)
    func rz(_ v: (Double, Double, Double)) -> (Double, Double, Double) {
      (cZ * v.0 - sZ * v.1, sZ * v.0 + cZ * v.1, v.2)
    }
    let ux = rz(ex)
    let uy = rz(ey)
    let a00 = ux.0 * sx, a01 = uy.0 * sy
    let a10 = ux.1 * sx, a11 = uy.1 * sy
    let a20 = ux.2 * sx, a21 = uy.2 * sy
    let k = t.perspective > 0 && !t.isFlat ? 1 / t.perspective : 0
    // w = 1 - z/d; X·w = x + cx·w; Y·w = y + cy·w; with (x, y) measured from the anchor.
    let m = ProjectiveTransform(
      a00 - cx * a20 * k, a01 - cx * a21 * k, cx,
      a10 - cy * a20 * k, a11 - cy * a21 * k, cy,
      -a20 * k, -a21 * k, 1)
    return m.concatenating(ProjectiveTransform(1, 0, -a.x, 0, 1, -a.y, 0, 0, 1))
  }

  /// Whether a 3D rotation turns the layer's front away from the viewer.
  public var isFacingAway: Bool {
    let m = transformToSuperlayer
    let a = anchorInBounds
    let cross: Double
    if let p = m.apply(to: a), let px = m.apply(to: Point(x: a.x + 1, y: a.y)),
      let py = m.apply(to: Point(x: a.x, y: a.y + 1))
    {
      cross = (px.x - p.x) * (py.y - p.y) - (px.y - p.y) * (py.x - p.x)
    } else {
      // A point a unit beside the anchor is behind the eye (a perspective under a point): the
      // map's orientation at the anchor, where w is 1, is the sign of its determinant.
      cross =
        m.m11 * (m.m22 * m.m33 - m.m23 * m.m32) - m.m12 * (m.m21 * m.m33 - m.m23 * m.m31)
        + m.m13 * (m.m21 * m.m32 - m.m22 * m.m31)
    }
    let mirrored = (transform.scale.x < 0) != (transform.scale.y < 0)
    return mirrored ? cross > 0 : cross < 0
  }
}
