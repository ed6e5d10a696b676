import FlickMotion
import FlickScene

/// Places an entry with `when: { target, property, crosses, direction }`: it begins at the first
/// instant, at or after the start its placement gives (`at` / `after` / `with`, the group's or
/// the step's start; 0 at the top level), at which the property's compiled track reaches the
/// level from the other side, plus `delay`. The crossing is found on the track itself
/// (``PropertyTracks/firstCrossing(of:direction:from:to:breakpoints:turns:budget:read:)``), so it is exact
/// and the same at any frame rate. Only animations listed above the entry count; a later entry
/// that would change the track before the crossing is refused (``TimelineOutput/checkCrossingReads``).
struct CrossingPlacement {
  /// Keys of the `when` object.
  static let keys = ["target", "property", "crosses", "direction"]
  /// The longest stretch searched when the track never settles and the scene has no fixed length, seconds.
  static let longestSearch = 3600.0

  /// The entry's layer ids and the scene's length.
  let schedule: TimelineSchedule

  /// The begin time of the entry `o` (at `node`, placed by `placement`) whose `when` member is `whenNode`.
  func begin(
    _ whenNode: TemplateNode, entry o: [String: TemplateNode], _ node: TemplateNode,
    _ placement: TimelineSchedule.Placement, into output: inout TimelineOutput
  ) throws(TemplateError) -> Double {
    guard case .object = whenNode.value.kind else {
      throw whenNode.expected("a crossing like { target: \"card\", property: \"positionY\", crosses: 80 }")
    }
    let limits = whenNode.context.limits
    guard output.crossings.count < limits.maximumCrossingEntries else {
      throw whenNode.error(
        "the template waits for more than \(limits.maximumCrossingEntries) crossings ('when' entries, each "
          + "repeat of one counted); each searches a track, so wait for fewer")
    }
    let w = try whenNode.object(allowed: Self.keys)
    guard let targetNode = w["target"] else { throw whenNode.error("'when' needs 'target': the layer to watch") }
    guard let propertyNode = w["property"] else {
      throw whenNode.error("'when' needs 'property': the property to watch (\"positionY\", \"position.y\", …)")
    }
    guard let levelNode = w["crosses"] else { throw whenNode.error("'when' needs 'crosses': the value to wait for") }
    let layerID = try schedule.layerID(targetNode)
    let written = try propertyNode.string()
    let watched = try CrossedProperty(written, propertyNode, layer: output.layer(layerID), layerID: layerID)
    let level = watched.isAngle ? try levelNode.radians() : try levelNode.double()
    let direction =
      try w["direction"].map { n throws(TemplateError) in
        CrossingDirection(rawValue: try n.string(oneOf: CrossingDirection.allCases.map(\.rawValue)))
      } ?? nil
    var search = o
    search["delay"] = nil
    let from = try schedule.beginTime(search, node, placement)
    let tracks = output.tracks
    let settle = tracks.settleTime(of: watched.trackName, layerID: layerID)
    let to = max(from, min(settle, schedule.horizon ?? .infinity, from + Self.longestSearch))
    var visited = 0
    let breaks = tracks.breakpoints(of: watched.trackName, layerID: layerID, in: from...to, visited: &visited)
    // The settle time walked the same segments as the breakpoints.
    output.crossingBudget -= 2 * visited
    func find(_ d: CrossingDirection?, _ budget: inout Int) -> CrossingSearch {
      PropertyTracks.firstCrossing(
        of: level, direction: d, from: from, to: to, breakpoints: breaks,
        turns: { tracks.turns(of: watched.trackName, layerID: layerID, at: $0, forward: true) }, budget: &budget
      ) { t, side in watched.read(tracks, layerID, t, side) }
    }
    let found = find(direction, &output.crossingBudget)
    if let stopped = found.stoppedAt {
      throw whenNode.error(
        "finding this crossing passes the cap of \(limits.maximumCrossingSamples) track samples for all the "
          + "template's 'when' entries together (each searches in steps of at most 1/1024 s; this one had searched from "
          + "\(TemplateNode.format(Self.rounded(from))) s to \(TemplateNode.format(Self.rounded(stopped))) s of "
          + "\(TemplateNode.format(Self.rounded(to))) s); wait for a crossing that comes sooner, or for fewer")
    }
    guard let crossing = found.crossing else {
      let other = direction == nil ? nil : find(nil, &output.crossingBudget).crossing
      throw levelNode.error(
        Self.neverMessage(
          "\(quoted: layerID).\(quoted: written)", level: level, direction: direction, from: from, range: found.range,
          other: other))
    }
    var begin = crossing.time
    if let n = o["delay"] { begin += try n.double(in: TemplateNode.signedSeconds) }
    guard begin >= 0 else {
      throw (o["delay"] ?? node).error(
        "this entry would start at \(TemplateNode.format(begin)) s, before the scene starts")
    }
    output.record(
      ResolvedCrossing(
        path: node.path, layerID: layerID, property: written, trackName: watched.trackName, level: level,
        direction: direction, searchFrom: from, time: crossing.time, isUp: crossing.isUp))
    return begin
  }

  /// Why no crossing was found: the property's range from the search start, and the crossing
  /// the other way when only the direction was wrong.
  private static func neverMessage(
    _ what: String, level: Double, direction: CrossingDirection?, from: Double, range: ClosedRange<Double>,
    other: (time: Double, isUp: Bool)?
  ) -> String {
    let going = direction.map { " going \($0.rawValue)" } ?? ""
    var message =
      "\(quoted: what) never crosses \(TemplateNode.format(rounded(level)))\(quoted: going) from "
      + "\(TemplateNode.format(rounded(from))) s on"
    if let other {
      return message
        + "; it crosses it going \(other.isUp ? "up" : "down") at \(TemplateNode.format(rounded(other.time))) s"
    }
    if range.lowerBound == range.upperBound {
      message += ": it stays at \(TemplateNode.format(rounded(range.lowerBound)))"
    } else {
      message +=
        ": it moves within \(TemplateNode.format(rounded(range.lowerBound)))…"
        + "\(TemplateNode.format(rounded(range.upperBound)))"
    }
    return message + " (only the animations listed above this entry count: list the entries that move it first)"
  }

  /// A number for messages, rounded to 4 decimals.
  static func rounded(_ v: Double) -> Double { (v * 10_000).rounded() / 10_000 }
}
