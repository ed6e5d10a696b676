import FlickMotion

/// A layer's transform as independent components, composed like Core Animation's
/// `transform.translation`, `transform.scale`, `transform.rotation.x/y/z` key paths and
/// `CATransform3D.m34` perspective.
///
/// Applied about the layer's anchor point in this order: scale, `rotationX`, `rotationY`,
/// `rotation` (about z), perspective divide, translation. A transform with no 3D rotation
/// is an affine map, drawn with no extra cost.
public struct LayerTransform: Sendable, Hashable {
  /// Offset added after every other component, in points (Pop's `translationXY`).
  public var translation: Point
  /// Scale factors along x and y (Pop's `scaleXY`); 1 = natural size, negative mirrors.
  public var scale: Point
  /// Rotation about the z axis, in radians; positive turns clockwise on screen (y down).
  public var rotation: Double
  /// Rotation about the layer's horizontal axis, in radians (a card tipping forwards/backwards).
  public var rotationX: Double
  /// Rotation about the layer's vertical axis, in radians (a card flip).
  public var rotationY: Double
  /// Viewer distance for the perspective divide, in points (`m34 = -1 / perspective`);
  /// `0` gives an orthographic projection, as Core Animation's default `m34 = 0`.
  public var perspective: Double

  public init(
    translation: Point = .zero, scale: Point = Point(x: 1, y: 1), rotation: Double = 0,
    rotationX: Double = 0, rotationY: Double = 0, perspective: Double = 0
  ) {
    self.translation = translation
    self.scale = scale
    self.rotation = rotation
    self.rotationX = rotationX
    self.rotationY = rotationY
    self.perspective = perspective
  }

  /// No transform.
  public static let identity = LayerTransform()

  /// Whether the layer stays in the screen's plane (no `rotationX`/`rotationY`): then the
  /// transform is affine and costs nothing extra to draw.
  public var isFlat: Bool { rotationX == 0 && rotationY == 0 }

  /// Whether the transform is the identity.
  public var isIdentity: Bool { self == .identity }
}
