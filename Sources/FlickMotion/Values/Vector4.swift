/// Four `Double` components (SceneKit's `SCNVector4`, Pop's widest value; colours in a
/// ``ColorSpace``).
package struct Vector4: ComponentwiseAnimatable, Hashable, Codable, CustomStringConvertible {
  package var x: Double
  package var y: Double
  package var z: Double
  package var w: Double

  package init(x: Double, y: Double, z: Double, w: Double) {
    self.x = x
    self.y = y
    self.z = z
    self.w = w
  }

  package static let zero = Vector4(x: 0, y: 0, z: 0, w: 0)

  package static func + (a: Vector4, b: Vector4) -> Vector4 {
    Vector4(x: a.x + b.x, y: a.y + b.y, z: a.z + b.z, w: a.w + b.w)
  }
  package static func - (a: Vector4, b: Vector4) -> Vector4 {
    Vector4(x: a.x - b.x, y: a.y - b.y, z: a.z - b.z, w: a.w - b.w)
  }
  package func scaled(by f: Double) -> Vector4 { Vector4(x: x * f, y: y * f, z: z * f, w: w * f) }
  package var magnitudeSquared: Double { x * x + y * y + z * z + w * w }
  package func mapComponents(_ f: (Double) -> Double) -> Vector4 { Vector4(x: f(x), y: f(y), z: f(z), w: f(w)) }
  package static func combineComponents(
    _ a: Vector4, _ b: Vector4, _ c: Vector4, _ f: (Double, Double, Double) -> Double
  ) -> Vector4 { Vector4(x: f(a.x, b.x, c.x), y: f(a.y, b.y, c.y), z: f(a.z, b.z, c.z), w: f(a.w, b.w, c.w)) }

  package var description: String { "(\(x), \(y), \(z), \(w))" }
}
