import FlickMotion
import FlickScene

/// How a template writes values of one animatable property, from its catalogue row: the value
/// type (angles also as `"90deg"`) and the row's range. Every place that writes a property —
/// a layer key, `set`, `animate` (`to`, `from`, keyframe values, `by`'s end), `release`, a drag's
/// points, an animator's values, a link's outputs — decodes through one, so a value out of range
/// is refused the same way wherever it is written. (A property outside the catalogue has no
/// range: any value of its type.)
struct PropertyValueDecoder<V> {
  /// Decodes the value type without the range: a change (`by`, `velocity`, a drag's offsets).
  let change: (TemplateNode) throws(TemplateError) -> V
  /// What is wrong with a written value, or nil.
  let problem: (V) -> String?

  /// A written value: decoded, then checked against the range.
  func value(_ node: TemplateNode) throws(TemplateError) -> V {
    let v = try change(node)
    try check(v, at: node)
    return v
  }

  /// Checks a value the template writes through `node`; `how` says how it was reached when it
  /// is not the node's own value (`the start value plus 'by'`).
  func check(_ v: V, at node: TemplateNode, how: String? = nil) throws(TemplateError) {
    guard let problem = problem(v) else { return }
    throw node.error(how.map { problem + " (" + $0 + ")" } ?? problem)
  }
}

extension PropertyValueDecoder where V == Double {
  /// A number, or an angle (radians, or degrees as `"90deg"`).
  static func number(_ d: LayerPropertyDescriptor?) -> Self {
    let angle = d?.isAngle ?? false
    return Self(
      change: { n throws(TemplateError) in angle ? try n.radians() : try n.double() },
      problem: { d?.rangeProblem($0) })
  }
}

extension PropertyValueDecoder where V == Point {
  static func point(_ d: LayerPropertyDescriptor?) -> Self {
    Self(change: { n throws(TemplateError) in try n.point() }, problem: { d?.rangeProblem($0) })
  }
}

extension PropertyValueDecoder where V == Size {
  static func size(_ d: LayerPropertyDescriptor?) -> Self {
    Self(change: { n throws(TemplateError) in try n.size() }, problem: { d?.rangeProblem($0) })
  }
}

extension PropertyValueDecoder where V == Rect {
  static func rect(_ d: LayerPropertyDescriptor?) -> Self {
    Self(change: { n throws(TemplateError) in try n.rect() }, problem: { d?.rangeProblem($0) })
  }
}

extension PropertyValueDecoder where V == Color {
  static func color(_ d: LayerPropertyDescriptor?) -> Self {
    Self(change: { n throws(TemplateError) in try n.color() }, problem: { d?.rangeProblem($0) })
  }
}

extension PropertyValueDecoder where V == ColorList {
  static func colors(_ d: LayerPropertyDescriptor?) -> Self {
    Self(
      change: { n throws(TemplateError) in ColorList(try TemplateLimits.gradientColors(n)) },
      problem: { d?.rangeProblem($0) })
  }
}

extension LayerPropertyDescriptor {
  /// Decodes the value `node` writes for this property and writes it into `layer` (a layer
  /// object's key).
  func write(_ node: TemplateNode, into layer: inout Layer) throws(TemplateError) {
    switch property {
    case .double(let p): p.write(&layer, try PropertyValueDecoder.number(self).value(node))
    case .point(let p): p.write(&layer, try PropertyValueDecoder.point(self).value(node))
    case .size(let p): p.write(&layer, try PropertyValueDecoder.size(self).value(node))
    case .rect(let p): p.write(&layer, try PropertyValueDecoder.rect(self).value(node))
    case .color(let p): p.write(&layer, try PropertyValueDecoder.color(self).value(node))
    case .colors(let p): p.write(&layer, try PropertyValueDecoder.colors(self).value(node))
    }
  }
}
