import FlickMotion
import FlickScene

/// A `when` entry's crossing as compiled: what it waited for and when that happened (what
/// `flick info` lists).
package struct ResolvedCrossing: Sendable, Equatable {
  /// The JSON path of the waiting entry (`timeline[2]`).
  package var path: String
  /// The layer whose property was crossed (qualified inside a component: `wifi/knob`).
  package var layerID: String
  /// The property as written (`positionY`, `position.y`, `size.height`).
  package var property: String
  /// The catalogue name whose track was read (`positionY`, `size`).
  package var trackName: String
  /// The level crossed, in the property's unit (radians for angles).
  package var level: Double
  /// The direction asked for, nil for either.
  package var direction: CrossingDirection?
  /// Scene time the search started from, seconds.
  package var searchFrom: Double
  /// Scene time of the crossing, seconds.
  package var time: Double
  /// Whether the value went up through the level.
  package var isUp: Bool
}

extension TimelineOutput {
  /// Records `crossing`: later entries may not change the crossed track before its time.
  mutating func record(_ crossing: ResolvedCrossing) {
    crossings.append(crossing)
    let key = "\(crossing.layerID).\(crossing.trackName)"
    crossingEnds[key] = max(crossingEnds[key] ?? -.infinity, crossing.time)
    // What the track read through links (if the crossed property follows another) is fixed too.
    noteLinkReads(crossing.trackName, layerID: crossing.layerID, before: crossing.time)
  }

  /// Refuses an animation of `name` on `layerID` from `begin` that would change a track a
  /// `when` entry above already searched for its crossing: the crossing would move. Beginning
  /// exactly at the crossing is fine (the entry that waited may itself take the property over).
  /// The latest crossing of each track (``crossingEnds``) tells whether one is moved, so adding
  /// an animation costs the same however many crossings there are.
  func checkCrossingReads(_ name: String, layerID: String, begin: Double, node: TemplateNode) throws(TemplateError) {
    guard !crossings.isEmpty else { return }
    let related = AnyLayerProperty.overlapping(name)
    guard related.contains(where: { begin < crossingEnds["\(layerID).\($0)"] ?? -.infinity }) else { return }
    for c in crossings where c.layerID == layerID && related.contains(c.trackName) && begin < c.time {
      throw node.error(
        "this animation of \(quoted: layerID).\(quoted: name) starts at \(TemplateNode.format(begin)) s, but the "
          + "entry at \(quoted: c.path) waits for \(quoted: layerID).\(quoted: c.property) to cross "
          + "\(TemplateNode.format(c.level)) and found it at \(TemplateNode.format(c.time)) s from the animations "
          + "listed above it; list this entry above that one")
    }
  }
}
