import FlickMotion
import FlickScene

/// A scripted finger: which property it moves, along which points, for how long.
struct DragRequest {
  var node: TemplateNode
  /// Absolute points (`path`) or offsets from the start value (`by`).
  var points: TemplateNode
  var relative: Bool
  var duration: Double
  var timing: TimingFunction
  var begin: Double
}

extension TimelineCompiler {
  /// `{ target, drag: { property: "position", path: [[x, y], …] or by: […], duration, curve } }`:
  /// the property follows a smooth path through the points, like a finger, for `duration` seconds.
  mutating func drag(_ o: [String: TemplateNode], _ node: TemplateNode, begin: Double) throws(TemplateError) -> Span {
    guard let dragNode = o["drag"] else { return Span(begin: begin, end: begin) }
    let d = try dragNode.object(allowed: ["property", "path", "by", "duration", "curve"])
    let target = try targets(o, node)[0]
    let propertyNode = d["property"]
    let name = try propertyNode?.string() ?? "position"
    let property = try Self.property(named: name, propertyNode ?? dragNode, layer: layer(target.id), layerID: target.id)
    guard let durationNode = d["duration"] else { throw dragNode.error("a drag needs a 'duration' in seconds") }
    let duration = try durationNode.double(in: 0.001...3600)
    let points: TemplateNode
    let relative: Bool
    switch (d["path"], d["by"]) {
    case (let p?, nil): (points, relative) = (p, false)
    case (nil, let b?): (points, relative) = (b, true)
    case (_?, let b?): throw b.error("give 'path' (absolute points) or 'by' (offsets from the start), not both")
    case (nil, nil): throw dragNode.error("a drag needs a 'path' of points (or 'by', offsets from where the finger lands)")
    }
    let timing = try d["curve"].map { n throws(TemplateError) in try TemplateMotion.timingFunction(n) } ?? .linear
    let request = DragRequest(
      node: dragNode, points: points, relative: relative, duration: duration, timing: timing, begin: begin)
    let end = try perform(property, layerID: target.id, .drag(request))
    return Span(begin: begin, end: end)
  }

  mutating func dragTyped<V: Animatable>(
    _ p: LayerProperty<V>, layerID: String, _ request: DragRequest, values decoder: PropertyValueDecoder<V>
  ) throws(TemplateError) -> Double {
    let start = output.currentValue(p, layerID: layerID, at: request.begin)
    var values: [V] = []
    for item in try request.points.array() {
      let v = request.relative ? start + (try decoder.change(item)) : try decoder.change(item)
      try decoder.check(v, at: item, how: request.relative ? "where this offset from the start value lands" : nil)
      values.append(v)
    }
    guard values.count >= 2 || (request.relative && values.count >= 1) else {
      throw request.points.error("a drag path needs at least 2 points (or 1 offset with 'by')")
    }
    if request.relative && values.first.map({ ($0 - start).magnitudeSquared > 0 }) ?? false {
      values.insert(start, at: 0)
    }
    let curve: DragCurve<V>
    do {
      curve = try DragCurve(points: values, duration: request.duration, timing: request.timing)
    } catch {
      throw request.points.error(error.message)
    }
    try output.add(p, layerID: layerID, curve: AnyAnimationCurve(curve), begin: request.begin, node: request.node)
    return request.begin + request.duration
  }

  /// `{ target, release: { property, to, spring | decay | curve } }`: the property leaves the
  /// finger with the velocity it has at this moment, into a spring toward `to` (default Pop's
  /// spring) or, without `to`, a decay.
  mutating func release(_ o: [String: TemplateNode], _ node: TemplateNode, begin: Double) throws(TemplateError) -> Span {
    guard let releaseNode = o["release"] else { return Span(begin: begin, end: begin) }
    let r = try releaseNode.object(allowed: ["property", "to", "by"] + TemplateMotion.keys + Self.timingKeys)
    let target = try targets(o, node)[0]
    let name = try r["property"]?.string() ?? "position"
    let property = try Self.property(named: name, r["property"] ?? releaseNode, layer: layer(target.id), layerID: target.id)
    guard case .object(let members) = releaseNode.value.kind else { return Span(begin: begin, end: begin) }
    let spec = releaseNode.with(value: JSON5Value(.object(members.filter { $0.key != "property" }), line: releaseNode.value.line, column: releaseNode.value.column))
    let hasTarget = r["to"] != nil || r["by"] != nil
    let fallback = hasTarget
      ? AnimationSpec(
        kind: .spring(.popDefault, velocity: 0, normalizedVelocity: nil, restThreshold: nil), source: "spring")
      : AnimationSpec(kind: .decay(velocity: 0, deceleration: 0.998, threshold: 1, bounds: nil), source: "decay")
    // An object without any spec key would be read as a plain value: make sure it is a spec.
    let specNode = members.contains { Self.propertySpecKeys.contains($0.key) }
      ? spec : spec.with(value: JSON5Value(.object([]), line: spec.value.line, column: spec.value.column))
    let end = try perform(
      property, layerID: target.id,
      .animate(specNode, defaults: MotionDefaults(), begin: begin, defaultMotion: .spec(fallback, node: releaseNode)))
    return Span(begin: begin, end: end)
  }
}
