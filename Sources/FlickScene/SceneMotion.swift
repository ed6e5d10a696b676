import FlickMotion

/// What drives a scene's layers besides ``Scene/animator`` (the Pop and GPUAnimation calls,
/// ``Scene/pop`` and ``Scene/run(_:at:)``, write there) and the per-layer ``Scene/animations``:
/// any number of ``PropertyAnimator``s (UIKit style: ``Scene/add(_:)``), and the problems of
/// scene-building calls.
///
/// ``Scene/renderTree(at:)`` indexes the layer tree once and lets each property animator write
/// the properties it runs: one pass over the running animations per frame. It is pure in time:
/// rendering never runs observers (`onChange`, `onComplete`, chain callbacks);
/// ``Animator/advance(to:)`` on ``Scene/animator`` does, for playback.
public struct SceneMotion: Sendable {
  /// UIKit-style animators, applied in order before ``animator``.
  public var propertyAnimators: [PropertyAnimator<LayerTree>] = []
  /// Calls that could not be recorded, in call order (``Scene/validate()`` throws the first).
  public internal(set) var problems: [SceneError] = []

  public init() {}

  /// Whether anything drives the layers.
  public var isEmpty: Bool { propertyAnimators.isEmpty }

  /// Lays every animator over `layers` at scene time `t`.
  public func apply(to layers: [Layer], at t: Double) -> [Layer] {
    guard !isEmpty else { return layers }
    var tree = LayerTree(layers)
    for propertyAnimator in propertyAnimators { propertyAnimator.write(into: &tree, at: t) }
    return tree.layers
  }
}

/// A scene-building call that cannot be honoured: it names the call and says why.
///
/// Building calls (``Scene/pop``, ``Scene/run(_:at:)``, ``Scene/set(_:of:to:at:)``) do not
/// throw one by one; each problem is kept and ``Scene/validate()`` throws the first, so a
/// script of fixed times needs one `try`.
public struct SceneError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The call, as written (`pop["card"].add(spring, for: position, at: nan)`).
  public var call: String
  /// What is wrong.
  public var reason: String

  public init(call: String, reason: String) {
    self.call = call
    self.reason = reason
  }

  public var description: String { "\(quoted: call): \(escaped: reason)" }
}

extension Scene {
  /// ``animator``, or a new one over the layers as they are now (Pop and GPUAnimation calls
  /// create it on first use: add layers before animating them).
  var animatorForBuilding: Animator<LayerTree> { animator ?? Animator(model: LayerTree(layers)) }

  /// Adds a UIKit-style animator (made with ``makePropertyAnimator(duration:timingParameters:)``
  /// and driven with its own calls, each at a scene time).
  public mutating func add(_ propertyAnimator: PropertyAnimator<LayerTree>) {
    if let problem = propertyAnimator.durationProblem {
      record("add(propertyAnimator[\(motion.propertyAnimators.count)])", problem)
    }
    motion.propertyAnimators.append(propertyAnimator)
  }

  /// A `UIViewPropertyAnimator` over this scene's layers: add it with ``add(_:)`` when its
  /// script is written. Each `addAnimations` group starts from what the scene shows at its time
  /// — the layers with the scene's animations as they are when the animator is made (the
  /// ``animator``'s Pop calls and chains, ``animations``, earlier property animators) — and
  /// carries the velocity the property had there, which fades over the animator's duration
  /// (UIKit's additive animations; docs/motion.md, "Over a moving property").
  ///
  ///     var animator = scene.makePropertyAnimator(duration: 1, timingParameters: .cubic(.easeOut))
  ///     try animator.addAnimations(at: 0) { $0["card"].position = Point(x: 300, y: 200) }
  ///     try animator.startAnimation(at: 0)
  ///     try animator.pauseAnimation(at: 0.5)
  ///     scene.add(animator)
  public func makePropertyAnimator(
    duration: Double, timingParameters: PropertyAnimator<LayerTree>.TimingParameters = .cubic(.easeInEaseOut)
  ) -> PropertyAnimator<LayerTree> {
    var propertyAnimator = PropertyAnimator(
      duration: duration, timingParameters: timingParameters, model: LayerTree(layers))
    let scene = self
    propertyAnimator.handoverBase = { t, animator in LayerTree(scene.animatedLayers(at: t, adding: animator)) }
    return propertyAnimator
  }

  /// Checks the canvas and the timing first (``size`` has finite sides above 0; ``duration`` is
  /// finite and above 0; ``fps`` is in ``fpsRange``; at most ``maximumFrames`` frames), then
  /// every animation and building call: each names a layer of the scene, each time is
  /// finite and not negative, each target, start value and velocity is a finite number; that no
  /// key hides another's animation of the same state (``keyConflicts``); and that the replicators
  /// draw at most ``LayerReplicator/maximumDrawnInstances`` layer copies per frame (nested
  /// replicators multiply).
  ///
  /// - Throws: ``SceneError`` for the first problem, naming the call (and how many more there are).
  public func validate() throws(SceneError) {
    var problems: [SceneError] = []
    if let problem = Self.sizeProblem(size) { problems.append(SceneError(call: "Scene(size:)", reason: problem)) }
    if let problem = Self.timingProblem(duration: duration, fps: fps) {
      problems.append(SceneError(call: "Scene(fps:duration:)", reason: problem))
    }
    problems += motion.problems
    if let replicators = replicatorProblem { problems.append(replicators) }
    if let depth = depthProblem { problems.append(depth) }
    problems += keyConflicts
    let tree = LayerTree(layers)
    let ids = tree.layerIDs
    for animation in animations where !tree.contains(animation.layerID) {
      problems.append(
        SceneError(
          call: "animations: \(animation.propertyName) of \"\(animation.layerID)\"",
          reason: Self.unknownLayer(animation.layerID, among: ids)))
    }
    if let animator, animator.initialModel.layerIDs != ids {
      problems.append(
        SceneError(
          call: "layers",
          reason:
            "the layers changed after the first animation (the animator renders the layers it was made with); add every layer before animating"
        ))
    }
    if let animator {
      for key in animator.animatedKeys where !tree.contains(key.object) {
        problems.append(
          SceneError(call: "animation \(quoted: key)", reason: Self.unknownLayer(key.object, among: ids)))
      }
      for key in animator.nonFiniteKeys {
        problems.append(
          SceneError(
            call: "animation \(quoted: key)",
            reason: "its values are not finite numbers (a target, start value or velocity is NaN or infinite)"))
      }
    }
    guard var first = problems.first else { return }
    if problems.count > 1 {
      first.reason += " (and \(problems.count - 1) more problem\(problems.count == 2 ? "" : "s"))"
    }
    throw first
  }

  static func unknownLayer(_ id: String, among ids: [String]) -> String {
    var text = "no layer has the id \"\(id)\""
    if let guess = Suggestion.closest(to: id, in: ids) { text += " (did you mean \"\(guess)\"?)" }
    return text
  }

  /// Records a problem with a building call.
  mutating func record(_ call: String, _ reason: String) {
    motion.problems.append(SceneError(call: call, reason: reason))
  }
}

extension LayerTree {
  /// Whether a layer has the id `id`.
  func contains(_ id: String) -> Bool { layer(id) != nil }

  /// Every layer id, masks included, in tree order (for "did you mean" suggestions).
  var layerIDs: [String] {
    var ids: [String] = []
    var stack = Array(layers.reversed())
    while let layer = stack.popLast() {
      ids.append(layer.id)
      if let mask = layer.mask { stack.append(mask) }
      stack += layer.sublayers.reversed()
    }
    return ids
  }
}

/// A `UIViewPropertyAnimator` script over a scene's layers whose calls do not throw: each call
/// carries its scene time, and a call that is not legal (UIKit's state table, docs/motion.md)
/// is kept as a ``SceneError`` naming it, which ``Scene/validate()`` throws. The first illegal
/// call ends the script (later calls would act on a state it never reached). Written with
/// ``Scene/addPropertyAnimator(duration:timingParameters:_:)``.
///
///     scene.addPropertyAnimator(duration: 1, timingParameters: .cubic(.easeInEaseOut)) {
///       $0.addAnimations(at: 0) { $0["card"].position = Point(x: 300, y: 200) }
///       $0.startAnimation(at: 0.2)
///       $0.pauseAnimation(at: 0.6)
///       $0.setFractionComplete(0.3, at: 1)
///       $0.continueAnimation(withTimingParameters: nil, durationFactor: 1, at: 1.2)
///     }
public struct PropertyAnimatorScript: Sendable {
  /// The animator the calls drive (for queries: `state(at:)`, `fractionComplete(at:)`, …).
  public private(set) var animator: PropertyAnimator<LayerTree>
  /// The first illegal call, if any.
  public private(set) var problem: SceneError?
  let index: Int

  init(animator: PropertyAnimator<LayerTree>, index: Int) {
    self.animator = animator
    self.index = index
  }

  /// Whether the progress follows the scrubbed fraction linearly (UIKit's `scrubsLinearly`, default true).
  public var scrubsLinearly: Bool {
    get { animator.scrubsLinearly }
    set { animator.scrubsLinearly = newValue }
  }

  /// Whether the animator stays active at the end (UIKit's `pausesOnCompletion`, default false).
  public var pausesOnCompletion: Bool {
    get { animator.pausesOnCompletion }
    set { animator.pausesOnCompletion = newValue }
  }

  private mutating func perform(
    _ call: @autoclosure () -> String, _ body: (inout PropertyAnimator<LayerTree>) throws(AnimatorError) -> Void
  ) {
    guard problem == nil else { return }
    do {
      try body(&animator)
    } catch {
      problem = SceneError(call: "propertyAnimator[\(index)].\(quoted: call())", reason: error.description)
    }
  }

  /// `addAnimations(_:delayFactor:)` at `t`: ``PropertyAnimator/addAnimations(delayFactor:at:_:)``.
  public mutating func addAnimations(delayFactor: Double = 0, at t: Double, _ animations: (inout LayerChanges) -> Void)
  {
    perform("addAnimations(delayFactor: \(delayFactor), at: \(t))") { (a) throws(AnimatorError) in
      try a.addAnimations(delayFactor: delayFactor, at: t, animations)
    }
  }

  /// `addCompletion(_:)`: run with the final position during playback (``PropertyAnimator/advance(to:)``).
  public mutating func addCompletion(_ completion: @escaping @Sendable (PropertyAnimator<LayerTree>.Position) -> Void) {
    animator.addCompletion(completion)
  }

  /// `startAnimation()` at `t`.
  public mutating func startAnimation(at t: Double) {
    perform("startAnimation(at: \(t))") { (a) throws(AnimatorError) in try a.startAnimation(at: t) }
  }

  /// `startAnimation(afterDelay:)` at `t`.
  public mutating func startAnimation(afterDelay delay: Double, at t: Double) {
    perform("startAnimation(afterDelay: \(delay), at: \(t))") { (a) throws(AnimatorError) in
      try a.startAnimation(afterDelay: delay, at: t)
    }
  }

  /// `pauseAnimation()` at `t`.
  public mutating func pauseAnimation(at t: Double) {
    perform("pauseAnimation(at: \(t))") { (a) throws(AnimatorError) in try a.pauseAnimation(at: t) }
  }

  /// `fractionComplete = fraction` at `t` (scrubbing a paused animator).
  public mutating func setFractionComplete(_ fraction: Double, at t: Double) {
    perform("setFractionComplete(\(fraction), at: \(t))") { (a) throws(AnimatorError) in
      try a.setFractionComplete(fraction, at: t)
    }
  }

  /// `isReversed = reversed` at `t`.
  public mutating func setReversed(_ reversed: Bool, at t: Double) {
    perform("setReversed(\(reversed), at: \(t))") { (a) throws(AnimatorError) in try a.setReversed(reversed, at: t) }
  }

  /// `stopAnimation(_:)` at `t`.
  public mutating func stopAnimation(withoutFinishing: Bool, at t: Double) {
    perform("stopAnimation(withoutFinishing: \(withoutFinishing), at: \(t))") { (a) throws(AnimatorError) in
      try a.stopAnimation(withoutFinishing: withoutFinishing, at: t)
    }
  }

  /// UIKit's `finishAnimation(at: position)` at `t` (``PropertyAnimator/finishAnimation(to:at:)``).
  public mutating func finishAnimation(to position: PropertyAnimator<LayerTree>.Position, at t: Double) {
    perform("finishAnimation(to: .\(position), at: \(t))") { (a) throws(AnimatorError) in
      try a.finishAnimation(to: position, at: t)
    }
  }

  /// `continueAnimation(withTimingParameters:durationFactor:)` at `t`.
  public mutating func continueAnimation(
    withTimingParameters parameters: PropertyAnimator<LayerTree>.TimingParameters?, durationFactor: Double, at t: Double
  ) {
    perform("continueAnimation(durationFactor: \(durationFactor), at: \(t))") { (a) throws(AnimatorError) in
      try a.continueAnimation(withTimingParameters: parameters, durationFactor: durationFactor, at: t)
    }
  }
}

extension Scene {
  /// Writes a `UIViewPropertyAnimator` script over this scene's layers and adds the animator:
  /// the calls do not throw; ``validate()`` throws the first illegal one, naming it
  /// (`propertyAnimator[0].finishAnimation(to: .end, at: 0.6): … needs a stopped animator …`).
  ///
  /// - Returns: The animator as the script left it (for queries); it is already added.
  @discardableResult
  public mutating func addPropertyAnimator(
    duration: Double, timingParameters: PropertyAnimator<LayerTree>.TimingParameters = .cubic(.easeInEaseOut),
    _ script: (inout PropertyAnimatorScript) -> Void
  ) -> PropertyAnimator<LayerTree> {
    var writer = PropertyAnimatorScript(
      animator: makePropertyAnimator(duration: duration, timingParameters: timingParameters),
      index: motion.propertyAnimators.count)
    script(&writer)
    if let problem = writer.problem { motion.problems.append(problem) }
    add(writer.animator)
    return writer.animator
  }
}
