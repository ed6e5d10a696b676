import FlickMotion

/// The order of a scene's animations on one property: the one started last shows, as in UIKit,
/// Pop and Core Animation, whichever API started it.
///
/// A property animator's animation shows over the ``Scene/animator``'s (Pop calls, chains,
/// drives) and the ``Scene/animations`` that started before it or at the same instant, and takes
/// over the value and velocity they show (``Scene/makePropertyAnimator(duration:timingParameters:)``).
/// One of those started after it shows instead, from its start on; a Pop call or chain started
/// then takes over the value and velocity the property animator shows there, running, paused,
/// reversed, scrubbed or finished (``FlickMotion/Animator/outsideHandover``). The property
/// animators' animations of one property show in the order they started; at the same instant,
/// in the order they were added (the scene's property animators in order, each one's animations
/// in order). A ``LayerAnimation`` is a function of its own time: it shows from its begin time,
/// with its own values.
extension Scene {
  /// Writes at `t`, over `roots` (the ``animator``'s sample with ``animations`` applied), the
  /// animations of the property animators (and of `extra`, after them) that no animation of
  /// ``animator`` or ``animations`` on the same property started after: in the order they started.
  func layPropertyAnimators(
    over roots: [Layer], at t: Double, adding extra: PropertyAnimator<LayerTree>? = nil
  ) -> [Layer] {
    let animators = motion.propertyAnimators + (extra.map { [$0] } ?? [])
    guard !animators.isEmpty else { return roots }
    let others = otherStarts(at: t)
    var writes: [(start: Double, animator: Int, track: Int)] = []
    for (a, propertyAnimator) in animators.enumerated() {
      let starts = propertyAnimator.trackStarts
      for i in propertyAnimator.writingTracks(at: t) {
        let (name, start) = starts[i]
        let isCovered = Self.overlappingNames(name).contains { (others[$0] ?? -.infinity) > start }
        if !isCovered { writes.append((start, a, i)) }
      }
    }
    writes.sort { ($0.start, $0.animator, $0.track) < ($1.start, $1.animator, $1.track) }
    var tree = LayerTree(roots)
    for write in writes { animators[write.animator].writeTrack(write.track, into: &tree, at: t) }
    return tree.layers
  }

  /// The latest start at or before `t` of what ``animator`` and ``animations`` write, by the
  /// written property's name on a ``LayerTree`` (`card.position`).
  private func otherStarts(at t: Double) -> [String: Double] {
    var starts: [String: Double] = [:]
    for writer in animator?.writers(at: t) ?? [] {
      for name in writer.names { starts[name] = max(starts[name] ?? -.infinity, writer.start) }
    }
    for animation in animations where animation.isShown(at: t) {
      let name = animation.layerID + "." + animation.propertyName
      starts[name] = max(starts[name] ?? -.infinity, animation.beginTime)
    }
    return starts
  }

  /// The names on a ``LayerTree`` that write some of the state `name` writes (`card.position`:
  /// `card.positionX` too), `name` first (``AnyLayerProperty/writesOverlap(_:_:)``). A layer id
  /// may hold a dot: every split of the name into a layer id and a property name is tried.
  static func overlappingNames(_ name: String) -> [String] {
    var out = [name]
    var from = name.startIndex
    while let dot = name[from...].firstIndex(of: ".") {
      let property = String(name[name.index(after: dot)...])
      for other in AnyLayerProperty.overlapping(property) where other != property {
        out.append(String(name[..<dot]) + "." + other)
      }
      from = name.index(after: dot)
    }
    return out
  }

  /// The ``animator``'s view of the property animators: an animation it starts takes over what
  /// the property animator's animation started last on the property shows, when that started
  /// since the key's animation did (at the same instant too: it was laid over) and before it.
  var outsideHandover: Animator<LayerTree>.OutsideHandover? {
    let animators = motion.propertyAnimators
    guard !animators.isEmpty else { return nil }
    return { name, since, t in
      let names = Set(Scene.overlappingNames(name))
      var latest: (start: Double, animator: Int, track: Int)?
      for (a, propertyAnimator) in animators.enumerated() {
        for (i, track) in propertyAnimator.trackStarts.enumerated()
        where names.contains(track.name) && track.start >= since && track.start < t {
          if latest.map({ track.start >= $0.start }) ?? true { latest = (track.start, a, i) }
        }
      }
      guard let latest else { return nil }
      let propertyAnimator = animators[latest.animator]
      return { time, root in propertyAnimator.writeTrack(latest.track, into: &root, at: time) }
    }
  }
}
