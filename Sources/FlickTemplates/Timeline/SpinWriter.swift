import FlickMotion
import FlickScene

/// Writes a `spin` entry, `{ at, target, spin: { property: "rotation", to: 3.49, duration: 1.2,
/// curve: "easeInEaseOut" } }`: the property's speed eases from the velocity it has at this
/// moment to `to` units/s (rad/s for an angle, or `"200deg"` for 200°/s) along `curve` over
/// `duration` seconds, then holds for ever (a ``SpinCurve``, built by FlickMotion's
/// ``CurveBuilder`` like every other motion). A later entry on the property (another spin, a
/// decay, a spring, a tween) takes over its value and speed. The entry's span ends when the speed
/// arrives.
struct SpinWriter {
  /// The keys of the `spin` object.
  static let keys = ["property", "to", "duration", "curve"]

  /// One spin of one number property.
  struct Job: PropertyJob {
    var node: TemplateNode
    var toNode: TemplateNode
    var duration: Double
    var timing: TimingFunction
    var begin: Double

    func write<V: Animatable>(
      _ p: LayerProperty<V>, layerID: String, values: PropertyValueDecoder<V>, into output: inout TimelineOutput
    ) throws(TemplateError) -> Double {
      guard let speed = try values.change(toNode) as? Double else {
        throw node.error(
          "a spin turns a number property (rotation, positionX, opacity, …) at a speed; "
            + "\(quoted: p.name) is not a number")
      }
      // A speed held for ever leaves any bounded range: refuse it rather than render clamped values.
      if speed != 0, let d = LayerPropertyDescriptor.named(p.name), let range = d.range,
        speed > 0 ? range.upperBound.isFinite : range.lowerBound.isFinite
      {
        throw toNode.error(
          "a spin holds its speed for ever, and \(quoted: p.name) stays within \(escaped: d.rangeText): spin it to 0, "
            + "or use a tween or spring to a value")
      }
      let handoff = Handoff(
        value: output.currentValue(p, layerID: layerID, at: begin),
        velocity: output.currentVelocity(p, layerID: layerID, at: begin), time: begin)
      let spec = AnimationSpec(kind: .spin(to: speed, curve: timing, duration: duration), source: "spin")
      let request = CurveRequest<V>(
        handoff: handoff, to: nil, velocity: nil, threshold: p.threshold, motion: .spec(spec, node: node),
        duration: nil, timing: nil, node: node, property: p.name)
      let curve = try request.curve(decode: values.value)
      try output.add(p, layerID: layerID, curve: curve, begin: begin, node: node)
      return begin + duration
    }
  }

  /// The entry's target and group timing.
  let schedule: TimelineSchedule

  /// Writes the entry `o` (at `node`) beginning at `begin` seconds; returns its span.
  func write(_ o: [String: TemplateNode], _ node: TemplateNode, begin: Double, into output: inout TimelineOutput)
    throws(TemplateError) -> TimelineSchedule.Span
  {
    guard let spinNode = o["spin"] else { return .init(begin: begin, end: begin) }
    let s = try spinNode.object(allowed: Self.keys)
    let target = try schedule.targets(o, node)[0]
    let propertyNode = s["property"]
    let written = try propertyNode?.string() ?? "rotation"
    // Key paths name the catalogue's properties: `transform.rotation`, and Core Animation's
    // `transform.rotation.z` (the z rotation is `rotation`).
    let alias = written.hasSuffix("rotation.z") ? String(written.dropLast(2)) : written
    let name = LayerPropertyDescriptor.resolving(alias)?.name ?? written
    let property = try AnyLayerProperty.timeline(
      named: name, propertyNode ?? spinNode, layer: output.layer(target.id), layerID: target.id)
    guard case .double = property else {
      throw (propertyNode ?? spinNode).error(
        "a spin turns a number property (rotation, positionX, opacity, …) at a speed; "
          + "\(quoted: written) is not a number")
    }
    guard let toNode = s["to"] else {
      throw spinNode.error("a spin needs 'to', the speed to reach in units/s (rad/s for rotation; 0 stops it)")
    }
    let group = schedule.groupTiming
    let duration =
      try s["duration"]?.double(in: TemplateNode.seconds) ?? group.duration ?? FlickMotion.MotionDefaults.tweenDuration
    var timing = TimingFunction.easeInEaseOut
    if let n = s["curve"] {
      timing = try TemplateMotion.timingFunction(n)
    } else if let inherited = try group.timingFunction(for: "a spin", at: spinNode) {
      timing = inherited
    }
    let job = Job(node: spinNode, toNode: toNode, duration: duration, timing: timing, begin: begin)
    let end = try property.write(job, layerID: target.id, into: &output)
    return .init(begin: begin, end: end)
  }
}
