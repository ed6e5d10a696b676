import FlickMotion
import FlickScene

extension TimelineCompiler {
  /// The most iterations all repeats of one template may play together, nested ones counted
  /// once per iteration of each enclosing repeat: a repeat of delays compiles no animation, so
  /// the animation limit alone would let `repeat: 100000` inside `repeat: 100000` run for hours.
  static let iterationLimit = 100_000

  private static let iterationMessage =
    "the template's repeats play more than \(iterationLimit) iterations in all (nested repeats multiply); repeat fewer times"

  /// Plays `once` (a group's or sequence's children from a start time) `repeat` times, or
  /// forever, each iteration starting when the previous one has settled (completion-driven, like
  /// a completion block that starts the next run); with `autoreverses` each iteration plays
  /// forward and then backward, the same motion in reverse, value and velocity mirrored.
  ///
  /// - `repeat`: a count ≥ 1 (1 = once) or `"forever"` (until the scene ends; needs a fixed
  ///   canvas duration). Every iteration takes over from where the previous one left the layers.
  mutating func repeating(
    _ o: [String: TemplateNode], _ node: TemplateNode, begin: Double,
    _ once: (inout TimelineCompiler, Double) throws(TemplateError) -> Span
  ) throws(TemplateError) -> Span {
    let autoreverses = try o["autoreverses"]?.bool() ?? false
    var count: Int? = 1
    if let r = o["repeat"] {
      if case .number = r.value.kind {
        count = try r.int(in: 1...100_000)
      } else {
        _ = try r.word(oneOf: ["forever"], orElse: "a count in 1…100000")
        guard schedule.horizon != nil else {
          throw r.error(
            "'repeat: \"forever\"' needs a canvas duration in seconds (with \"auto\" the scene would never end)")
        }
        count = nil
      }
    }
    guard count != 1 || autoreverses else { return try once(&self, begin) }
    // Every iteration of the enclosing repeats plays this one again: refuse a product past the
    // limit before unrolling any of it (nested repeats of 100,000 took seconds to refuse).
    let enclosing = schedule.repeatMultiplier
    if let count {
      let (planned, overflow) = count.multipliedReportingOverflow(by: enclosing)
      guard !overflow, schedule.repeatIterations + planned <= Self.iterationLimit else {
        throw (o["repeat"] ?? node).error(Self.iterationMessage)
      }
    }
    defer { schedule.repeatMultiplier = enclosing }
    let idsBefore = schedule.spanIDs
    var cursor = begin
    var iteration = 0
    while true {
      if iteration > 0 { schedule.forgetSpans(except: idsBefore) }  // ids inside name this iteration's entries
      let logStart = output.addedLog.count
      // Every run after the first (and every backward half) is a rerun: a later entry on one
      // of its properties interrupts the loop there (``AnimationOrder``).
      if iteration > 0 { output.rerunning += 1 }
      let span: Span
      schedule.repeatMultiplier = enclosing * (count.map { $0 - iteration } ?? 1)
      do {
        span = try once(&self, cursor)
      } catch {
        if iteration > 0 { output.rerunning -= 1 }
        throw error
      }
      if iteration > 0 { output.rerunning -= 1 }
      guard span.end.isFinite else {
        throw node.error("a repeated group or sequence must end: something in it repeats forever")
      }
      let period = span.end - cursor
      guard period > 0 else { throw (o["repeat"] ?? node).error("a repeated group or sequence must take some time") }
      cursor = span.end
      if autoreverses {
        output.rerunning += 1
        defer { output.rerunning -= 1 }
        try output.playBackwards(output.addedLog[logStart...], mirror: span.end, period: period, node: node)
        cursor += period
      }
      iteration += 1
      schedule.repeatIterations += 1
      guard schedule.repeatIterations <= Self.iterationLimit else {
        throw (o["repeat"] ?? node).error(Self.iterationMessage)
      }
      guard output.animations.count <= output.animationLimit else {
        throw (o["repeat"] ?? node).error(
          "this repeat unrolls into more than \(output.animationLimit) animations; repeat fewer times")
      }
      if let count, iteration >= count { break }
      if count == nil, let horizon = schedule.horizon, cursor >= horizon { break }
    }
    return Span(begin: begin, end: count == nil ? .infinity : cursor)
  }

}

/// A property's motion over `mirror − duration … mirror`, played backwards from `mirror`: an
/// autoreversing repeat. Value at local `τ` is the tracks' value at `mirror − τ`; velocity is
/// mirrored (negated). Read from the tracks as compiled when the iteration ended.
struct ReversedTrackCurve<Value: Animatable>: AnimationCurve {
  let tracks: PropertyTracks
  let property: LayerProperty<Value>
  let layerID: String
  let mirror: Double
  let duration: Double

  // Reversing time swaps the sides: just after τ is just before mirror − τ.
  func value(at t: Double) -> Value {
    tracks.state(of: property, layerID: layerID, at: mirror - min(max(t, 0), duration), limit: .left).value
  }
  func velocity(at t: Double) -> Value {
    guard t < duration else { return .zero }
    return tracks.state(of: property, layerID: layerID, at: mirror - max(t, 0), limit: .left).velocity.scaled(by: -1)
  }
  func value(before t: Double) -> Value {
    guard t > 0 else { return value(at: 0) }
    return tracks.state(of: property, layerID: layerID, at: mirror - min(t, duration), limit: .right).value
  }
  func velocity(before t: Double) -> Value {
    guard t > 0 else { return velocity(at: 0) }
    return tracks.state(of: property, layerID: layerID, at: mirror - min(t, duration), limit: .right).velocity.scaled(
      by: -1)
  }
  // Backwards in time: the track's break (or the begin or end of one of its animations) before
  // mirror − t comes next.
  func turns(after t: Double) -> CurveTurns {
    let at = mirror - max(t, 0)
    guard at > mirror - duration else { return .none(forward: true) }
    let c = tracks.turns(of: property.name, layerID: layerID, at: at, forward: false)
    let edge = tracks.breakpoints(of: property.name, layerID: layerID, in: (mirror - duration)...at).last { $0 < at }
    let next = max(c.next, edge ?? -.infinity, mirror - duration)
    return CurveTurns(next: mirror - next, spacing: c.spacing)
  }
  func turns(before t: Double) -> CurveTurns {
    let at = mirror - min(t, duration)
    guard at < mirror else { return .none(forward: false) }
    let c = tracks.turns(of: property.name, layerID: layerID, at: at, forward: true)
    let edge = tracks.breakpoints(of: property.name, layerID: layerID, in: at...mirror).first { $0 > at }
    let next = min(c.next, edge ?? .infinity, mirror)
    return CurveTurns(next: mirror - next, spacing: c.spacing)
  }
}
