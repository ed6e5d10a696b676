/// A named moment of a template's timeline: an entry with an `id`.
///
/// The id is qualified inside a component instance (`wifi/tap`); the marker holds when the entry
/// begins and when everything it started has settled. A repeated entry gives one marker per
/// iteration. `flick studio` shows them on its timeline.
package struct TimelineMarker: Sendable, Equatable {
  /// The entry's id (qualified by the component instance it plays in).
  package var name: String
  /// Scene time it begins, seconds.
  package var begin: Double
  /// Scene time its motion has settled, seconds (infinite for an entry that repeats forever).
  package var end: Double
}
