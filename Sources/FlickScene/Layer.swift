import FlickMotion

/// A node of the scene tree, modelled on `CALayer`: geometry, appearance and sublayers.
///
/// Geometry follows Core Animation: `bounds.size` is the layer's extent, `position` is where its
/// `anchorPoint` (unit coordinates, `(0.5, 0.5)` = centre) sits in the superlayer's coordinates,
/// and ``transform`` scales, rotates (also in 3D, with perspective) and translates the layer
/// about that point. A layer draws, bottom to top: its shadow, `backgroundColor`, the
/// `contents` image, its ``content`` (shape, text or gradient), its sublayers ordered by
/// `zPosition`, and its border; `opacity` applies to all of that as one group.
/// A `Layer` is a value: copying it snapshots the whole subtree.
///
///     let card = Layer(
///       id: "card", bounds: Rect(x: 0, y: 0, width: 320, height: 200),
///       position: Point(x: 400, y: 300), backgroundColor: .white, cornerRadius: 24,
///       shadowOpacity: 0.25, shadowRadius: 16, shadowOffset: Point(x: 0, y: 8))
public struct Layer: Sendable, Hashable {
  /// Identifier used by animations and templates; unique within a scene.
  public var id: String
  /// The layer's own coordinate space, in points; the origin is usually zero.
  public var bounds: Rect
  /// The anchor point's location in the superlayer, in points.
  public var position: Point
  /// The point of `bounds` that sits at `position` and about which the layer rotates and scales,
  /// in unit coordinates (`0…1` across the bounds).
  public var anchorPoint: Point
  /// Opacity of the layer and its sublayers as one group, `0…1`.
  public var opacity: Double
  /// Fill of the bounds (drawn under any content); `.clear` draws nothing.
  public var backgroundColor: Color
  /// Radius of the rounded corners of the background, border and `masksToBounds` clip, in
  /// points (≥ 0, clamped to half the shorter side).
  public var cornerRadius: Double
  /// Which corners `cornerRadius` rounds.
  public var maskedCorners: CornerMask
  /// Orders siblings: higher draws above; equal values keep array order.
  public var zPosition: Double
  /// Scale, rotation (2D and 3D), perspective and translation about the anchor point.
  public var transform: LayerTransform
  /// Hidden layers and their sublayers draw nothing.
  public var isHidden: Bool
  /// Whether the back of the layer is drawn when a 3D rotation turns it away from the viewer.
  public var isDoubleSided: Bool
  /// Width of the border drawn inside the bounds, above the sublayers, in points (≥ 0).
  public var borderWidth: Double
  public var borderColor: Color
  /// Colour of the shadow (its alpha multiplies `shadowOpacity`).
  public var shadowColor: Color
  /// Opacity of the shadow, `0…1`; 0 (the default) draws none.
  public var shadowOpacity: Double
  /// Blur radius of the shadow, in points: the standard deviation of its Gaussian, as in
  /// Core Animation (a CSS `box-shadow` blur of twice this value looks the same).
  public var shadowRadius: Double
  /// Offset of the shadow, in points (Core Animation's default `(0, -3)`).
  public var shadowOffset: Point
  /// The outline casting the shadow, in the layer's coordinates; `nil` uses the layer's own
  /// shape (its rounded bounds when it has an opaque background and no content, else its
  /// rendered alpha).
  public var shadowPath: ShapePath?
  /// Whether the contents image, content and sublayers are clipped to the rounded bounds.
  /// Unlike Core Animation, the layer's own shadow is not clipped, so a clipped card keeps it.
  public var masksToBounds: Bool
  /// The image drawn inside the bounds, above the background.
  public var contents: LayerImage?
  /// How `contents` is fitted into the bounds.
  public var contentsGravity: ContentsGravity
  /// The layer's own drawing: none, a shape, text or a gradient.
  public var content: LayerContent
  /// Child layers, drawn after (above) this layer's own content, ordered by `zPosition`.
  public var sublayers: [Layer]
  /// `CAReplicatorLayer`'s properties: how many times the sublayers are drawn, and how each copy
  /// is transformed, delayed and tinted (``LayerReplicator/none``, the default, draws them once).
  /// ``Scene/renderTree(at:)`` expands the copies, so a ``RenderTree`` holds none.
  public var replicator: LayerReplicator
  /// Multiplies every colour the layer and its sublayers draw, component by component (alpha
  /// too), as one group; white (the default) changes nothing. A replicator's instance colours
  /// arrive here.
  public var colorMultiplier: Color
  /// A backdrop material (blur, saturation, tint of what is behind) filling the rounded bounds
  /// below the background; nil (the default) for none.
  public var backdrop: LayerBackdrop?
  private var maskStorage: [Layer]

  /// A layer whose alpha masks this one (Core Animation's `mask`), in this layer's coordinates.
  public var mask: Layer? {
    get { maskStorage.first }
    set { maskStorage = newValue.map { [$0] } ?? [] }
  }

  public init(
    id: String,
    bounds: Rect = .zero,
    position: Point = .zero,
    anchorPoint: Point = Point(x: 0.5, y: 0.5),
    opacity: Double = 1,
    backgroundColor: Color = .clear,
    cornerRadius: Double = 0,
    maskedCorners: CornerMask = .all,
    zPosition: Double = 0,
    transform: LayerTransform = .identity,
    isHidden: Bool = false,
    isDoubleSided: Bool = true,
    borderWidth: Double = 0,
    borderColor: Color = .black,
    shadowColor: Color = .black,
    shadowOpacity: Double = 0,
    shadowRadius: Double = 3,
    shadowOffset: Point = Point(x: 0, y: -3),
    shadowPath: ShapePath? = nil,
    masksToBounds: Bool = false,
    mask: Layer? = nil,
    contents: LayerImage? = nil,
    contentsGravity: ContentsGravity = .resize,
    content: LayerContent = .none,
    sublayers: [Layer] = [],
    replicator: LayerReplicator = .none,
    colorMultiplier: Color = .white,
    backdrop: LayerBackdrop? = nil
  ) {
    self.id = id
    self.bounds = bounds
    self.position = position
    self.anchorPoint = anchorPoint
    self.opacity = opacity
    self.backgroundColor = backgroundColor
    self.cornerRadius = cornerRadius
    self.maskedCorners = maskedCorners
    self.zPosition = zPosition
    self.transform = transform
    self.isHidden = isHidden
    self.isDoubleSided = isDoubleSided
    self.borderWidth = borderWidth
    self.borderColor = borderColor
    self.shadowColor = shadowColor
    self.shadowOpacity = shadowOpacity
    self.shadowRadius = shadowRadius
    self.shadowOffset = shadowOffset
    self.shadowPath = shadowPath
    self.masksToBounds = masksToBounds
    self.maskStorage = mask.map { [$0] } ?? []
    self.contents = contents
    self.contentsGravity = contentsGravity
    self.content = content
    self.sublayers = sublayers
    self.replicator = replicator
    self.colorMultiplier = colorMultiplier
    self.backdrop = backdrop
  }

  /// The layer's frame in its superlayer, ignoring transforms, in points.
  public var frame: Rect {
    Rect(
      x: position.x - anchorPoint.x * bounds.width,
      y: position.y - anchorPoint.y * bounds.height,
      width: bounds.width, height: bounds.height)
  }

  /// Applies `body` to the layer with `id` in this subtree; returns whether it was found.
  @discardableResult
  public mutating func withLayer(id target: String, _ body: (inout Layer) -> Void) -> Bool {
    if id == target {
      body(&self)
      return true
    }
    for i in sublayers.indices where sublayers[i].withLayer(id: target, body) {
      return true
    }
    if !maskStorage.isEmpty, maskStorage[0].withLayer(id: target, body) { return true }
    return false
  }

  /// Sublayers in drawing order: by `zPosition`, ties in array order.
  public var sublayersInDrawingOrder: [Layer] {
    guard sublayers.count > 1, sublayers.contains(where: { $0.zPosition != sublayers[0].zPosition }) else {
      return sublayers
    }
    return sublayers.enumerated().sorted {
      $0.element.zPosition != $1.element.zPosition
        ? $0.element.zPosition < $1.element.zPosition : $0.offset < $1.offset
    }.map(\.element)
  }
}
