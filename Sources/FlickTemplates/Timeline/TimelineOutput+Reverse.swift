import FlickMotion
import FlickScene

extension TimelineOutput {
  /// Adds, from `mirror` on, every (layer, property) that `added` animated, playing the state
  /// the tracks give it over `mirror − period … mirror` backwards.
  mutating func playBackwards(
    _ added: ArraySlice<(layerID: String, name: String)>, mirror: Double, period: Double, node: TemplateNode
  ) throws(TemplateError) {
    let snapshot = tracks
    var seen = Set<String>()
    currentEntryPath = node.path  // the repeat reads what it plays backwards (link reads are logged)
    for a in added where seen.insert("\(a.layerID).\(a.name)").inserted {
      noteLinkReads(a.name, layerID: a.layerID, before: mirror)
      if a.name == "string" {  // not in the catalogue: a text layer's strings, by index
        try backwards(stringProperty(of: a.layerID), a.layerID, snapshot, mirror, period, node)
        continue
      }
      guard let property = AnyLayerProperty.named(a.name) else { continue }
      switch property {
      case .double(let p): try backwards(p, a.layerID, snapshot, mirror, period, node)
      case .point(let p): try backwards(p, a.layerID, snapshot, mirror, period, node)
      case .size(let p): try backwards(p, a.layerID, snapshot, mirror, period, node)
      case .rect(let p): try backwards(p, a.layerID, snapshot, mirror, period, node)
      case .color(let p): try backwards(p, a.layerID, snapshot, mirror, period, node)
      case .colors(let p): try backwards(p, a.layerID, snapshot, mirror, period, node)
      }
    }
  }

  private mutating func backwards<V: Animatable>(
    _ p: LayerProperty<V>, _ layerID: String, _ snapshot: PropertyTracks, _ mirror: Double, _ period: Double,
    _ node: TemplateNode
  ) throws(TemplateError) {
    let curve = ReversedTrackCurve(tracks: snapshot, property: p, layerID: layerID, mirror: mirror, duration: period)
    try add(p, layerID: layerID, curve: AnyAnimationCurve(curve), begin: mirror, node: node)
  }
}
