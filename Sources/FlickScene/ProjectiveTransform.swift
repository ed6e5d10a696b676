import FlickMotion

/// A plane-to-plane projective map (a homography) as a 3×3 matrix acting on column vectors
/// `(x, y, 1)`: `(X·w, Y·w, w) = M · (x, y, 1)`.
///
/// An affine map has `m31 = m32 = 0` and `m33 = 1`. Used to place a layer's plane on its
/// superlayer's, including the perspective of 3D rotations.
package struct ProjectiveTransform: Sendable, Hashable {
  /// First row: `X·w = m11·x + m12·y + m13`.
  package var m11, m12, m13: Double
  /// Second row: `Y·w = m21·x + m22·y + m23`.
  package var m21, m22, m23: Double
  /// Third row: `w = m31·x + m32·y + m33` (perspective; `0, 0, 1` when affine).
  package var m31, m32, m33: Double

  package init(
    _ m11: Double, _ m12: Double, _ m13: Double,
    _ m21: Double, _ m22: Double, _ m23: Double,
    _ m31: Double, _ m32: Double, _ m33: Double
  ) {
    (self.m11, self.m12, self.m13) = (m11, m12, m13)
    (self.m21, self.m22, self.m23) = (m21, m22, m23)
    (self.m31, self.m32, self.m33) = (m31, m32, m33)
  }

  package static let identity = ProjectiveTransform(1, 0, 0, 0, 1, 0, 0, 0, 1)

  /// Whether the map is affine (no perspective row).
  package var isAffine: Bool { m31 == 0 && m32 == 0 && m33 == 1 }

  /// The image of `p`, or nil when `p` maps to or behind the viewer (`w ≤ 0`).
  package func apply(to p: Point) -> Point? {
    let w = m31 * p.x + m32 * p.y + m33
    guard w > 1e-9 else { return nil }
    return Point(x: (m11 * p.x + m12 * p.y + m13) / w, y: (m21 * p.x + m22 * p.y + m23) / w)
  }

  /// The homogeneous `w` of `p` (> 0 in front of the viewer).
  package func w(at p: Point) -> Double { m31 * p.x + m32 * p.y + m33 }

  /// `self` applied after `other` (`self · other`).
  package func concatenating(_ o: ProjectiveTransform) -> ProjectiveTransform {
    ProjectiveTransform(
      m11 * o.m11 + m12 * o.m21 + m13 * o.m31, m11 * o.m12 + m12 * o.m22 + m13 * o.m32,
      m11 * o.m13 + m12 * o.m23 + m13 * o.m33,
      m21 * o.m11 + m22 * o.m21 + m23 * o.m31, m21 * o.m12 + m22 * o.m22 + m23 * o.m32,
      m21 * o.m13 + m22 * o.m23 + m23 * o.m33,
      m31 * o.m11 + m32 * o.m21 + m33 * o.m31, m31 * o.m12 + m32 * o.m22 + m33 * o.m32,
      m31 * o.m13 + m32 * o.m23 + m33 * o.m33)
  }

  /// The inverse map, or nil when the matrix is singular (a layer seen exactly edge-on).
  package var inverted: ProjectiveTransform? {
    let c11 = m22 * m33 - m23 * m32
    let c12 = m23 * m31 - m21 * m33
    let c13 = m21 * m32 - m22 * m31
    let det = m11 * c11 + m12 * c12 + m13 * c13
    guard abs(det) > 1e-12 else { return nil }
    let d = 1 / det
    return ProjectiveTransform(
      c11 * d, (m13 * m32 - m12 * m33) * d, (m12 * m23 - m13 * m22) * d,
      c12 * d, (m11 * m33 - m13 * m31) * d, (m13 * m21 - m11 * m23) * d,
      c13 * d, (m12 * m31 - m11 * m32) * d, (m11 * m22 - m12 * m21) * d)
  }
}
