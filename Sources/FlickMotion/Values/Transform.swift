/// A decomposed 3-D transform: translation, scale, rotation, skew and perspective, animated
/// component by component — so a rotation from 0 to 2π turns a full circle, which interpolating
/// matrix entries (GPUAnimation) or refusing (Pop) cannot do.
///
/// Composition order, applied to a point (right to left): perspective · translate · rotate
/// (z, then y, then x) · skew · scale — the CSS/Core Animation decomposition order.
package struct Transform: ComponentwiseAnimatable, Hashable, Codable, CustomStringConvertible {
  /// Translation in points (z towards the viewer).
  package var translation: Vector3
  /// Scale factors (identity 1, 1, 1).
  package var scale: Vector3
  /// Rotation angles in radians about the x, y and z axes (z is the in-plane rotation).
  package var rotation: Vector3
  /// Skew angles in radians: `x` shears along x as y grows, `y` along y as x grows.
  package var skew: Point
  /// The perspective term `m34 = −1/eyeDistance` (0: no perspective; −1/500 is a common choice).
  package var perspective: Double

  package init(
    translation: Vector3 = .zero, scale: Vector3 = .one, rotation: Vector3 = .zero, skew: Point = .zero,
    perspective: Double = 0
  ) {
    self.translation = translation
    self.scale = scale
    self.rotation = rotation
    self.skew = skew
    self.perspective = perspective
  }

  /// No change: scale 1, everything else 0.
  package static let identity = Transform()
  /// The additive zero (scale 0 too): the neutral element for animation arithmetic, not a transform to draw.
  package static let zero = Transform(scale: .zero)

  package static func + (a: Transform, b: Transform) -> Transform {
    Transform(
      translation: a.translation + b.translation, scale: a.scale + b.scale, rotation: a.rotation + b.rotation,
      skew: a.skew + b.skew, perspective: a.perspective + b.perspective)
  }
  package static func - (a: Transform, b: Transform) -> Transform {
    Transform(
      translation: a.translation - b.translation, scale: a.scale - b.scale, rotation: a.rotation - b.rotation,
      skew: a.skew - b.skew, perspective: a.perspective - b.perspective)
  }
  package func scaled(by f: Double) -> Transform {
    Transform(
      translation: translation.scaled(by: f), scale: scale.scaled(by: f), rotation: rotation.scaled(by: f),
      skew: skew.scaled(by: f), perspective: perspective * f)
  }
  package var magnitudeSquared: Double {
    translation.magnitudeSquared + scale.magnitudeSquared + rotation.magnitudeSquared + skew.magnitudeSquared
      + perspective * perspective
  }
  package func mapComponents(_ f: (Double) -> Double) -> Transform {
    Transform(
      translation: translation.mapComponents(f), scale: scale.mapComponents(f), rotation: rotation.mapComponents(f),
      skew: skew.mapComponents(f), perspective: f(perspective))
  }
  package static func combineComponents(
    _ a: Transform, _ b: Transform, _ c: Transform, _ f: (Double, Double, Double) -> Double
  ) -> Transform {
    Transform(
      translation: .combineComponents(a.translation, b.translation, c.translation, f),
      scale: .combineComponents(a.scale, b.scale, c.scale, f),
      rotation: .combineComponents(a.rotation, b.rotation, c.rotation, f),
      skew: .combineComponents(a.skew, b.skew, c.skew, f),
      perspective: f(a.perspective, b.perspective, c.perspective))
  }

  package var description: String {
    "Transform(translation: \(translation), scale: \(scale), rotation: \(rotation), skew: \(skew), perspective: \(perspective))"
  }
}
