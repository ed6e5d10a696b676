import Foundation

extension Transform {
  /// The composed 4×4 matrix, row-major, for column vectors (`p′ = M·p`, `p = (x, y, z, 1)`):
  /// `M = P · T · Rz · Ry · Rx · K · S` with P the perspective (`m[3][2] = perspective`), T the
  /// translation, R the rotations, K the skew and S the scale.
  package var matrix: [Double] {
    func mul(_ a: [Double], _ b: [Double]) -> [Double] {
      var r = [Double](repeating: 0, count: 16)
      for i in 0..<4 {
        for j in 0..<4 {
          var s = 0.0
          for k in 0..<4 { s += a[i * 4 + k] * b[k * 4 + j] }
          r[i * 4 + j] = s
        }
      }
      return r
    }
    let (cx, sx) = (cos(rotation.x), sin(rotation.x))
    let (cy, sy) = (cos(rotation.y), sin(rotation.y))
    let (cz, sz) = (cos(rotation.z), sin(rotation.z))
    let p: [Double] = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, perspective, 1]
    let t: [Double] = [1, 0, 0, translation.x, 0, 1, 0, translation.y, 0, 0, 1, translation.z, 0, 0, 0, 1]
    let rz: [Double] = [cz, -sz, 0, 0, sz, cz, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]
    let ry: [Double] = [cy, 0, sy, 0, 0, 1, 0, 0, -sy, 0, cy, 0, 0, 0, 0, 1]
    let rx: [Double] = [1, 0, 0, 0, 0, cx, -sx, 0, 0, sx, cx, 0, 0, 0, 0, 1]
    let k: [Double] = [1, tan(skew.x), 0, 0, tan(skew.y), 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]
    let s: [Double] = [scale.x, 0, 0, 0, 0, scale.y, 0, 0, 0, 0, scale.z, 0, 0, 0, 0, 1]
    return mul(p, mul(t, mul(rz, mul(ry, mul(rx, mul(k, s))))))
  }

  /// Transforms a point (with the perspective divide).
  package func apply(to point: Vector3) -> Vector3 {
    let m = matrix
    let v = [point.x, point.y, point.z, 1]
    var r = [0.0, 0, 0, 0]
    for i in 0..<4 { for k in 0..<4 { r[i] += m[i * 4 + k] * v[k] } }
    let w = r[3] == 0 ? 1 : r[3]
    return Vector3(x: r[0] / w, y: r[1] / w, z: r[2] / w)
  }
}
