import FlickMotion

// The catalogue: one row per animatable property (docs/layers.md prints it, docs/design.md says
// which files adding one touches).

extension LayerPropertyDescriptor {
  /// Every animatable property, in a stable order (the order of docs/layers.md).
  package static let catalogue: [LayerPropertyDescriptor] = [
    .init(.point(.position), .points, key: "position", path: (\Layer.position, "position")),
    .init(.double(.positionX), .points, partOf: "position", path: (\Layer.position.x, "position.x")),
    .init(.double(.positionY), .points, partOf: "position", path: (\Layer.position.y, "position.y")),
    .init(.point(.anchorPoint), .unitCoordinates, key: "anchorPoint", path: (\Layer.anchorPoint, "anchorPoint")),
    .init(.rect(.bounds), .points, range: 0 ... .infinity, path: (\Layer.bounds, "bounds")),
    .init(
      .size(.size), .points, range: 0 ... .infinity, partOf: "bounds", key: "size",
      path: (\Layer.bounds.size, "bounds.size")),
    .init(.double(.zPosition), .order, key: "zPosition", path: (\Layer.zPosition, "zPosition")),
    .init(
      .double(.rotation), .radians, key: "transform.rotation",
      path: (\Layer.transform.rotation, "transform.rotation")),
    .init(
      .double(.rotationX), .radians, key: "transform.rotationX",
      path: (\Layer.transform.rotationX, "transform.rotationX")),
    .init(
      .double(.rotationY), .radians, key: "transform.rotationY",
      path: (\Layer.transform.rotationY, "transform.rotationY")),
    .init(
      .double(.perspective), .points, range: 0...1_000_000, key: "transform.perspective",
      path: (\Layer.transform.perspective, "transform.perspective")),
    .init(.point(.scaleXY), .factor, key: "transform.scale", path: (\Layer.transform.scale, "transform.scale")),
    .init(.double(.scaleX), .factor, partOf: "scaleXY", path: (\Layer.transform.scale.x, "transform.scale.x")),
    .init(.double(.scaleY), .factor, partOf: "scaleXY", path: (\Layer.transform.scale.y, "transform.scale.y")),
    .init(
      .point(.translationXY), .points, key: "transform.translation",
      path: (\Layer.transform.translation, "transform.translation")),
    .init(
      .double(.translationX), .points, partOf: "translationXY",
      path: (\Layer.transform.translation.x, "transform.translation.x")),
    .init(
      .double(.translationY), .points, partOf: "translationXY",
      path: (\Layer.transform.translation.y, "transform.translation.y")),
    .init(.double(.opacity), .fraction, range: 0...1, key: "opacity", path: (\Layer.opacity, "opacity")),
    .init(.color(.backgroundColor), .color, key: "backgroundColor", path: (\Layer.backgroundColor, "backgroundColor")),
    .init(
      .double(.cornerRadius), .points, range: 0...100_000, key: "cornerRadius",
      path: (\Layer.cornerRadius, "cornerRadius")),
    .init(
      .double(.borderWidth), .points, range: 0...100_000, key: "borderWidth",
      path: (\Layer.borderWidth, "borderWidth")),
    .init(.color(.borderColor), .color, key: "borderColor", path: (\Layer.borderColor, "borderColor")),
    .init(.color(.shadowColor), .color, key: "shadowColor", path: (\Layer.shadowColor, "shadowColor")),
    .init(
      .double(.shadowOpacity), .fraction, range: 0...1, key: "shadowOpacity",
      path: (\Layer.shadowOpacity, "shadowOpacity")),
    .init(
      .double(.shadowRadius), .points, range: 0...1000, key: "shadowRadius",
      path: (\Layer.shadowRadius, "shadowRadius")),
    .init(.point(.shadowOffset), .points, key: "shadowOffset", path: (\Layer.shadowOffset, "shadowOffset")),
    .init(.double(.strokeStart), .fraction, range: 0...1, kind: .shape, key: "strokeStart"),
    .init(.double(.strokeEnd), .fraction, range: 0...1, kind: .shape, key: "strokeEnd"),
    .init(.double(.lineWidth), .points, range: 0...100_000, kind: .shape, key: "lineWidth"),
    .init(.double(.lineDashPhase), .points, kind: .shape, key: "lineDashPhase"),
    .init(.color(.fillColor), .color, kind: .shape, key: "fillColor"),
    .init(.color(.strokeColor), .color, kind: .shape, key: "strokeColor"),
    .init(.double(.fontSize), .points, range: 0.5...2000, kind: .text, key: "fontSize"),
    .init(.double(.tracking), .points, range: -100...1000, kind: .text, key: "tracking"),
    .init(.color(.textColor), .color, kind: .text, key: "textColor"),
    .init(.double(.number), .number, kind: .text, key: "number"),
    .init(.double(.transitionProgress), .fraction, range: 0...1, kind: .text),
    .init(.colors(.colors), .color, kind: .gradient, key: "colors"),
    .init(.point(.startPoint), .unitCoordinates, kind: .gradient, key: "startPoint"),
    .init(.point(.endPoint), .unitCoordinates, kind: .gradient, key: "endPoint"),
    .init(.double(.lottieFrame), .frames, range: 0 ... .infinity, kind: .lottie, key: "frame"),
    .init(.double(.lottieProgress), .fraction, range: 0...1, kind: .lottie, key: "progress"),
  ]
}

// MARK: - Geometry

extension LayerProperty where Value == Point {
  /// `position`: the anchor point's location in the superlayer, in points.
  public static let position = LayerProperty(
    name: "position", threshold: Threshold.points, read: { $0.position }, write: { $0.position = $1 })
  /// `anchorPoint`, in unit coordinates of the bounds.
  public static let anchorPoint = LayerProperty(
    name: "anchorPoint", threshold: 0.005, read: { $0.anchorPoint }, write: { $0.anchorPoint = $1 })
  /// `scaleXY`: the transform's scale factors (Pop's `kPOPLayerScaleXY`).
  public static let scaleXY = LayerProperty(
    name: "scaleXY", threshold: Threshold.scale, read: { $0.transform.scale },
    write: { $0.transform.scale = $1 })
  /// `translationXY`: the transform's translation, in points (Pop's `kPOPLayerTranslationXY`).
  public static let translationXY = LayerProperty(
    name: "translationXY", threshold: Threshold.points, read: { $0.transform.translation },
    write: { $0.transform.translation = $1 })
  /// `shadowOffset`, in points.
  public static let shadowOffset = LayerProperty(
    name: "shadowOffset", threshold: Threshold.points, read: { $0.shadowOffset },
    write: { $0.shadowOffset = $1 })
  /// `startPoint` of a gradient layer, unit coordinates.
  public static let startPoint = LayerProperty(
    name: "startPoint", threshold: 0.002, read: { $0.gradient?.startPoint ?? .zero },
    write: { l, v in l.withGradient { $0.startPoint = v } })
  /// `endPoint` of a gradient layer, unit coordinates.
  public static let endPoint = LayerProperty(
    name: "endPoint", threshold: 0.002, read: { $0.gradient?.endPoint ?? .zero },
    write: { l, v in l.withGradient { $0.endPoint = v } })
}

extension LayerProperty where Value == Size {
  /// `size`: the bounds' size, in points (Pop's `kPOPLayerSize`).
  public static let size = LayerProperty(
    name: "size", threshold: Threshold.points, read: { $0.bounds.size }, write: { $0.bounds.size = $1 })
}

extension LayerProperty where Value == Rect {
  /// `bounds`, in points.
  public static let bounds = LayerProperty(
    name: "bounds", threshold: Threshold.points, read: { $0.bounds }, write: { $0.bounds = $1 })
}

extension LayerProperty where Value == Double {
  /// `positionX`, in points.
  public static let positionX = LayerProperty(
    name: "positionX", threshold: Threshold.points, read: { $0.position.x }, write: { $0.position.x = $1 })
  /// `positionY`, in points.
  public static let positionY = LayerProperty(
    name: "positionY", threshold: Threshold.points, read: { $0.position.y }, write: { $0.position.y = $1 })
  /// `zPosition`: sibling drawing order.
  public static let zPosition = LayerProperty(
    name: "zPosition", threshold: 0.5, read: { $0.zPosition }, write: { $0.zPosition = $1 })
  /// `rotation` about z, in radians (Pop's `kPOPLayerRotation`).
  public static let rotation = LayerProperty(
    name: "rotation", threshold: Threshold.angle, read: { $0.transform.rotation },
    write: { $0.transform.rotation = $1 })
  /// `rotationX`, in radians.
  public static let rotationX = LayerProperty(
    name: "rotationX", threshold: Threshold.angle, read: { $0.transform.rotationX },
    write: { $0.transform.rotationX = $1 })
  /// `rotationY`, in radians.
  public static let rotationY = LayerProperty(
    name: "rotationY", threshold: Threshold.angle, read: { $0.transform.rotationY },
    write: { $0.transform.rotationY = $1 })
  /// `scaleX`.
  public static let scaleX = LayerProperty(
    name: "scaleX", threshold: Threshold.scale, read: { $0.transform.scale.x },
    write: { $0.transform.scale.x = $1 })
  /// `scaleY`.
  public static let scaleY = LayerProperty(
    name: "scaleY", threshold: Threshold.scale, read: { $0.transform.scale.y },
    write: { $0.transform.scale.y = $1 })
  /// `translationX`, in points.
  public static let translationX = LayerProperty(
    name: "translationX", threshold: Threshold.points, read: { $0.transform.translation.x },
    write: { $0.transform.translation.x = $1 })
  /// `translationY`, in points.
  public static let translationY = LayerProperty(
    name: "translationY", threshold: Threshold.points, read: { $0.transform.translation.y },
    write: { $0.transform.translation.y = $1 })
  /// `perspective`: viewer distance for 3D rotations, in points (0 = none).
  public static let perspective = LayerProperty(
    name: "perspective", threshold: 1, read: { $0.transform.perspective },
    write: { $0.transform.perspective = $1 })
  /// `opacity`, `0…1`.
  public static let opacity = LayerProperty(
    name: "opacity", threshold: Threshold.unit, read: { $0.opacity }, write: { $0.opacity = $1 })
  /// `cornerRadius`, in points.
  public static let cornerRadius = LayerProperty(
    name: "cornerRadius", threshold: 0.25, read: { $0.cornerRadius },
    write: { $0.cornerRadius = $1 })
  /// `borderWidth`, in points.
  public static let borderWidth = LayerProperty(
    name: "borderWidth", threshold: 0.25, read: { $0.borderWidth }, write: { $0.borderWidth = $1 })
  /// `shadowOpacity`, `0…1`.
  public static let shadowOpacity = LayerProperty(
    name: "shadowOpacity", threshold: Threshold.unit, read: { $0.shadowOpacity },
    write: { $0.shadowOpacity = $1 })
  /// `shadowRadius`, in points.
  public static let shadowRadius = LayerProperty(
    name: "shadowRadius", threshold: 0.25, read: { $0.shadowRadius }, write: { $0.shadowRadius = $1 })
  /// `strokeStart` of a shape layer, `0…1`.
  public static let strokeStart = LayerProperty(
    name: "strokeStart", threshold: Threshold.fraction, read: { $0.shape?.strokeStart ?? 0 },
    write: { l, v in l.withShape { $0.strokeStart = v } })
  /// `strokeEnd` of a shape layer, `0…1`.
  public static let strokeEnd = LayerProperty(
    name: "strokeEnd", threshold: Threshold.fraction, read: { $0.shape?.strokeEnd ?? 1 },
    write: { l, v in l.withShape { $0.strokeEnd = v } })
  /// `lineWidth` of a shape layer, in points.
  public static let lineWidth = LayerProperty(
    name: "lineWidth", threshold: 0.25, read: { $0.shape?.lineWidth ?? 0 },
    write: { l, v in l.withShape { $0.lineWidth = v } })
  /// `lineDashPhase` of a shape layer, in points.
  public static let lineDashPhase = LayerProperty(
    name: "lineDashPhase", threshold: Threshold.points, read: { $0.shape?.lineDashPhase ?? 0 },
    write: { l, v in l.withShape { $0.lineDashPhase = v } })
  /// `tracking` of a text layer: extra space after every character, in points.
  public static let tracking = LayerProperty(
    name: "tracking", threshold: 0.01, read: { $0.text?.tracking ?? 0 },
    write: { l, v in l.withText { $0.tracking = v } })

  /// `fontSize` of a text layer, in points.
  public static let fontSize = LayerProperty(
    name: "fontSize", threshold: 0.1, read: { $0.text?.fontSize ?? 0 },
    write: { l, v in l.withText { $0.fontSize = v } })
}

extension LayerProperty where Value == Color {
  /// `backgroundColor`.
  public static let backgroundColor = LayerProperty(
    name: "backgroundColor", threshold: Threshold.colorStep, read: { $0.backgroundColor },
    write: { $0.backgroundColor = $1 })
  /// `borderColor`.
  public static let borderColor = LayerProperty(
    name: "borderColor", threshold: Threshold.colorStep, read: { $0.borderColor },
    write: { $0.borderColor = $1 })
  /// `shadowColor`.
  public static let shadowColor = LayerProperty(
    name: "shadowColor", threshold: Threshold.colorStep, read: { $0.shadowColor },
    write: { $0.shadowColor = $1 })
  /// `fillColor` of a shape layer.
  public static let fillColor = LayerProperty(
    name: "fillColor", threshold: Threshold.colorStep, read: { $0.shape?.fillColor ?? .clear },
    write: { l, v in l.withShape { $0.fillColor = v } })
  /// `strokeColor` of a shape layer.
  public static let strokeColor = LayerProperty(
    name: "strokeColor", threshold: Threshold.colorStep, read: { $0.shape?.strokeColor ?? .clear },
    write: { l, v in l.withShape { $0.strokeColor = v } })
  /// `textColor` of a text layer (Core Animation's `foregroundColor`).
  public static let textColor = LayerProperty(
    name: "textColor", threshold: Threshold.colorStep, read: { $0.text?.textColor ?? .clear },
    write: { l, v in l.withText { $0.textColor = v } })
}

extension LayerProperty where Value == ColorList {
  /// `colors` of a gradient layer, stop by stop.
  public static let colors = LayerProperty(
    name: "colors", threshold: Threshold.colorStep, read: { $0.gradient?.colors ?? [] },
    write: { l, v in l.withGradient { $0.colors = v } })
}
