import FlickMotion

/// One property's animation as a template writes it: the template keys around a motion spec
/// (`to`, `velocity`, `duration`, timing keys, `colorSpace`, keyframes of property values). The
/// curve itself comes from FlickMotion's ``CurveBuilder``, the builder Swift and `flick curve`
/// use, so the hand-over rules (which velocity a spring starts with, how a tween continues
/// one, which threshold applies) are the same everywhere.
struct CurveRequest<V: Animatable> {
  /// The property when the animation starts: its value (or the written `from`) and the velocity
  /// of what it interrupts (the left limit).
  var handoff: Handoff<V>
  /// The target; nil for a decay (which finds its own end).
  var to: V?
  /// A velocity written in the template (`velocity: [vx, vy]`), in units/s.
  var velocity: V?
  /// The property's visibility threshold (springs settle to it; decays stop below 5× it per s).
  var threshold: Double
  var motion: TemplateMotion?
  var duration: Double?
  var timing: MediaTiming?
  var node: TemplateNode
  var property: String
  /// The written `velocity` member of ``node``, or the node itself (for messages).
  private var velocityNode: TemplateNode {
    guard case .object(let members) = node.value.kind, let m = members.first(where: { $0.key == "velocity" }) else {
      return node
    }
    return node.child(m.key, m.value)
  }

  /// The space a colour animation travels through (`colorSpace`); sRGB leaves the curve as built.
  var colorSpace: ColorSpace = .sRGB

  var from: V { handoff.value }

  func curve(decode: (TemplateNode) throws(TemplateError) -> V) throws(TemplateError) -> AnyAnimationCurve<V> {
    let motion = self.motion ?? .spec(AnimationSpec(kind: .tween(.default, duration: 0.4)), node: node)
    var base: AnyAnimationCurve<V>
    var specTiming: MediaTiming?
    switch motion {
    case .keyframes(let valuesNode, let keyTimes, let curves, let mode, let kfDuration, let kfNode):
      // Keyframes of property values: written out in full, they carry no hand-over.
      var values: [V] = []
      for item in try valuesNode.array() { values.append(try decode(item)) }
      base = try make(kfNode) { () throws(MotionError) in
        AnyAnimationCurve(
          try KeyframeAnimation(
            values: values, keyTimes: keyTimes, timingFunctions: curves, calculationMode: mode,
            duration: duration ?? kfDuration ?? 0.4))
      }
    case .spec(let spec, let specNode):
      specTiming = spec.timing
      if spec.timing != nil && timing != nil {
        throw specNode.error("timing is given both in the curve spec and as keys; keep one")
      }
      try checkKeys(for: spec)
      let builder = CurveBuilder(
        spec: spec, from: handoff, to: to, velocity: velocity, threshold: threshold, duration: duration,
        timing: timing)
      base = try make(specNode) { () throws(MotionError) in try builder.untimedCurve() }
    }
    if colorSpace != .sRGB { base = try inColorSpace(base, motion: motion, decode: decode) }
    guard let timing = timing ?? specTiming else { return base }
    return AnyAnimationCurve(TimedAnimation(base, timing: timing))
  }

  /// The template keys that do not go with the spec's kind, and a missing end value.
  private func checkKeys(for spec: AnimationSpec) throws(TemplateError) {
    switch spec.kind {
    case .spring where duration != nil:
      throw node.error(
        "a spring's length comes from its parameters; use spring(duration: …, bounce: …) instead of 'duration'")
    case .decay where duration != nil:
      throw node.error("a decay ends when it comes to rest; remove 'duration'")
    case .tween where velocity != nil:
      throw node.error("'velocity' applies to springs and decays, not to a tween")
    case .constant where velocity != nil:
      throw node.error("'velocity' applies to springs and decays, not to a constant")
    case .drag where velocity != nil:
      throw node.error("'velocity' applies to springs and decays, not to a drag")
    case .spring, .decay:
      // Two velocities for one motion: neither may silently win.
      if velocity != nil && spec.velocityIsGiven {
        throw velocityNode.error(
          "the velocity is given twice: as 'velocity' here and by \(quoted: spec.kind.noun) "
            + "'\(quoted: spec.source)'; keep one")
      }
    default:
      break
    }
    if spec.kind.needsTarget && to == nil {
      throw node.error("\(quoted: spec.kind.noun) needs an end value: give 'to' (or 'by')")
    }
  }

  /// `base` (built in sRGB components) travelling through ``colorSpace`` with the same timing:
  /// a from → to spec is built again on the space's components from the hand-over carried into
  /// them (``ColorSpaceAnimation``: every component of the incoming velocity is kept); keyframes
  /// of values run their segments on the values' components in that space.
  private func inColorSpace(
    _ base: AnyAnimationCurve<V>, motion: TemplateMotion, decode: (TemplateNode) throws(TemplateError) -> V
  ) throws(TemplateError) -> AnyAnimationCurve<V> {
    guard base is AnyAnimationCurve<Color>, let start = from as? Color else {
      throw node.error("'colorSpace' applies to colour properties, and \(quoted: property) is not one")
    }
    let wrapped: AnyAnimationCurve<Color>
    switch motion {
    case .keyframes(let valuesNode, let keyTimes, let curves, let mode, let kfDuration, let kfNode):
      var components: [Vector4] = []
      for item in try valuesNode.array() {
        guard let color = try decode(item) as? Color else { throw item.expected("a colour") }
        components.append(colorSpace.components(of: color))
      }
      let keyframes: KeyframeAnimation<Vector4>
      do {
        keyframes = try KeyframeAnimation(
          values: components, keyTimes: keyTimes, timingFunctions: curves, calculationMode: mode,
          duration: duration ?? kfDuration ?? 0.4)
      } catch {
        throw kfNode.error(error.message)
      }
      wrapped = AnyAnimationCurve(ColorSpaceAnimation(space: colorSpace, base: keyframes))
    case .spec(let spec, let specNode):
      if case .decay = spec.kind {
        throw specNode.error(
          "a decay of a colour has no end colour to travel to in "
            + "'\(quoted: colorSpace.templateName)'; give 'to' with a spring or a tween")
      }
      guard let end = to as? Color else { throw node.error("'colorSpace' needs an end colour: give 'to'") }
      // Built in the space's components from the hand-over carried into them (the conversion's
      // derivative along the sRGB velocity), so the join keeps every component's velocity.
      let handed = handoff.velocity as? Color ?? .zero
      let builder = CurveBuilder<Vector4>(
        spec: spec,
        from: Handoff(
          value: colorSpace.components(of: start), velocity: inSpace(handed, at: start),
          time: handoff.time),
        to: colorSpace.components(of: end), velocity: (velocity as? Color).map { inSpace($0, at: start) },
        threshold: threshold, duration: duration, timing: timing)
      let components = try make(specNode) { () throws(MotionError) in try builder.untimedCurve() }
      wrapped = AnyAnimationCurve(ColorSpaceAnimation(space: colorSpace, base: components))
    }
    guard let erased = wrapped as? AnyAnimationCurve<V> else {
      throw node.error("'colorSpace' applies to colour properties")
    }
    return erased
  }

  /// The velocity `v` (sRGB components per second) of a colour at `c`, in ``colorSpace``'s
  /// components per second: the conversion's derivative along `v` (a central difference).
  private func inSpace(_ v: Color, at c: Color) -> Vector4 {
    let speed = v.norm
    guard speed > 0 else { return .zero }
    let h = 1e-6 / speed
    return (colorSpace.components(of: c + v.scaled(by: h)) - colorSpace.components(of: c - v.scaled(by: h)))
      .scaled(by: 1 / (2 * h))
  }

  private func make<T>(_ at: TemplateNode, _ body: () throws(MotionError) -> AnyAnimationCurve<T>)
    throws(TemplateError) -> AnyAnimationCurve<T>
  {
    do {
      return try body()
    } catch {
      throw at.error(error.message)
    }
  }
}
