extension PropertyAnimator {
  /// Each property animation added with ``addAnimation(_:to:delayFactor:at:)``, in the order
  /// added: the property's name and the scene time it was added. A ``FlickScene/Scene`` lays the
  /// animations of one property in the order they started, so that the one started last shows.
  package var trackStarts: [(name: String, start: Double)] { tracks.map { ($0.name, $0.start) } }

  /// Writes animation `index` (of ``trackStarts``) at scene time `t` into `root`, as
  /// ``write(into:at:)`` writes it among the others; nothing before it was added.
  package func writeTrack(_ index: Int, into root: inout Root, at t: Double) {
    guard tracks.indices.contains(index) else { return }
    let track = tracks[index]
    if let at = track.retiredAt, at <= t { return track.write(&root, track.retiredQ, track.retiredBlendAt) }
    let s = segments[segmentIndex(at: t)]
    guard index < s.tracksVisible else { return }
    let e = evaluate(s, at: t)
    track.write(&root, track.q(u: e.u, p: e.p), t)
  }

  /// The animations that write at scene time `t` (added by then), as indices of ``trackStarts``.
  package func writingTracks(at t: Double) -> [Int] {
    let visible = segments[segmentIndex(at: t)].tracksVisible
    return tracks.indices.filter { i in
      if let at = tracks[i].retiredAt, at <= t { return true }
      return i < visible
    }
  }
}

extension Handoff {
  /// The state on screen at scene time `t` of a property that `shown` reads at any time: the
  /// value at `t`, and the left limit of the velocity, differentiated from three samples just
  /// before `t` (a quadratic through them, exact for a value changing at a constant
  /// acceleration; zero when that is not a finite number). What an animation added at `t` over
  /// a property something else moves takes over.
  package static func onScreen(at t: Double, _ shown: (Double) -> Value) -> Handoff {
    let h = 1e-5 * max(1, abs(t))
    let (f1, f2, f3) = (shown(t - h), shown(t - 2 * h), shown(t - 3 * h))
    let velocity = (f1.scaled(by: 5) - f2.scaled(by: 8) + f3.scaled(by: 3)).scaled(by: 1 / (2 * h))
    return Handoff(value: shown(t), velocity: velocity.magnitudeSquared.isFinite ? velocity : .zero, time: t)
  }
}
