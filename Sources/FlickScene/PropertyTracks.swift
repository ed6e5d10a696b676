import FlickMotion

/// Which side of an instant a track is read from.
package enum TrackLimit: Sendable, Equatable {
  /// What is shown at `t`: every animation begun by `t`, at local time `t − begin` (one begun
  /// within the boundary tolerance of `t`, on either side, at its start).
  case right
  /// The left limit: the motion arriving at `t`, from the animations begun before `t` (by more
  /// than the boundary tolerance), each at the instant just before `t` (a tween ending at `t`
  /// still has its final velocity).
  case left
  /// What a new animation starting at `t` takes over. Its value is the left limit, overridden by
  /// animations listed earlier that begin exactly at `t` (at their start: a `set` at `t`
  /// counts); its velocity is the left limit's: an animation replaced at its first instant never
  /// shows, so it passes on no momentum of its own (a tween at `t` replaced by a spring at `t`
  /// leaves the spring the velocity the property arrived with).
  case handOver
}

/// The animations of every (layer, property) of a scene, as ordered tracks of segments that
/// answer value and velocity analytically at any time, with explicit left and right limits.
///
/// The template compiler reads current values and velocities here instead of rendering the
/// scene it is compiling: a look-up is a binary search per name that writes the same state
/// (`position`, `positionX`, `positionY`) plus at most one curve evaluation per name, so
/// compiling `n` animations costs `O(n log n)` search steps and `O(n)` curve evaluations.
///
///     var tracks = PropertyTracks(layers: scene.layers)
///     tracks.append(.position, layerID: "card", curve: AnyAnimationCurve(spring), begin: 1)
///     tracks.velocity(of: .position, layerID: "card", at: 1.5, limit: .left)
package struct PropertyTracks: Sendable {
  /// Layers as written (before any animation), by id.
  private var base: [String: Layer] = [:]
  /// Segments per layer id and property name, in begin order.
  private(set) var segments: [String: [String: [any TrackSegment]]] = [:]
  /// The reach of every segment of ``segments``, in the same places (``TrackReach``).
  private var reaches: [String: [String: TrackReach]] = [:]
  private var nextOrder = 0
  /// Curve evaluations made by look-ups so far (value and velocity reads of segments); the
  /// compile-cost tests check that it grows linearly with the number of animations.
  package private(set) var curveEvaluations = 0
  /// Segments the look-ups asked whether they apply (``active(_:layerID:at:limit:)``), counted as
  /// ``curveEvaluations`` is: a segment that does not hold after its end is passed over.
  package private(set) var segmentLooks = 0

  /// Tracks for the layer tree `layers` (every layer, at any depth, masks and their sublayers
  /// included, by its id: the first in tree order where two share one).
  package init(layers: [Layer]) {
    for layer in LayersInTreeOrder(layers) where base[layer.id] == nil { base[layer.id] = layer }
  }

  /// The layer `id` as written, before any animation.
  package func layer(_ id: String) -> Layer? { base[id] }

  /// Adds an animation of `property` on `layerID` that begins at scene time `begin`; later
  /// appends win over earlier ones where both apply, as in ``Scene/animations``.
  package mutating func append<V: Animatable>(
    _ property: LayerProperty<V>, layerID: String, curve: AnyAnimationCurve<V>, begin: Double
  ) {
    let segment = CurveSegment(property: property, curve: curve, begin: begin, order: nextOrder)
    nextOrder += 1
    segments[layerID, default: [:]][property.name, default: []].append(segment)
    reaches[layerID, default: [:]][property.name, default: TrackReach()].append(segment.reach)
  }

  /// Adds the segment `make` builds from its list position (a ``PropertyLink``'s).
  mutating func appendSegment(layerID: String, name: String, _ make: (Int) -> any TrackSegment) {
    let segment = make(nextOrder)
    segments[layerID, default: [:]][name, default: []].append(segment)
    reaches[layerID, default: [:]][name, default: TrackReach()].append(segment.reach)
    nextOrder += 1
  }

  /// Removes the animations of `name` on `layerID` that begin after `t` (a later entry
  /// interrupted the loop they belong to). Segments are in begin order, so they are the last ones.
  package mutating func removeSegments(layerID: String, name: String, beginningAfter t: Double) {
    // Later by more than the boundary tolerance, as ``FlickMotion/MediaTiming/hasReached(_:at:leftLimit:)``
    // decides every start: a segment beginning a few ulps after `t` begins at `t`.
    guard let list = segments[layerID]?[name], list.contains(where: { !MediaTiming.hasReached($0.begin, at: t) })
    else { return }
    let kept = list.filter { MediaTiming.hasReached($0.begin, at: t) }
    segments[layerID]?[name] = kept
    reaches[layerID]?[name] = TrackReach(kept.map { $0.reach })
  }

  /// The begin time of the last animation of `name` on `layerID`, if any.
  package func lastBegin(layerID: String, name: String) -> Double? {
    segments[layerID]?[name]?.last?.begin
  }

  /// The value and velocity of `property` on `layerID` at `t` from `limit`, without counting
  /// the evaluations (for curves that replay a track while frames render).
  package func state<V: Animatable>(
    of property: LayerProperty<V>, layerID: String, at t: Double, limit: TrackLimit = .right
  ) -> (value: V, velocity: V) {
    let read = read(property, layerID: layerID, at: t, limit: limit, value: true, velocity: true)
    return (read.value, read.velocity)
  }

  /// The value of `property` on `layerID` at scene time `t`, read from `limit`.
  package mutating func value<V: Animatable>(
    of property: LayerProperty<V>, layerID: String, at t: Double, limit: TrackLimit = .right
  ) -> V {
    let read = read(property, layerID: layerID, at: t, limit: limit, value: true, velocity: false)
    curveEvaluations += read.evaluations
    segmentLooks += read.looks
    return read.value
  }

  /// The velocity of `property` on `layerID` at scene time `t` (units per second), read from
  /// `limit`; zero where nothing moves it.
  package mutating func velocity<V: Animatable>(
    of property: LayerProperty<V>, layerID: String, at t: Double, limit: TrackLimit = .right
  ) -> V {
    let read = read(property, layerID: layerID, at: t, limit: limit, value: false, velocity: true)
    curveEvaluations += read.evaluations
    segmentLooks += read.looks
    return read.velocity
  }

  /// The value and the velocity (each when asked for; zero otherwise) of `property` on `layerID`
  /// at `t` from `limit`, from one look-up of the segments that apply, and the segment reads made.
  /// The value is the layer as written with each applying segment's value written over it in
  /// list order; the velocity starts at zero for every name sharing the state, then each segment
  /// writes its own through its property, so a `positionX` segment moves only `position.x`.
  private func read<V: Animatable>(
    _ property: LayerProperty<V>, layerID: String, at t: Double, limit: TrackLimit, value wantsValue: Bool,
    velocity wantsVelocity: Bool
  ) -> (value: V, velocity: V, evaluations: Int, looks: Int) {
    guard var layer = base[layerID] else { return (.zero, .zero, 0, 0) }
    var looks = 0
    let parts = active(property.name, layerID: layerID, at: t, limit: limit, looks: &looks)
    // A hand-over's velocity is the left limit's (``TrackLimit/handOver``).
    let velocityParts =
      wantsVelocity && limit == .handOver
      ? active(property.name, layerID: layerID, at: t, limit: .left, looks: &looks)
      : parts
    // The layer carrying velocities, read when they are asked for and something moves the state.
    let movesVelocity = wantsVelocity && !velocityParts.isEmpty
    var carrier = layer
    if movesVelocity {
      for name in AnyLayerProperty.sameState(as: property.name) {
        AnyLayerProperty.named(name)?.writeZero(into: &carrier)
      }
    }
    if wantsValue {
      for (segment, local, side) in parts {
        segment.writeValue(into: &layer, at: local, limit: side, in: self, time: t)
      }
    }
    if movesVelocity {
      for (segment, local, side) in velocityParts {
        segment.writeVelocity(into: &carrier, at: local, limit: side, in: self, time: t)
      }
    }
    return (
      wantsValue ? property.read(layer) : .zero, movesVelocity ? property.read(carrier) : .zero,
      (wantsValue ? parts.count : 0) + (movesVelocity ? velocityParts.count : 0), looks
    )
  }

  /// The segments that decide the state of `name` at `t`: for each name writing that state, the
  /// last one applied by then, in list order, with its local time and the side to read it from.
  /// Names that write none of what `name` reads (`positionY` for `positionX`) are skipped.
  func active(_ name: String, layerID: String, at t: Double, limit: TrackLimit)
    -> [(any TrackSegment, Double, TrackLimit)]
  {
    var looks = 0
    return active(name, layerID: layerID, at: t, limit: limit, looks: &looks)
  }

  /// ``active(_:layerID:at:limit:)``, adding to `looks` the segments asked whether they apply.
  func active(_ name: String, layerID: String, at t: Double, limit: TrackLimit, looks: inout Int)
    -> [(any TrackSegment, Double, TrackLimit)]
  {
    guard let byName = segments[layerID] else { return [] }
    var found: [(any TrackSegment, Double, TrackLimit)] = []
    for related in AnyLayerProperty.overlapping(name) {
      guard let list = byName[related], !list.isEmpty else { continue }
      // The first index whose begin is after t (at or after t for a strict left limit), a begin
      // within the boundary tolerance of t being at t (``MediaTiming/hasReached(_:at:leftLimit:)``).
      var lo = 0
      var hi = list.count
      while lo < hi {
        let mid = (lo + hi) / 2
        if MediaTiming.hasReached(list[mid].begin, at: t, leftLimit: limit == .left) { lo = mid + 1 } else { hi = mid }
      }
      let reach = reaches[layerID]?[related]
      var i = lo - 1
      while i >= 0 {
        // The segments that ended for good before t are passed over together.
        if let reach {
          guard let next = reach.lastIndex(atMost: i, reaching: t) else { break }
          i = next
        }
        let s = list[i]
        let local = s.localTime(at: t)
        let side: TrackLimit = limit != .right && local > 0 ? .left : .right
        looks += 1
        if s.isApplied(at: local, limit: side) {
          found.append((s, local, side))
          break
        }
        i -= 1
      }
    }
    return found.sorted { $0.0.order < $1.0.order }
  }
}

/// One animation in a ``PropertyTracks`` track.
protocol TrackSegment: Sendable {
  var begin: Double { get }
  /// The curve's active length, seconds.
  var duration: Double { get }
  /// Position in the scene's animation list (later wins).
  var order: Int { get }
  /// The latest scene time at which the segment may apply (``isApplied(at:limit:)``): infinity
  /// unless it stops applying for good after its end (a `removed` or `backwards` fill); asked
  /// after it, it is not applied, whatever the side.
  var reach: Double { get }
  func isApplied(at local: Double, limit: TrackLimit) -> Bool
  /// Writes the value at `local` (scene time `t`); a link reads its source from `tracks`.
  func writeValue(
    into layer: inout Layer, at local: Double, limit: TrackLimit, in tracks: PropertyTracks, time t: Double)
  func writeVelocity(
    into layer: inout Layer, at local: Double, limit: TrackLimit, in tracks: PropertyTracks, time t: Double)
  /// The scene time after which the segment no longer changes (`begin + duration` for a curve).
  func settleTime(in tracks: PropertyTracks) -> Double
  /// The property a link segment reads (nil for a curve).
  var sourceRead: (layerID: String, name: String)? { get }
  /// Where its value may jump or turn after scene time `t` (`forward`) or before it (``CurveTurns``).
  func turns(at t: Double, forward: Bool, in tracks: PropertyTracks) -> CurveTurns
}

extension TrackSegment {
  /// Local time at scene time `t` (``LayerAnimation/localTime(at:begin:duration:)``).
  func localTime(at t: Double) -> Double {
    LayerAnimation.localTime(at: t, begin: begin, duration: duration)
  }
}

struct CurveSegment<V: Animatable>: TrackSegment {
  let property: LayerProperty<V>
  let curve: AnyAnimationCurve<V>
  let begin: Double
  let order: Int
  var duration: Double { curve.duration }

  /// Past its end a curve's timing is in its after phase, where its fill applies it or not
  /// whatever the time: asked once, a second past the end. A segment that does not hold reaches
  /// its end plus a margin far above the rounding of local times (``localTime(at:)``).
  var reach: Double {
    let d = duration
    guard d.isFinite, d >= 0, begin.isFinite else { return .infinity }
    let past = d + 1 + abs(d)
    if curve.isApplied(at: past) || curve.isApplied(at: past.nextDown) { return .infinity }
    return begin + d + 1e-6 * (1 + abs(begin) + abs(d))
  }

  func isApplied(at local: Double, limit: TrackLimit) -> Bool {
    curve.isApplied(at: CurveLimit.time(local, limit))
  }

  func writeValue(
    into layer: inout Layer, at local: Double, limit: TrackLimit, in tracks: PropertyTracks, time t: Double
  ) {
    property.write(&layer, CurveLimit.value(curve, at: local, limit))
  }

  func writeVelocity(
    into layer: inout Layer, at local: Double, limit: TrackLimit, in tracks: PropertyTracks, time t: Double
  ) {
    property.write(&layer, CurveLimit.velocity(curve, at: local, limit))
  }

  func settleTime(in tracks: PropertyTracks) -> Double { begin + duration }
  var sourceRead: (layerID: String, name: String)? { nil }
}

/// Left and right limits of a curve at a local time, from the `AnimationCurve` contract: the
/// right limit is `value(at:)` / `velocity(at:)`, the left one `value(before:)` /
/// `velocity(before:)` (at `duration`, the motion arriving there, not the hold).
enum CurveLimit {
  /// The local time a fill-mode check from `limit` looks at. A left limit looks before `local`
  /// by more than the boundary tolerance: a fill-mode check reads the right side, where a begin
  /// within that tolerance has been reached, so one ulp before a curve's own delay would count
  /// as its start and a delayed curve would hide the motion arriving at its start.
  static func time(_ local: Double, _ limit: TrackLimit) -> Double {
    limit != .right && local > 0 ? local - 2 * MediaTiming.boundaryTolerance(local, local) : local
  }

  static func value<C: AnimationCurve>(_ curve: C, at local: Double, _ limit: TrackLimit) -> C.Value {
    limit != .right ? curve.value(before: local) : curve.value(at: local)
  }

  static func velocity<C: AnimationCurve>(_ curve: C, at local: Double, _ limit: TrackLimit) -> C.Value {
    limit != .right ? curve.velocity(before: local) : curve.velocity(at: local)
  }
}
