import FlickMotion
import FlickScene

extension Template {
  /// Where a property lives in a layer object, derived from its catalogue row: its own layer key
  /// (`opacity`), a key inside `transform` (`transform.scale` → `transform: { scale }`), or, for a
  /// property without a layer key, where the state it is part of (`positionX` → `position`) or a
  /// part of it (`bounds` → `size`) is written. Nil when a layer object cannot write it.
  static func layerObjectPlace(of d: LayerPropertyDescriptor, depth: Int = 0) -> (key: String, inTransform: Bool)? {
    guard depth < 3 else { return nil }
    if let key = d.layerKey {
      guard key.hasPrefix("transform.") else { return (key, false) }
      return (String(key.dropFirst("transform.".count)), true)
    }
    if let root = d.partOf.flatMap(LayerPropertyDescriptor.named) {
      return layerObjectPlace(of: root, depth: depth + 1)
    }
    for part in LayerPropertyDescriptor.catalogue where part.partOf == d.name {
      if let place = layerObjectPlace(of: part, depth: depth + 1) { return place }
    }
    return nil
  }

  /// The catalogue row an unknown key of a layer object (or of its `transform`) names: a property
  /// name (`rotation`, `scaleXY`), one of its aliases (`transform.scale`), or a key of the
  /// `transform` object written outside it (`scale`, `translation`).
  static func catalogueRow(named key: String) -> LayerPropertyDescriptor? {
    if let d = LayerPropertyDescriptor.resolving(key) { return d }
    return LayerPropertyDescriptor.catalogue.first { $0.layerKey == "transform." + key }
  }

  /// Refuses a key of the layer object `node` that is not among `allowed` but names an animatable
  /// property that lives elsewhere, with a message pointing there: `scale` or `rotation` at the
  /// top level (they live in `transform: { … }`), `"transform.scale"` (the timeline's spelling),
  /// `positionX` (part of `position`). `inTransform` says `node` is a `transform` object. Other
  /// unknown keys are left to ``TemplateNode/object(allowed:)`` and its "did you mean".
  static func checkMisplacedKeys(_ node: TemplateNode, allowed: [String], inTransform: Bool = false)
    throws(TemplateError)
  {
    guard case .object(let members) = node.value.kind else { return }
    for member in members where !allowed.contains(member.key) {
      guard let d = catalogueRow(named: member.key), let place = layerObjectPlace(of: d) else { continue }
      let timeline = d.name == member.key ? "" : " (in the timeline: '\(quoted: d.name)')"
      let key = place.key
      let whereItLives: String
      switch (place.inTransform, inTransform) {
      case (true, true): whereItLives = "inside 'transform' it is '\(quoted: key)'"
      case (true, false): whereItLives = "it lives in the layer's transform: write transform: { \(quoted: key): … }"
      case (false, true): whereItLives = "it is not part of the transform: write '\(quoted: key)' on the layer itself"
      case (false, false):
        // The same key (a property of another layer kind is reported by the kind check).
        guard key != member.key else { continue }
        whereItLives = "write '\(quoted: key)' on the layer instead"
      }
      var message = "'\(quoted: member.key)' is not a key of \(inTransform ? "a 'transform'" : "a layer"): "
      message += whereItLives + timeline
      if let origin = member.value.origin { message += " (key from \(quoted: origin))" }
      let path = node.child(member.key, member.value).path
      throw TemplateError(file: node.file, path: path, line: member.line, column: member.column, message: message)
    }
  }
}
