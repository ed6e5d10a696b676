import FlickMotion

/// One segment of a track as the studio's timeline shows it.
package struct TrackSegmentOutline: Sendable, Equatable {
  /// Scene time the segment begins, seconds.
  package var begin: Double
  /// Scene time it ends (`begin + duration`), or nil for one that never ends.
  package var end: Double?
  /// What moves the property: `spring`, `decay`, `tween`, `keyframes`, `drag`, `animator`,
  /// `link`, `set`, `custom` or `curve`.
  package var kind: String
}

/// The segments of one (layer, property) track, in begin order.
package struct TrackOutline: Sendable, Equatable {
  package var layerID: String
  package var property: String
  package var segments: [TrackSegmentOutline]
  /// Hand-over instants: where a segment begins while an earlier one of the track was moving
  /// the property (its begin lies before the earlier one's end).
  package var joins: [Double]
}

extension PropertyTracks {
  /// Every track with its segments, sorted by layer id and property name.
  package var outline: [TrackOutline] {
    var out: [TrackOutline] = []
    for (layerID, byName) in segments.sorted(by: { $0.key < $1.key }) {
      for (name, list) in byName.sorted(by: { $0.key < $1.key }) where !list.isEmpty {
        let parts = list.map { s in
          TrackSegmentOutline(
            begin: s.begin, end: s.duration.isFinite ? s.begin + s.duration : nil, kind: s.outlineKind)
        }
        var joins: [Double] = []
        for i in 1..<max(1, parts.count) {
          let previousEnd = parts[i - 1].end ?? .infinity
          if parts[i].begin <= previousEnd + 1e-9 && parts[i].begin > parts[i - 1].begin {
            joins.append(parts[i].begin)
          }
        }
        out.append(TrackOutline(layerID: layerID, property: name, segments: parts, joins: joins))
      }
    }
    return out
  }
}

extension TrackSegment {
  /// The segment's kind for ``TrackSegmentOutline/kind``.
  var outlineKind: String {
    if sourceRead != nil { return "link" }
    return (self as? any CurveKindNaming)?.curveKind ?? "curve"
  }
}

/// A segment that can name the kind of its curve.
protocol CurveKindNaming {
  var curveKind: String { get }
}

extension CurveSegment: CurveKindNaming {
  var curveKind: String {
    let base = curve.base
    if base is SpringAnimation<V> || base is SteppedSpring<V> { return "spring" }
    if base is DecayAnimation<V> || base is RubberBandDecay { return "decay" }
    if base is KeyframeAnimation<V> { return "keyframes" }
    if base is ContinuingTween<V> || base is BasicAnimation<V> { return "tween" }
    if base is DragCurve<V> { return "drag" }
    if base is ConstantCurve<V> { return "set" }
    if base is CustomAnimation<V> { return "custom" }
    return "curve"
  }
}
