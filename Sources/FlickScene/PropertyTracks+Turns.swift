import FlickMotion

extension PropertyTracks {
  /// Where `name` on `layerID` may jump or turn next after scene time `t` (`forward`) or before
  /// it, and how close its other turns come (``CurveTurns``, scene seconds): from every segment
  /// that decides the state at `t` and, through links, from what they read. Between two begins or
  /// ends of segments (``breakpoints(of:layerID:in:)``) the same segments decide it, so the answer
  /// holds up to the next of those too.
  package func turns(of name: String, layerID: String, at t: Double, forward: Bool) -> CurveTurns {
    var found = CurveTurns.none(forward: forward)
    for (segment, _, _) in active(name, layerID: layerID, at: t, limit: forward ? .right : .left) {
      found = found.merged(with: segment.turns(at: t, forward: forward, in: self), forward: forward)
    }
    return found
  }
}

extension CurveSegment {
  func turns(at t: Double, forward: Bool, in tracks: PropertyTracks) -> CurveTurns {
    let local = t - begin
    return (forward ? curve.turns(after: local) : curve.turns(before: local)).mapped(origin: begin, scale: 1)
  }
}

extension LinkSegment {
  func turns(at t: Double, forward: Bool, in tracks: PropertyTracks) -> CurveTurns {
    link.turns(at: t, forward: forward, in: tracks)
  }
}

extension TrackLink {
  /// A link turns where what it reads turns (a map through stops that go back adds turns where
  /// its source passes them; the velocity shows them between steps).
  package func turns(at t: Double, forward: Bool, in tracks: PropertyTracks) -> CurveTurns {
    guard let read = sourceRead else { return .none(forward: forward) }
    return tracks.turns(of: read.name, layerID: read.layerID, at: t, forward: forward)
  }
}

extension PropertyLink {
  /// A map of time turns at its stops and at the turn points of their timing functions.
  package func turns(at t: Double, forward: Bool, in tracks: PropertyTracks) -> CurveTurns {
    guard case .time = source else {
      guard let read = sourceRead else { return .none(forward: forward) }
      return tracks.turns(of: read.name, layerID: read.layerID, at: t, forward: forward)
    }
    let map = mapping.turns
    return .nearest(to: t, in: map.points, forward: forward, spacing: map.spacing)
  }
}

extension LinkCurve {
  package func turns(after t: Double) -> CurveTurns {
    link.turns(at: link.begin + max(t, 0), forward: true, in: tracks).mapped(origin: -link.begin, scale: 1)
  }

  package func turns(before t: Double) -> CurveTurns {
    link.turns(at: link.begin + max(t, 0), forward: false, in: tracks).mapped(origin: -link.begin, scale: 1)
  }
}
