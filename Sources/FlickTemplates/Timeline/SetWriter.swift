import FlickMotion
import FlickScene

/// Writes a `set` entry, `{ target(s), set: { property: value }, stagger, transition }`: values
/// that change at once and hold (a text layer's `string` through ``StringWriter``; a change of
/// `string` or `number` with a `transition` plays through ``TextTransitionWriter``).
struct SetWriter {
  /// One property set to a value at `begin` and held (a ``ConstantCurve``).
  struct Job: PropertyJob {
    var node: TemplateNode
    var begin: Double

    func write<V: Animatable>(
      _ p: LayerProperty<V>, layerID: String, values: PropertyValueDecoder<V>, into output: inout TimelineOutput
    ) throws(TemplateError) -> Double {
      let curve = AnyAnimationCurve(ConstantCurve(value: try values.value(node)))
      try output.add(p, layerID: layerID, curve: curve, begin: begin, node: node)
      return begin
    }
  }

  /// The entry's targets.
  let schedule: TimelineSchedule

  /// Writes the entry `o` (at `node`) beginning at `begin` seconds; returns its span.
  func write(_ o: [String: TemplateNode], _ node: TemplateNode, begin: Double, into output: inout TimelineOutput)
    throws(TemplateError) -> TimelineSchedule.Span
  {
    guard let setNode = o["set"] else { return .init(begin: begin, end: begin) }
    guard case .object(let members) = setNode.value.kind, !members.isEmpty else {
      throw setNode.expected("an object of property values, like { opacity: 1 }")
    }
    let targets = try schedule.targets(o, node)
    let stagger = try TimelineSchedule.stagger(o, count: targets.count, begin: begin)
    let transition = o["transition"]
    if let transition, !members.contains(where: { $0.key == "string" || $0.key == "number" }) {
      throw transition.error("a 'transition' plays a change of 'string' or 'number', and this set changes neither")
    }
    var end = begin
    for (i, target) in targets.enumerated() {
      let at = begin + Double(i) * stagger
      let shown = transition.map { _ in TextTransitionWriter.shownText(target.id, at: at, in: &output) }
      for m in members {
        let valueNode = setNode.child(m.key, m.value)
        if m.key == "string" {
          end = max(end, try StringWriter(layerID: target.id).set(valueNode, begin: at, into: &output))
          continue
        }
        let property = try AnyLayerProperty.timeline(
          named: m.key, valueNode, key: m, layer: output.layer(target.id), layerID: target.id)
        end = max(end, try property.write(Job(node: valueNode, begin: at), layerID: target.id, into: &output))
      }
      if let transition, let shown {
        let writer = TextTransitionWriter(layerID: target.id)
        end = max(end, try writer.write(transition, from: shown, begin: at, into: &output))
      }
    }
    return .init(begin: begin, end: end)
  }
}
