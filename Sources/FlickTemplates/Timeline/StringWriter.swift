import FlickMotion
import FlickScene

/// Writes a text layer's `string` track, from `set: { string: … }` and `animate: { string: … }`:
/// strings change at instants and hold (they do not interpolate).
struct StringWriter {
  /// Keys of a `string` animation object (`string: { keyframes: […], duration: 1.2 }`).
  static let stringSpecKeys = ["to", "keyframes", "duration", "delay"]

  /// The text layer.
  let layerID: String

  /// `set: { string: "Following" }`: the text layer shows `string` from `begin` on, as
  /// `CATextLayer.string` set in a transaction. Returns `begin`.
  func set(_ node: TemplateNode, begin: Double, into output: inout TimelineOutput) throws(TemplateError) -> Double {
    let strings = [try textString(node, layer: output.layer(layerID))]
    output.remember(strings, layerID: layerID)
    try output.add(
      LayerProperty.string(choosingFrom: strings), layerID: layerID,
      curve: AnyAnimationCurve(ConstantCurve(value: 0.0)),
      begin: begin, node: node)
    return begin
  }

  /// `animate: { string: … }`: a string (changes at the entry's start, or `delay` after it), or
  /// `{ keyframes: ["Follow", "Following"] | { values: […], keyTimes: […] }, duration, delay }`:
  /// each string holds from its key time to the next (After Effects' hold keyframes of source
  /// text; Core Animation's `discrete` mode). Returns the end time.
  func animate(_ node: TemplateNode, defaults: MotionDefaults, begin: Double, into output: inout TimelineOutput)
    throws(TemplateError) -> Double
  {
    guard case .object = node.value.kind else { return try set(node, begin: begin, into: &output) }
    let o = try node.object(allowed: Self.stringSpecKeys)
    let start = begin + (try o["delay"]?.double(in: TemplateNode.seconds) ?? 0)
    if let to = o["to"] {
      if let k = o["keyframes"] { throw k.error("give 'to' or 'keyframes' for a string, not both") }
      return try set(to, begin: start, into: &output)
    }
    guard let keyframesNode = o["keyframes"] else {
      throw node.error("a string changes with 'to' (at once) or 'keyframes' of strings (each at its key time)")
    }
    var valuesNode = keyframesNode
    var keyTimes: [Double]?
    if case .object = keyframesNode.value.kind {
      let k = try keyframesNode.object(allowed: ["values", "keyTimes", "mode"])
      guard let v = k["values"] else { throw keyframesNode.error("keyframes of strings need 'values'") }
      valuesNode = v
      if let m = k["mode"], try m.string() != "discrete" {
        throw m.error("strings change at their key times and do not interpolate: the only mode is \"discrete\"")
      }
      if let t = k["keyTimes"] {
        var times: [Double] = []
        for item in try t.array() { times.append(try item.double(in: 0...1)) }
        keyTimes = times
      }
    }
    var strings: [String] = []
    for item in try valuesNode.array() { strings.append(try textString(item, layer: output.layer(layerID))) }
    guard !strings.isEmpty else { throw valuesNode.expected("at least one string") }
    output.remember(strings, layerID: layerID)
    let duration = try o["duration"]?.double(in: TemplateNode.seconds) ?? defaults.duration ?? 0.4
    let curve: KeyframeAnimation<Double>
    do {
      curve = try KeyframeAnimation(
        values: strings.indices.map(Double.init), keyTimes: keyTimes, calculationMode: .discrete, duration: duration)
    } catch {
      throw keyframesNode.error(error.message)
    }
    try output.add(
      LayerProperty.string(choosingFrom: strings), layerID: layerID, curve: AnyAnimationCurve(curve), begin: start,
      node: node)
    return start + duration
  }

  /// A string for the text layer, within the text length limit.
  private func textString(_ node: TemplateNode, layer: Layer?) throws(TemplateError) -> String {
    guard let layer, layer.text != nil else {
      throw node.error("'string' is a property of text layers, but '\(quoted: layerID)' is not a text layer")
    }
    let s = try node.string()
    // Unicode scalars, as a text layer's own string is counted.
    let limit = node.context.limits.maximumTextLength
    let count = s.unicodeScalars.count
    guard count <= limit else {
      throw node.error(
        "the text is \(count) characters (Unicode scalars, marks included), more than the \(limit) a text layer may have"
      )
    }
    return s
  }
}
