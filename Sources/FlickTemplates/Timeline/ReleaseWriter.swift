import FlickMotion
import FlickScene

/// Writes a `release` entry, `{ target, release: { property, to, spring | decay | curve } }`:
/// the property leaves the finger with the velocity it has at this moment, into a spring toward
/// `to` (default Pop's spring) or, without `to`, a decay (a ``PropertyAnimation`` with that
/// default motion).
struct ReleaseWriter {
  /// The entry's target.
  let schedule: TimelineSchedule
  /// The template's default space for colour animations.
  let colorSpace: ColorSpace

  /// Writes the entry `o` (at `node`) beginning at `begin` seconds; returns its span.
  func write(_ o: [String: TemplateNode], _ node: TemplateNode, begin: Double, into output: inout TimelineOutput)
    throws(TemplateError) -> TimelineSchedule.Span
  {
    guard let releaseNode = o["release"] else { return .init(begin: begin, end: begin) }
    let r = try releaseNode.object(
      allowed: ["property", "to", "by"] + TemplateMotion.keys + TimelineCompiler.timingKeys)
    let target = try schedule.targets(o, node)[0]
    let name = try r["property"]?.string() ?? "position"
    let property = try AnyLayerProperty.timeline(
      named: name, r["property"] ?? releaseNode, layer: output.layer(target.id), layerID: target.id)
    guard case .object(let members) = releaseNode.value.kind else { return .init(begin: begin, end: begin) }
    let spec = releaseNode.with(
      value: JSON5Value(
        .object(members.filter { $0.key != "property" }), line: releaseNode.value.line,
        column: releaseNode.value.column))
    let hasTarget = r["to"] != nil || r["by"] != nil
    let fallback =
      hasTarget
      ? AnimationSpec(
        kind: .spring(.popDefault, velocity: 0, normalizedVelocity: nil, restThreshold: nil), source: "spring")
      : AnimationSpec(kind: .decay(velocity: 0, deceleration: 0.998, threshold: 1, bounds: nil), source: "decay")
    // An object without any spec key would be read as a plain value: make sure it is a spec.
    let specNode =
      members.contains { PropertyAnimation.propertySpecKeys.contains($0.key) }
      ? spec : spec.with(value: JSON5Value(.object([]), line: spec.value.line, column: spec.value.column))
    let group = schedule.groupTiming
    if !hasTarget, !TemplateMotion.keys.contains(where: { r[$0] != nil }), let motion = group.motion,
      case .spec(let groupSpec, _) = motion, groupSpec.kind.needsTarget
    {
      throw releaseNode.error(
        "the group's '\(quoted: group.motionKey ?? "curve")' (\(quoted: motion.noun)) needs an end value, and this "
          + "release has none: give it a 'to' (or its own 'decay')")
    }
    let job = PropertyAnimation(
      node: specNode, defaults: MotionDefaults(group: group), begin: begin,
      defaultMotion: .spec(fallback, node: releaseNode),
      templateColorSpace: colorSpace)
    let end = try property.write(job, layerID: target.id, into: &output)
    return .init(begin: begin, end: end)
  }
}
