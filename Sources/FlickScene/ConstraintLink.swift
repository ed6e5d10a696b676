import FlickMotion

/// How a sublayer's frame follows its superlayer's bounds along one axis (Auto Layout pins,
/// autoresizing): its leading edge and its length as affine functions of the superlayer's
/// origin and length along that axis, the length clamped at 0.
///
///     leading = originFactor · superOrigin + leadingFactor · superLength + leadingOffset
///     length  = max(0, lengthFactor · superLength + lengthOffset)
///
/// `left: 20, right: 20` is leading `origin + 20`, length `superLength − 40`; `centerX: 0,
/// width: 80` is leading `origin + superLength / 2 − 40`, length 80. A free axis (no keys) has
/// `originFactor` 0: its leading and length are constants.
package struct AxisLayout: Sendable, Equatable {
  package var originFactor: Double
  package var leadingFactor: Double
  package var leadingOffset: Double
  package var lengthFactor: Double
  package var lengthOffset: Double

  package init(
    originFactor: Double, leadingFactor: Double, leadingOffset: Double, lengthFactor: Double, lengthOffset: Double
  ) {
    self.originFactor = originFactor
    self.leadingFactor = leadingFactor
    self.leadingOffset = leadingOffset
    self.lengthFactor = lengthFactor
    self.lengthOffset = lengthOffset
  }

  /// The unclamped length for a superlayer `superLength` long (negative when the pins overlap).
  package func rawLength(_ superLength: Double) -> Double { lengthFactor * superLength + lengthOffset }

  /// Leading edge, length, and their rates, for the superlayer's origin and length and their rates.
  func frame(origin: Double, length: Double, originRate: Double, lengthRate: Double)
    -> (leading: Double, length: Double, leadingRate: Double, lengthRate: Double)
  {
    let raw = rawLength(length)
    return (
      originFactor * origin + leadingFactor * length + leadingOffset, max(0, raw),
      originFactor * originRate + leadingFactor * lengthRate, raw > 0 ? lengthFactor * lengthRate : 0
    )
  }
}

/// A sublayer's frame from its superlayer's bounds along both axes.
package struct ConstraintLayout: Sendable, Equatable {
  package var horizontal: AxisLayout
  package var vertical: AxisLayout

  package init(horizontal: AxisLayout, vertical: AxisLayout) {
    self.horizontal = horizontal
    self.vertical = vertical
  }

  /// The sublayer's size and position (where its `anchorPoint` sits) and their rates, for the
  /// superlayer's bounds `bounds` changing at `rate`.
  package func layout(in bounds: Rect, rate: Rect = .zero, anchorPoint a: Point)
    -> (size: Size, position: Point, sizeRate: Size, positionRate: Point)
  {
    let h = horizontal.frame(
      origin: bounds.origin.x, length: bounds.size.width, originRate: rate.origin.x, lengthRate: rate.size.width)
    let v = vertical.frame(
      origin: bounds.origin.y, length: bounds.size.height, originRate: rate.origin.y, lengthRate: rate.size.height)
    return (
      Size(width: h.length, height: v.length),
      Point(x: h.leading + a.x * h.length, y: v.leading + a.y * v.length),
      Size(width: h.lengthRate, height: v.lengthRate),
      Point(x: h.leadingRate + a.x * h.lengthRate, y: v.leadingRate + a.y * v.lengthRate)
    )
  }
}

/// A sublayer's `size` or `position` laid out by constraints from its superlayer's bounds at the
/// same instant: value and velocity from the superlayer's `bounds` track (the velocity is the
/// layout's linear part applied to the bounds' velocity), analytic like any link, so `flick
/// trace` and the studio read it from the tracks and any frame renders alone.
package struct ConstraintLink<Value: Animatable>: TrackLink {
  package let property: LayerProperty<Value>
  package let layerID: String
  /// The superlayer whose bounds the frame follows.
  package let superlayerID: String
  package let layout: ConstraintLayout
  /// The sublayer's anchor point (as written).
  package let anchorPoint: Point
  package let begin: Double
  private let pick: @Sendable ((size: Size, position: Point, sizeRate: Size, positionRate: Point), Bool) -> Value

  fileprivate init(
    property: LayerProperty<Value>, layerID: String, superlayerID: String, layout: ConstraintLayout,
    anchorPoint: Point, begin: Double,
    pick: @escaping @Sendable ((size: Size, position: Point, sizeRate: Size, positionRate: Point), Bool) -> Value
  ) {
    self.property = property
    self.layerID = layerID
    self.superlayerID = superlayerID
    self.layout = layout
    self.anchorPoint = anchorPoint
    self.begin = begin
    self.pick = pick
  }

  package var sourceRead: (layerID: String, name: String)? { (superlayerID, LayerProperty<Rect>.bounds.name) }

  package func value(in tracks: PropertyTracks, at t: Double, limit: TrackLimit) -> Value {
    var reader = tracks  // a copy only for its evaluation counter; the segments are shared
    let bounds = reader.value(of: .bounds, layerID: superlayerID, at: t, limit: limit == .right ? .right : .left)
    return pick(layout.layout(in: bounds, anchorPoint: anchorPoint), false)
  }

  package func velocity(in tracks: PropertyTracks, at t: Double, limit: TrackLimit) -> Value {
    let s = tracks.state(of: .bounds, layerID: superlayerID, at: t, limit: limit == .right ? .right : .left)
    return pick(layout.layout(in: s.value, rate: s.velocity, anchorPoint: anchorPoint), true)
  }

  package func settleTime(in tracks: PropertyTracks) -> Double {
    max(begin, tracks.settleTime(of: LayerProperty<Rect>.bounds.name, layerID: superlayerID))
  }
}

extension ConstraintLink where Value == Size {
  /// The link writing the sublayer `layerID`'s `size`.
  package init(sizeOf layerID: String, in superlayerID: String, layout: ConstraintLayout, anchorPoint: Point) {
    self.init(
      property: .size, layerID: layerID, superlayerID: superlayerID, layout: layout, anchorPoint: anchorPoint,
      begin: 0, pick: { f, rate in rate ? f.sizeRate : f.size })
  }
}

extension ConstraintLink where Value == Point {
  /// The link writing the sublayer `layerID`'s `position`.
  package init(positionOf layerID: String, in superlayerID: String, layout: ConstraintLayout, anchorPoint: Point) {
    self.init(
      property: .position, layerID: layerID, superlayerID: superlayerID, layout: layout, anchorPoint: anchorPoint,
      begin: 0, pick: { f, rate in rate ? f.positionRate : f.position })
  }
}
