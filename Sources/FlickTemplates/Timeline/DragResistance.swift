import FlickMotion
import FlickScene

/// A drag's `resistance: { bounds: { x: [min, max], y: [min, max] }, coefficient: 0.55,
/// dimension: D }`: past a bound the property follows UIScrollView's rubber band
/// (``RubberBand``) instead of the finger, value and velocity (``ResistedDragCurve``), so a
/// release continues from where and how fast the content moves. Either axis is optional, as is
/// either end of one (`null`); `coefficient` defaults to 0.55 and `dimension` to the canvas size
/// along the axis. A point property (`position`, `translationXY`) uses both axes; a number
/// property one: `x` or `y` (`positionX`, `translationX` … take `x`, their `Y` twins `y`).
struct DragResistance {
  /// The keys of the `resistance` object.
  static let keys = ["bounds", "coefficient", "dimension"]
  /// `coefficient`, c.
  static let coefficientRange: ClosedRange<Double> = 0.001...1000
  /// `dimension`, D in points.
  static let dimensionRange: ClosedRange<Double> = 0.001...1_000_000

  /// Where it is written.
  var node: TemplateNode
  /// The x axis's band (nil: no bounds on x).
  var x: RubberBand?
  /// The y axis's band.
  var y: RubberBand?

  /// Reads `node` for a canvas of size `canvas`.
  init(_ node: TemplateNode, canvas: Size) throws(TemplateError) {
    self.node = node
    let o = try node.object(allowed: Self.keys)
    guard let boundsNode = o["bounds"] else {
      throw node.error("resistance needs 'bounds', e.g. bounds: { y: [0, 0] } (past them the drag is resisted)")
    }
    let b = try boundsNode.object(allowed: ["x", "y"])
    guard b["x"] != nil || b["y"] != nil else {
      throw boundsNode.error("give the bounds of 'x', 'y' or both, each as [min, max]")
    }
    let coefficient = try o["coefficient"]?.double(in: Self.coefficientRange) ?? 0.55
    let dimension = try o["dimension"]?.double(in: Self.dimensionRange)
    func band(_ axis: TemplateNode?, _ size: Double) throws(TemplateError) -> RubberBand? {
      guard let axis else { return nil }
      let ends = try axis.array()
      guard ends.count == 2 else { throw axis.expected("[min, max] (null for an open end)") }
      func end(_ n: TemplateNode, _ open: Double) throws(TemplateError) -> Double {
        if case .null = n.value.kind { return open }
        return try n.double()
      }
      let lower = try end(ends[0], -.infinity)
      let upper = try end(ends[1], .infinity)
      guard lower <= upper else {
        throw axis.error(
          "the bounds' min (\(TemplateNode.format(lower))) is above their max (\(TemplateNode.format(upper)))")
      }
      let d = dimension ?? size
      guard d > 0 else { throw (o["dimension"] ?? node).error("resistance needs a 'dimension' above 0") }
      return RubberBand(lower: lower, upper: upper, coefficient: coefficient, dimension: d)
    }
    x = try band(b["x"], canvas.width)
    y = try band(b["y"], canvas.height)
  }

  /// `drag` resisted, for the property `p` (a point or a number); an error for other values.
  func apply<V: Animatable>(_ drag: DragCurve<V>, to p: LayerProperty<V>) throws(TemplateError) -> AnyAnimationCurve<V>
  {
    if let point = drag as? DragCurve<Point>,
      let curve = AnyAnimationCurve(ResistedDragCurve(point, bands: [x ?? .free, y ?? .free])) as? AnyAnimationCurve<V>
    {
      return curve
    }
    if let number = drag as? DragCurve<Double> {
      let band = try axis(for: p.name)
      if let curve = AnyAnimationCurve(ResistedDragCurve(number, bands: [band])) as? AnyAnimationCurve<V> {
        return curve
      }
    }
    throw node.error(
      "resistance applies to a drag of a position (position, translationXY) or a number (positionX, "
        + "translationY, …); \(quoted: p.name) is neither")
  }

  /// The band of a number property: the one axis given, which must match the property's own
  /// (`…X` takes `x`, `…Y` takes `y`).
  private func axis(for name: String) throws(TemplateError) -> RubberBand {
    let own: String? = name.hasSuffix("X") ? "x" : name.hasSuffix("Y") ? "y" : nil
    switch (x, y) {
    case (let band?, nil) where own != "y": return band
    case (nil, let band?) where own != "x": return band
    case (_?, _?):
      let which = own == "x" ? "'x'" : own == "y" ? "'y'" : "'x' or 'y'"
      throw node.error("\(quoted: name) is a number: give the bounds of one axis (" + which + "), not both")
    default:
      let axis = own == "y" ? "y" : "x"
      throw node.error("\(quoted: name) moves along " + axis + ": give its bounds as '" + axis + "'")
    }
  }
}

extension RubberBand {
  /// No bounds: the finger's value.
  static let free = RubberBand(dimension: 1)
}
