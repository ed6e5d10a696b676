/// Four `Double` components (SceneKit's `SCNVector4`, Pop's widest value; colours in a
/// ``ColorSpace``).
public struct Vector4: ComponentwiseAnimatable, Hashable, Codable, CustomStringConvertible {
  public var x: Double
  public var y: Double
  public var z: Double
  public var w: Double

  public init(x: Double, y: Double, z: Double, w: Double) {
    self.x = x
    self.y = y
    self.z = z
    self.w = w
  }

  public static let zero = Vector4(x: 0, y: 0, z: 0, w: 0)

  public static func + (a: Vector4, b: Vector4) -> Vector4 {
    Vector4(x: a.x + b.x, y: a.y + b.y, z: a.z + b.z, w: a.w + b.w)
  }
  public static func - (a: Vector4, b: Vector4) -> Vector4 {
    Vector4(x: a.x - b.x, y: a.y - b.y, z: a.z - b.z, w: a.w - b.w)
  }
  public func scaled(by f: Double) -> Vector4 { Vector4(x: x * f, y: y * f, z: z * f, w: w * f) }
  public var magnitudeSquared: Double { x * x + y * y + z * z + w * w }
  public func mapComponents(_ f: (Double) -> Double) -> Vector4 { Vector4(x: f(x), y: f(y), z: f(z), w: f(w)) }
  public static func combineComponents(
    _ a: Vector4, _ b: Vector4, _ c: Vector4, _ f: (Double, Double, Double) -> Double
  ) -> Vector4 { Vector4(x: f(a.x, b.x, c.x), y: f(a.y, b.y, c.y), z: f(a.z, b.z, c.z), w: f(a.w, b.w, c.w)) }

  public var description: String { "(\(x), \(y), \(z), \(w))" }
}
