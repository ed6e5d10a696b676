import FlickMotion
import FlickScene

extension Template {
  /// `CAReplicatorLayer`'s keys, accepted on any layer (and on `type: "replicator"`).
  static let replicatorKeys = [
    "instanceCount", "instanceTransform", "instanceDelay", "instanceColor", "instanceRedOffset",
    "instanceGreenOffset", "instanceBlueOffset", "instanceAlphaOffset", "instanceJitter",
  ]
  /// Backdrop material keys: a named `material` and/or explicit `backdrop` numbers.
  static let backdropKeys = ["material", "backdrop"]

  /// Reads the replicator keys of a layer object into `layer.replicator`.
  static func decodeReplicator(_ o: [String: TemplateNode], into layer: inout Layer) throws(TemplateError) {
    var r = layer.replicator
    if let n = o["instanceCount"] { r.instanceCount = try n.int(in: 0...LayerReplicator.maximumInstanceCount) }
    if let n = o["instanceTransform"] { r.instanceTransform = try decodeTransform(n) }
    if let n = o["instanceDelay"] { r.instanceDelay = try n.double(in: TemplateNode.signedSeconds) }
    if let n = o["instanceColor"] { r.instanceColor = try n.color() }
    if let n = o["instanceRedOffset"] { r.instanceRedOffset = try n.double(in: -1...1) }
    if let n = o["instanceGreenOffset"] { r.instanceGreenOffset = try n.double(in: -1...1) }
    if let n = o["instanceBlueOffset"] { r.instanceBlueOffset = try n.double(in: -1...1) }
    if let n = o["instanceAlphaOffset"] { r.instanceAlphaOffset = try n.double(in: -1...1) }
    if let n = o["instanceJitter"] { r.instanceJitter = try decodeInstanceJitter(n) }
    layer.replicator = r
  }

  /// Reads `material` (a preset name) and `backdrop` (`{ blur, saturation, tint }`, each
  /// overriding the preset's number, or the `regular` material's when there is no preset).
  static func decodeBackdrop(_ o: [String: TemplateNode], into layer: inout Layer) throws(TemplateError) {
    guard o["material"] != nil || o["backdrop"] != nil else { return }
    var b = LayerBackdrop(.regular)
    if let n = o["material"] {
      let name = try n.string(oneOf: LayerBackdrop.Material.allCases.map(\.rawValue))
      b = LayerBackdrop(LayerBackdrop.Material(rawValue: name) ?? .regular)
    }
    if let n = o["backdrop"] {
      let m = try n.object(allowed: ["blur", "saturation", "tint"])
      if let v = m["blur"] { b.blurRadius = try v.double(in: 0...250) }
      if let v = m["saturation"] { b.saturation = try v.double(in: 0...4) }
      if let v = m["tint"] { b.tint = try v.color() }
    }
    layer.backdrop = b
  }
}
