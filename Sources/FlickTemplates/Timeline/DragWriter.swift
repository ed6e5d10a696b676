import FlickMotion
import FlickScene

/// Writes a `drag` entry, `{ target, drag: { property: "position", path: [[x, y], …] or by: […],
/// duration, curve } }`: the property follows a smooth path through the points, like a finger,
/// for `duration` seconds (a ``DragCurve``); with `resistance`, past its bounds the property
/// follows the rubber band instead (``DragResistance``).
struct DragWriter {
  /// A scripted finger on one property: along which points, for how long.
  struct Job: PropertyJob {
    var node: TemplateNode
    /// Absolute points (`path`) or offsets from the start value (`by`).
    var points: TemplateNode
    var relative: Bool
    var duration: Double
    var timing: TimingFunction
    var begin: Double
    /// The rubber band past the bounds, when the drag has `resistance`.
    var resistance: DragResistance?

    func write<V: Animatable>(
      _ p: LayerProperty<V>, layerID: String, values decoder: PropertyValueDecoder<V>,
      into output: inout TimelineOutput
    ) throws(TemplateError) -> Double {
      let start = output.currentValue(p, layerID: layerID, at: begin)
      var values: [V] = []
      for item in try points.array() {
        let v = relative ? start + (try decoder.change(item)) : try decoder.change(item)
        try decoder.check(v, at: item, how: relative ? "where this offset from the start value lands" : nil)
        values.append(v)
      }
      guard values.count >= 2 || (relative && values.count >= 1) else {
        throw points.error("a drag path needs at least 2 points (or 1 offset with 'by')")
      }
      if relative && values.first.map({ ($0 - start).norm > 0 }) ?? false {
        values.insert(start, at: 0)
      }
      let curve: DragCurve<V>
      do {
        curve = try DragCurve(points: values, duration: duration, timing: timing)
      } catch {
        throw points.error(error.message)
      }
      let resisted = try resistance.map { r throws(TemplateError) in try r.apply(curve, to: p) }
      try output.add(p, layerID: layerID, curve: resisted ?? AnyAnimationCurve(curve), begin: begin, node: node)
      return begin + duration
    }
  }

  /// The entry's target.
  let schedule: TimelineSchedule

  /// Writes the entry `o` (at `node`) beginning at `begin` seconds; returns its span.
  func write(_ o: [String: TemplateNode], _ node: TemplateNode, begin: Double, into output: inout TimelineOutput)
    throws(TemplateError) -> TimelineSchedule.Span
  {
    guard let dragNode = o["drag"] else { return .init(begin: begin, end: begin) }
    let d = try dragNode.object(allowed: ["property", "path", "by", "duration", "curve", "resistance"])
    let target = try schedule.targets(o, node)[0]
    let propertyNode = d["property"]
    let name = try propertyNode?.string() ?? "position"
    let property = try AnyLayerProperty.timeline(
      named: name, propertyNode ?? dragNode, layer: output.layer(target.id), layerID: target.id)
    let group = schedule.groupTiming
    let duration: Double
    if let durationNode = d["duration"] {
      duration = try durationNode.double(in: TemplateNode.positiveSeconds)
    } else if let inherited = group.duration, let n = group.durationNode {
      guard inherited >= 0.001 else {
        throw n.error("the group's 'duration' is too short for a drag (at least 0.001 s)")
      }
      duration = inherited
    } else {
      throw dragNode.error("a drag needs a 'duration' in seconds")
    }
    let points: TemplateNode
    let relative: Bool
    switch (d["path"], d["by"]) {
    case (let p?, nil): (points, relative) = (p, false)
    case (nil, let b?): (points, relative) = (b, true)
    case (_?, let b?): throw b.error("give 'path' (absolute points) or 'by' (offsets from the start), not both")
    case (nil, nil):
      throw dragNode.error("a drag needs a 'path' of points (or 'by', offsets from where the finger lands)")
    }
    var timing = TimingFunction.linear
    if let n = d["curve"] {
      timing = try TemplateMotion.timingFunction(n)
    } else if let inherited = try group.timingFunction(for: "a drag", at: dragNode) {
      timing = inherited
    }
    let resistance = try d["resistance"].map { n throws(TemplateError) in
      try DragResistance(n, canvas: schedule.canvas)
    }
    let job = Job(
      node: dragNode, points: points, relative: relative, duration: duration, timing: timing, begin: begin,
      resistance: resistance)
    let end = try property.write(job, layerID: target.id, into: &output)
    return .init(begin: begin, end: end)
  }
}
