import FlickScene

extension Template {
  /// `motionBlur: { shutterAngle: 180, samples: 16 }` (either key may be left out), or `true`
  /// for those defaults and `false` for none.
  static func decodeMotionBlur(_ node: TemplateNode) throws(TemplateError) -> MotionBlur? {
    if case .bool(let on) = node.value.kind { return on ? MotionBlur() : nil }
    guard case .object = node.value.kind else {
      throw node.expected("true, false or an object like { shutterAngle: 180, samples: 16 }")
    }
    let o = try node.object(allowed: ["shutterAngle", "samples"])
    var blur = MotionBlur()
    if let n = o["shutterAngle"] {
      blur.shutterAngle = try n.double(in: MotionBlur.shutterAngles)
    }
    if let n = o["samples"] {
      blur.samples = try n.int(in: MotionBlur.sampleCounts)
    }
    return blur
  }
}
