import FlickMotion
import FlickScene

/// Writes an `animate` entry, `{ target(s), animate: { property: value or { to, … } }, curve,
/// duration, stagger, … }`: one ``PropertyAnimation`` per property and target (a text layer's
/// `string` through ``StringWriter``).
struct AnimateWriter {
  /// The entry's targets.
  let schedule: TimelineSchedule
  /// The template's default space for colour animations.
  let colorSpace: ColorSpace

  /// Writes the entry `o` (at `node`) beginning at `begin` seconds; returns its span.
  func write(_ o: [String: TemplateNode], _ node: TemplateNode, begin: Double, into output: inout TimelineOutput)
    throws(TemplateError) -> TimelineSchedule.Span
  {
    let defaults = try MotionDefaults(o, group: schedule.groupTiming)
    guard let animateNode = o["animate"] else { return .init(begin: begin, end: begin) }
    guard case .object(let members) = animateNode.value.kind, !members.isEmpty else {
      throw animateNode.expected("an object of properties to animate, like { opacity: 0, position: [320, 180] }")
    }
    let targets = try schedule.targets(o, node)
    let stagger = try TimelineSchedule.stagger(o, count: targets.count, begin: begin)
    var end = begin
    for (i, target) in targets.enumerated() {
      let at = begin + Double(i) * stagger
      for m in members {
        let valueNode = animateNode.child(m.key, m.value)
        if m.key == "string" {
          let text = StringWriter(layerID: target.id)
          end = max(end, try text.animate(valueNode, defaults: defaults, begin: at, into: &output))
          continue
        }
        let property = try AnyLayerProperty.timeline(
          named: m.key, valueNode, key: m, layer: output.layer(target.id), layerID: target.id)
        let job = PropertyAnimation(
          node: valueNode, defaults: defaults, begin: at, templateColorSpace: colorSpace)
        end = max(end, try property.write(job, layerID: target.id, into: &output))
      }
    }
    return .init(begin: begin, end: end)
  }
}
