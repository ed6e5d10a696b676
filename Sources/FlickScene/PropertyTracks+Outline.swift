import FlickMotion

/// One segment of a track as the studio's timeline shows it.
package struct TrackSegmentOutline: Sendable, Equatable {
  /// Scene time the segment begins, seconds.
  package var begin: Double
  /// Scene time it ends (`begin + duration`), or nil for one that never ends.
  package var end: Double?
  /// What moves the property: `spring`, `decay`, `tween`, `keyframes`, `drag`, `spin`, `release` (the
  /// motion that takes over where a drag ends), `animator`, `link`, `set`, `custom` or `curve`.
  package var kind: String
  /// For a `release`, the kind of its motion (`decay`, `spring`, …).
  package var released: String? = nil
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
        var parts = list.map { s in
          TrackSegmentOutline(
            begin: s.begin, end: s.duration.isFinite ? s.begin + s.duration : nil, kind: s.outlineKind)
        }
        // The motion that takes over where a drag ends (its velocity) is the release.
        for i in parts.indices.dropFirst() where parts[i - 1].kind == "drag" && parts[i].kind != "drag" {
          if let end = parts[i - 1].end, abs(parts[i].begin - end) < 1e-9 {
            parts[i].released = parts[i].kind
            parts[i].kind = "release"
          }
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
  var curveKind: String { (curve.base as? any NamedCurveKind)?.kindName ?? "curve" }
}

/// A FlickMotion curve that names its kind for the studio's timeline; wrappers (timing,
/// clamping) name the kind of the curve they wrap.
protocol NamedCurveKind {
  var kindName: String { get }
}

extension SpringAnimation: NamedCurveKind { var kindName: String { "spring" } }
extension SteppedSpring: NamedCurveKind { var kindName: String { "spring" } }
extension DecayAnimation: NamedCurveKind { var kindName: String { "decay" } }
extension RubberBandDecay: NamedCurveKind { var kindName: String { "decay" } }
extension KeyframeAnimation: NamedCurveKind { var kindName: String { "keyframes" } }
extension BasicAnimation: NamedCurveKind { var kindName: String { "tween" } }
extension ContinuingTween: NamedCurveKind { var kindName: String { "tween" } }
extension DragCurve: NamedCurveKind { var kindName: String { "drag" } }
extension SpinCurve: NamedCurveKind { var kindName: String { "spin" } }
extension ConstantCurve: NamedCurveKind { var kindName: String { "set" } }
extension CustomAnimation: NamedCurveKind { var kindName: String { "custom" } }
extension AnimatorCurve: NamedCurveKind { var kindName: String { "animator" } }
extension TimedAnimation: NamedCurveKind {
  var kindName: String { (base as? any NamedCurveKind)?.kindName ?? "curve" }
}
extension ClampedAnimation: NamedCurveKind {
  var kindName: String { (base as? any NamedCurveKind)?.kindName ?? "curve" }
}
extension AnyAnimationCurve: NamedCurveKind {
  var kindName: String { (base as? any NamedCurveKind)?.kindName ?? "curve" }
}
