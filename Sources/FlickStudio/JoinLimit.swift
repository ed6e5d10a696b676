import FlickScene

/// A hand-over of a track (one of its ``FlickScene/TrackOutline/joins``), read from both sides.
///
/// The value and velocity just before the join (the left limit: the motion arriving) and just
/// after it (the right limit: the motion that takes over) are computed from the track's
/// segments, not from samples. A join is *discontinuous* when the velocity jumps by more than
/// ``tolerance(_:_:)``: the new motion did not take the old one's velocity over.
struct JoinLimit: Encodable, Equatable {
  /// The value and velocity on one side of the join (components, as `flick trace` prints them).
  struct Side: Encodable, Equatable {
    var value: [Double]
    var velocity: [Double]
  }

  /// Scene time of the join, seconds.
  var time: Double
  /// The left limit.
  var before: Side
  /// The right limit.
  var after: Side
  /// ‖velocity after − velocity before‖ (Euclidean over the components), units per second.
  var velocityJump: Double
  /// The largest jump still counted as continuous here (``tolerance(_:_:)``).
  var tolerance: Double
  /// Whether ``velocityJump`` exceeds ``tolerance``.
  var discontinuous: Bool

  /// The absolute part of the tolerance, units per second.
  static let absoluteTolerance = 0.001
  /// The relative part of the tolerance: this fraction of the larger speed on either side.
  static let relativeTolerance = 0.02

  /// 0.001 units/s + 2 % of the larger of the speeds before and after: a retarget or release
  /// that takes the velocity over stays well inside it (it differs only by rounding), a motion
  /// told to start from rest under a moving one (or stopping it dead) is far outside.
  static func tolerance(_ before: [Double], _ after: [Double]) -> Double {
    absoluteTolerance + relativeTolerance * max(norm(before), norm(after))
  }

  static func norm(_ v: [Double]) -> Double { v.reduce(0) { $0 + $1 * $1 }.squareRoot() }

  /// Every join of `track` read from both sides in `tracks`; empty when the property is unknown.
  static func limits(of track: TrackOutline, in tracks: inout PropertyTracks) -> [JoinLimit] {
    guard !track.joins.isEmpty, let property = AnyLayerProperty.named(track.property) else { return [] }
    let left = tracks.trace(property, layerID: track.layerID, at: track.joins, limit: .left)
    let right = tracks.trace(property, layerID: track.layerID, at: track.joins, limit: .right)
    return zip(left, right).map { l, r in
      let difference = zip(r.velocity, l.velocity).map { $0 - $1 }
      let jump = norm(difference)
      let tolerance = tolerance(l.velocity, r.velocity)
      return JoinLimit(
        time: l.time, before: Side(value: l.value, velocity: l.velocity),
        after: Side(value: r.value, velocity: r.velocity), velocityJump: jump, tolerance: tolerance,
        discontinuous: jump > tolerance)
    }
  }
}
