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

  public var description: String { "\(call): \(reason)" }
}

extension Scene {
  /// ``animator``, or a new one over the layers as they are now (Pop and GPUAnimation calls
  /// create it on first use: add layers before animating them).
  var animatorForBuilding: Animator<LayerTree> { animator ?? Animator(model: LayerTree(layers)) }

  /// Adds a UIKit-style animator (made with ``makePropertyAnimator(duration:timingParameters:)``
  /// and driven with its own calls, each at a scene time).
  public mutating func add(_ propertyAnimator: PropertyAnimator<LayerTree>) {
    motion.propertyAnimators.append(propertyAnimator)
  }

  /// A `UIViewPropertyAnimator` over this scene's layers: add it with ``add(_:)`` when its
  /// script is written.
  ///
  ///     var animator = scene.makePropertyAnimator(duration: 1, timingParameters: .cubic(.easeOut))
  ///     try animator.addAnimations(at: 0) { $0["card"].position = Point(x: 300, y: 200) }
  ///     try animator.startAnimation(at: 0)
  ///     try animator.pauseAnimation(at: 0.5)
  ///     scene.add(animator)
  public func makePropertyAnimator(
    duration: Double, timingParameters: PropertyAnimator<LayerTree>.TimingParameters = .cubic(.easeInEaseOut)
  ) -> PropertyAnimator<LayerTree> {
    PropertyAnimator(duration: duration, timingParameters: timingParameters, model: LayerTree(layers))
  }

  /// Checks every animation and building call: each names a layer of the scene, each time is
  /// finite and not negative.
  ///
  /// - Throws: ``SceneError`` for the first problem, naming the call (and how many more there are).
  public func validate() throws(SceneError) {
    var problems = motion.problems
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
          reason: "the layers changed after the first animation (the animator renders the layers it was made with); add every layer before animating"))
    }
    if let animator {
      for key in animator.animatedKeys where !tree.contains(key.object) {
        problems.append(
          SceneError(call: "animation \(key)", reason: Self.unknownLayer(key.object, among: ids)))
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
