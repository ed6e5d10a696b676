/// Three `Double` components (SceneKit's `SCNVector3`; translations, scales and rotations).
package struct Vector3: ComponentwiseAnimatable, Hashable, Codable, CustomStringConvertible {
  package var x: Double
  package var y: Double
  package var z: Double

  package init(x: Double, y: Double, z: Double) {
    self.x = x
    self.y = y
    self.z = z
  }

  package static let zero = Vector3(x: 0, y: 0, z: 0)
  /// (1, 1, 1): the identity scale.
  package static let one = Vector3(x: 1, y: 1, z: 1)

  package static func + (a: Vector3, b: Vector3) -> Vector3 { Vector3(x: a.x + b.x, y: a.y + b.y, z: a.z + b.z) }
  package static func - (a: Vector3, b: Vector3) -> Vector3 { Vector3(x: a.x - b.x, y: a.y - b.y, z: a.z - b.z) }
  package func scaled(by f: Double) -> Vector3 { Vector3(x: x * f, y: y * f, z: z * f) }
  package var magnitudeSquared: Double { x * x + y * y + z * z }
  package func mapComponents(_ f: (Double) -> Double) -> Vector3 { Vector3(x: f(x), y: f(y), z: f(z)) }
  package static func combineComponents(
    _ a: Vector3, _ b: Vector3, _ c: Vector3, _ f: (Double, Double, Double) -> Double
  ) -> Vector3 { Vector3(x: f(a.x, b.x, c.x), y: f(a.y, b.y, c.y), z: f(a.z, b.z, c.z)) }

  package var description: String { "(\(x), \(y), \(z))" }
}
