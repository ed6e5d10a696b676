import FlickMotion
import FlickScene

/// Writes the single-property form of an entry, `{ target, property, to, from, by, velocity,
/// duration, curve, … }`: the entry itself is the property's animation object
/// (``PropertyAnimation``).
struct SinglePropertyWriter {
  /// The entry's target.
  let schedule: TimelineSchedule
  /// The template's default space for colour animations.
  let colorSpace: ColorSpace

  /// Writes the entry `o` (at `node`) beginning at `begin` seconds; returns its span.
  func write(_ o: [String: TemplateNode], _ node: TemplateNode, begin: Double, into output: inout TimelineOutput)
    throws(TemplateError) -> TimelineSchedule.Span
  {
    guard let propertyNode = o["property"] else { return .init(begin: begin, end: begin) }
    let target = try schedule.targets(o, node)[0]
    let name = try propertyNode.string()
    let property = try AnyLayerProperty.timeline(
      named: name, propertyNode, layer: output.layer(target.id), layerID: target.id)
    var members: [JSON5Value.Member] = []
    let keys =
      ["to", "from", "by", "velocity", "duration", "colorSpace"] + TemplateMotion.keys
      + TimelineCompiler.timingKeys
    for key in keys {
      if let n = o[key] {
        members.append(JSON5Value.Member(key: key, value: n.value, line: n.value.line, column: n.value.column))
      }
    }
    let spec = TemplateNode(
      value: JSON5Value(.object(members), line: node.value.line, column: node.value.column), path: node.path,
      file: node.file, context: node.context)
    let job = PropertyAnimation(
      node: spec, defaults: MotionDefaults(group: schedule.groupTiming), begin: begin, templateColorSpace: colorSpace)
    let end = try property.write(job, layerID: target.id, into: &output)
    return .init(begin: begin, end: end)
  }
}
