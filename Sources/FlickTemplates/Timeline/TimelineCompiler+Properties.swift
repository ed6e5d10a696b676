import FlickMotion
import FlickScene

/// What to do with one property of one layer, once its value type is known.
enum PropertyJob {
  /// Animate it from an `animate` entry (or a `release`, whose default motion differs).
  case animate(TemplateNode, defaults: MotionDefaults, begin: Double, defaultMotion: TemplateMotion?)
  /// Set it at once.
  case set(TemplateNode, begin: Double)
  /// Move it along a path like a finger.
  case drag(DragRequest)
  /// Drive it from group `slot` of a property animator, added at animator time `added`.
  case animator(TemplateNode, script: AnimatorScript, slot: Int, added: Double, begin: Double)
  /// Make it a function of another property or of time, from a `link` entry.
  case link(LinkRequest)
}

extension TimelineCompiler {
  /// Runs `job` on `property` with its value type and its catalogue row's range (through a
  /// ``PropertyValueDecoder``): the one place that switches over the catalogue's value types.
  /// Returns the end time of what it compiled.
  mutating func perform(_ property: AnyLayerProperty, layerID: String, _ job: PropertyJob) throws(TemplateError)
    -> Double
  {
    let d = property.descriptor
    switch property {
    case .double(let p): return try perform(p, layerID: layerID, job, .number(d))
    case .point(let p): return try perform(p, layerID: layerID, job, .point(d))
    case .size(let p): return try perform(p, layerID: layerID, job, .size(d))
    case .rect(let p): return try perform(p, layerID: layerID, job, .rect(d))
    case .color(let p): return try perform(p, layerID: layerID, job, .color(d))
    case .colors(let p): return try perform(p, layerID: layerID, job, .colors(d))
    }
  }

  private mutating func perform<V: Animatable>(
    _ p: LayerProperty<V>, layerID: String, _ job: PropertyJob, _ values: PropertyValueDecoder<V>
  ) throws(TemplateError) -> Double {
    let decode = values.value
    switch job {
    case .animate(let node, let defaults, let begin, let defaultMotion):
      return try animateTyped(
        p, layerID: layerID, values: values, node, defaults: defaults, begin: begin, defaultMotion: defaultMotion)
    case .set(let node, let begin):
      try output.add(
        p, layerID: layerID, curve: AnyAnimationCurve(ConstantCurve(value: try decode(node))), begin: begin, node: node)
      return begin
    case .drag(let request):
      return try dragTyped(p, layerID: layerID, request, values: values)
    case .animator(let node, let script, let slot, let added, let begin):
      return try animatorTyped(
        p, layerID: layerID, node, script: script, slot: slot, added: added, begin: begin, decode: decode)
    case .link(let request):
      return try linkTyped(p, layerID: layerID, request, decode: decode)
    }
  }
}

extension TemplateNode {
  /// An angle: radians as a number, or degrees as `"90deg"`.
  func radians() throws(TemplateError) -> Double {
    if case .string(let s) = value.kind {
      let trimmed = s.trimmingCharacters(in: .whitespaces)
      guard trimmed.hasSuffix("deg"), let degrees = Double(trimmed.dropLast(3).trimmingCharacters(in: .whitespaces)),
        degrees.isFinite
      else { throw error("expected an angle in radians (a number) or degrees like \"90deg\", found \"\(quoted: s)\"") }
      return degrees * .pi / 180
    }
    return try double()
  }

  /// A rectangle: `[x, y, width, height]` or `{ x, y, width, height }`.
  func rect() throws(TemplateError) -> Rect {
    if case .object = value.kind {
      let o = try object(allowed: ["x", "y", "width", "height"])
      guard let x = o["x"], let y = o["y"], let w = o["width"], let h = o["height"] else {
        throw error("a rectangle needs 'x', 'y', 'width' and 'height'")
      }
      return Rect(x: try x.double(), y: try y.double(), width: try w.double(), height: try h.double())
    }
    let v = try numbers(count: 4)
    return Rect(x: v[0], y: v[1], width: v[2], height: v[3])
  }
}
