import FlickMotion

/// Everything needed to build the curve of one property's animation, and the rules that
/// combine them (which velocity a spring starts with, which threshold it settles to, …).
struct CurveRequest<V: Animatable> {
  var from: V
  /// The target; nil for a decay (which finds its own end).
  var to: V?
  /// A velocity written in the template (`velocity: [vx, vy]`), in units/s.
  var velocity: V?
  /// The property's velocity when the animation starts (from the animation it interrupts).
  var inherited: V
  /// The property's visibility threshold (springs settle to it; decays stop below 5× it per s).
  var threshold: Double
  var motion: TemplateMotion?
  var duration: Double?
  var timing: MediaTiming?
  var node: TemplateNode
  var property: String
  /// The space a colour animation travels through (`colorSpace`); sRGB leaves the curve as built.
  var colorSpace: ColorSpace = .sRGB

  func curve(decode: (TemplateNode) throws(TemplateError) -> V) throws(TemplateError) -> AnyAnimationCurve<V> {
    let motion = self.motion ?? .spec(AnimationSpec(kind: .tween(.default, duration: 0.4)), node: node)
    var base: AnyAnimationCurve<V>
    var specTiming: MediaTiming?
    switch motion {
    case .keyframes(let valuesNode, let keyTimes, let curves, let mode, let kfDuration, let kfNode):
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
      base = try curve(spec, specNode)
    }
    if colorSpace != .sRGB { base = try inColorSpace(base, motion: motion, decode: decode) }
    guard let timing = timing ?? specTiming else { return base }
    return AnyAnimationCurve(TimedAnimation(base, timing: timing))
  }

  private func curve(_ spec: AnimationSpec, _ specNode: TemplateNode) throws(TemplateError) -> AnyAnimationCurve<V> {
    switch spec.kind {
    case .spring(let parameters, let speed, let normalized, let restThreshold):
      if duration != nil {
        throw node.error(
          "a spring's length comes from its parameters; use spring(duration: …, bounce: …) instead of 'duration'")
      }
      let to = try target("a spring")
      let v: V
      if let velocity {
        v = velocity
      } else if let normalized {
        v = (to - from).scaled(by: normalized)
      } else if speed != 0 {
        v = try along(to, speed, specNode)
      } else {
        v = inherited
      }
      // Device-faithful stepping (`stepping: pop` / `gpuanimation` in the spec) replays the
      // engine's own integration; the default is the analytic curve.
      if spec.stepping != .analytic {
        return AnyAnimationCurve(
          SteppedSpring(
            from: from, to: to, velocity: v, parameters: parameters, threshold: restThreshold ?? threshold,
            stepping: spec.stepping))
      }
      return AnyAnimationCurve(
        SpringAnimation(
          from: from, to: to, velocity: v, parameters: parameters, restThreshold: restThreshold ?? threshold))
    case .decay(let speed, let deceleration, let decayThreshold, let bounds):
      if duration != nil { throw node.error("a decay ends when it comes to rest; remove 'duration'") }
      let v: V
      if let velocity {
        v = velocity
      } else if speed != 0 {
        if let scalar = speed as? V {
          v = scalar
        } else {
          v = try along(try target("a decay with a scalar velocity on a \(property)"), speed, specNode)
        }
      } else {
        // A hand-over: Pop's decay moves at d·v in its first millisecond (its closed form starts
        // at −d·ln d/(1 − d) of v, 0.999 v for d = 0.998), so scale the velocity the property
        // has so that the decay's own starts equal to it: the motion stays C¹ at the release.
        let unit =
          DecayAnimation(from: 0.0, velocity: 1e6, deceleration: deceleration, threshold: 1).velocity(at: 0) / 1e6
        v = unit > 0 ? inherited.scaled(by: 1 / unit) : inherited
      }
      // The spec's threshold defaults to 1 (a point); without one, use the property's.
      let rest = spec.source.contains("threshold") ? decayThreshold : threshold
      if let bounds {
        guard let start = from as? Double, let speed = v as? Double else {
          throw specNode.error(
            "decay bounds (min/max) apply to number properties (use positionX/positionY for a rubber band)")
        }
        let band = RubberBandDecay(
          from: start, velocity: speed, bounds: bounds, deceleration: deceleration, threshold: rest)
        guard let erased = AnyAnimationCurve(band) as? AnyAnimationCurve<V> else {
          throw specNode.error("decay bounds (min/max) apply to number properties")
        }
        return erased
      }
      return AnyAnimationCurve(DecayAnimation(from: from, velocity: v, deceleration: deceleration, threshold: rest))
    case .tween(let f, let specDuration):
      if velocity != nil { throw node.error("'velocity' applies to springs and decays, not to a tween") }
      return AnyAnimationCurve(
        BasicAnimation(from: from, to: try target("a tween"), duration: duration ?? specDuration, timingFunction: f))
    case .keyframes(let fractions, let keyTimes, let curves, let mode, let specDuration):
      let to = try target("keyframes given as fractions")
      let values = fractions.map { from.interpolated(to: to, amount: $0) }
      return try make(specNode) { () throws(MotionError) in
        AnyAnimationCurve(
          try KeyframeAnimation(
            values: values, keyTimes: keyTimes, timingFunctions: curves, calculationMode: mode,
            duration: duration ?? specDuration))
      }
    case .constant(let fraction):
      if velocity != nil { throw node.error("'velocity' applies to springs and decays, not to a constant") }
      return AnyAnimationCurve(ConstantCurve(value: from.interpolated(to: try target("a constant"), amount: fraction)))
    case .drag(let fractions, let curve, let specDuration):
      if velocity != nil { throw node.error("'velocity' applies to springs and decays, not to a drag") }
      let to = try target("a drag given as fractions")
      let points = fractions.map { from.interpolated(to: to, amount: $0) }
      return try make(specNode) { () throws(MotionError) in
        AnyAnimationCurve(try DragCurve(points: points, duration: duration ?? specDuration, timing: curve))
      }
    }
  }

  /// `base` (built in sRGB components) travelling through ``colorSpace`` with the same timing:
  /// a from → to curve is wrapped in ``ColorSpaceCurve``; keyframes of values run their
  /// segments on the values' components in that space.
  private func inColorSpace(
    _ base: AnyAnimationCurve<V>, motion: TemplateMotion, decode: (TemplateNode) throws(TemplateError) -> V
  ) throws(TemplateError) -> AnyAnimationCurve<V> {
    guard let colorBase = base as? AnyAnimationCurve<Color>, let start = from as? Color else {
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
      wrapped = AnyAnimationCurve(ColorSpaceCurve(colorBase, from: start, to: end, in: colorSpace))
    }
    guard let erased = wrapped as? AnyAnimationCurve<V> else {
      throw node.error("'colorSpace' applies to colour properties")
    }
    return erased
  }

  private func target(_ what: String) throws(TemplateError) -> V {
    guard let to else { throw node.error("\(quoted: what) needs an end value: give 'to' (or 'by')") }
    return to
  }

  /// A velocity of magnitude `speed` along the motion from `from` to `to`.
  private func along(_ to: V, _ speed: Double, _ specNode: TemplateNode) throws(TemplateError) -> V {
    let delta = to - from
    let length = delta.magnitudeSquared.squareRoot()
    if length > 0 { return delta.scaled(by: speed / length) }
    if let scalar = speed as? V { return scalar }
    throw specNode.error(
      "a scalar velocity needs a direction: 'to' equals the start value; give 'velocity' as a "
        + "\(quoted: property) value")
  }

  private func make(_ at: TemplateNode, _ body: () throws(MotionError) -> AnyAnimationCurve<V>) throws(TemplateError)
    -> AnyAnimationCurve<V>
  {
    do {
      return try body()
    } catch {
      throw at.error(error.message)
    }
  }
}
