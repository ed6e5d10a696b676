extension Animator {
  /// One animation's time under its key: what it writes and when. A key keeps writing the last
  /// value of its latest animation after that ends, so keys later in ``animatedKeys`` win over
  /// earlier ones that write the same state.
  package struct Occupancy: Sendable, Hashable {
    /// The key it runs under.
    package var key: AnimationKey
    /// The name of the property it writes (``AnimatableProperty/name``).
    package var propertyName: String
    /// Scene time it was added, seconds.
    package var start: Double
    /// Scene time it ends (by itself, or when interrupted), seconds; `.infinity` if never.
    package var end: Double
  }

  /// Every animation the replay ran (completion handlers' included), key by key in
  /// ``animatedKeys`` order, each key's in start order.
  package var occupancies: [Occupancy] {
    let state = self.state
    var byKey: [AnimationKey: [Occupancy]] = [:]
    for s in state.segments {
      byKey[s.key, default: []].append(Occupancy(key: s.key, propertyName: s.propertyName, start: s.start, end: s.end))
    }
    return state.keyOrder.flatMap { byKey[$0] ?? [] }
  }
}

extension Animator {
  /// What each key writes at scene time `t` and since when: the names of the properties its
  /// animation in force writes (``AnimatableProperty/name``, then the ones it drives) and the
  /// scene time that animation was added, in ``animatedKeys`` order; keys with none yet are left out.
  package func writers(at t: Double) -> [(names: [String], start: Double)] {
    let state = self.state
    return state.keyOrder.compactMap { key in
      Self.segment(for: key, at: t, in: state).map { (names: $0.writtenNames, start: $0.start) }
    }
  }
}
