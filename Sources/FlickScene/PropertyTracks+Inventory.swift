import FlickMotion

extension PropertyTracks {
  /// Every animated (layer id, property name) pair, sorted by layer id then property name.
  package var animatedProperties: [(layerID: String, name: String)] {
    segments.keys.sorted().flatMap { id in (segments[id] ?? [:]).keys.sorted().map { (id, $0) } }
  }

  /// The scene times at which an animation begins or settles (its events), sorted, each once.
  package var eventTimes: [Double] {
    var times = Set<Double>()
    for byName in segments.values {
      for list in byName.values {
        for segment in list {
          times.insert(segment.begin)
          let settle = segment.settleTime(in: self)
          if settle.isFinite { times.insert(settle) }
        }
      }
    }
    return times.sorted()
  }
}
