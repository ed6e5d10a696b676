import FlickMotion
import FlickScene

extension Template {
  /// The keys of `instanceJitter`.
  static let instanceJitterKeys = ["seed", "position", "scale", "rotation", "opacity", "delay"]

  /// `instanceJitter: { seed, position: [dx, dy], scale, rotation, opacity, delay }`: seeded
  /// per-instance variation of a replicator (``InstanceJitter``); every amplitude defaults to 0.
  static func decodeInstanceJitter(_ node: TemplateNode) throws(TemplateError) -> InstanceJitter {
    let o = try node.object(allowed: instanceJitterKeys)
    guard let seedNode = o["seed"] else {
      throw node.error("'instanceJitter' needs a 'seed' (a whole number): the same seed gives the same instances")
    }
    var j = InstanceJitter(seed: UInt64(try seedNode.int(in: 0...Self.maximumJitterSeed)))
    if let n = o["position"] {
      let p: Point
      if case .number = n.value.kind {
        let a = try n.double(in: Self.lengthRange)
        p = Point(x: a, y: a)
      } else {
        p = try n.point()
      }
      for v in [p.x, p.y] where !Self.lengthRange.contains(v) {
        throw n.error("expected amplitudes in 0…100000 points, found \(TemplateNode.format(v))")
      }
      j.position = p
    }
    if let n = o["scale"] { j.scale = try n.double(in: 0...0.99) }
    if let n = o["rotation"] {
      j.rotation = try n.radians()
      guard (0...(2 * Double.pi)).contains(j.rotation) else {
        throw n.error("expected an angle in 0…2π (\"0deg\"…\"360deg\"), found \(TemplateNode.format(j.rotation))")
      }
    }
    if let n = o["opacity"] { j.opacity = try n.double(in: 0...1) }
    if let n = o["delay"] { j.delay = try n.double(in: TemplateNode.seconds) }
    return j
  }

  /// The largest seed: 2⁵³, the largest whole number every JSON reader keeps exactly.
  static let maximumJitterSeed = 1 << 53
}
