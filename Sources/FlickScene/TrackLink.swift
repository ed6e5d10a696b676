import FlickMotion

/// A property given as a function of other tracks at the same instant: a ``PropertyLink`` (a
/// number property or time through an interpolation map) or a ``ConstraintLink`` (a sublayer's
/// frame from its superlayer's bounds). ``PropertyTracks`` keeps it as a segment that reads its
/// source on every look-up (``PropertyTracks/append(_:)`` refuses cycles and over-long chains),
/// and the scene renders it through ``LinkCurve``.
package protocol TrackLink<Value>: Sendable {
  associatedtype Value: Animatable
  /// The property it writes.
  var property: LayerProperty<Value> { get }
  /// The layer whose property it writes.
  var layerID: String { get }
  /// Scene time it starts, seconds.
  var begin: Double { get }
  /// The property it reads (its layer and name), nil when it reads only time.
  var sourceRead: (layerID: String, name: String)? { get }
  /// The value at scene time `t` from `limit`.
  func value(in tracks: PropertyTracks, at t: Double, limit: TrackLimit) -> Value
  /// The velocity at scene time `t` from `limit`, units per second.
  func velocity(in tracks: PropertyTracks, at t: Double, limit: TrackLimit) -> Value
  /// The scene time after which its value stops changing.
  func settleTime(in tracks: PropertyTracks) -> Double
  /// Where its value may jump or turn after scene time `t` (`forward`) or before it (``CurveTurns``).
  func turns(at t: Double, forward: Bool, in tracks: PropertyTracks) -> CurveTurns
}
