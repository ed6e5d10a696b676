import FlickMotion
import FlickScene

/// Writes the `transition` of a `set` entry that changes a text layer's `string` or `number`:
/// `transition: { kind: "roll" | "fade" | "none", duration, curve | spring, countsDown }`. The
/// text changes at once, as without a transition; the change then plays as SwiftUI's numeric
/// content transition (``TextTransition``) through the layer's `transitionProgress`, which runs
/// from 0 to 1 with the transition's motion (Core Animation's default curve over 0.4 s unless
/// given), so `flick trace --property transitionProgress` shows it.
struct TextTransitionWriter {
  /// Keys of a `transition` object.
  static let keys = ["kind", "duration", "curve", "spring", "countsDown"]

  /// The text layer.
  let layerID: String

  /// The text `layerID` shows at `t` as an animation starting at `t` takes it over: its latest
  /// `string` or, when a `number` was written later, the number through the layer's format.
  static func shownText(_ layerID: String, at t: Double, in output: inout TimelineOutput) -> String {
    let base = output.layer(layerID)?.text
    let stringBegin = output.tracks.lastBegin(layerID: layerID, name: "string") ?? -.infinity
    let numberBegin = output.tracks.lastBegin(layerID: layerID, name: LayerProperty<Double>.number.name) ?? -.infinity
    if numberBegin > stringBegin {
      let value = output.currentValue(.number, layerID: layerID, at: t)
      return (base?.numberFormat ?? .integer).string(for: value)
    }
    let strings = output.textStrings[layerID] ?? [base?.string ?? ""]
    let index = output.currentValue(output.stringProperty(of: layerID), layerID: layerID, at: t)
    guard index.isFinite else { return base?.string ?? "" }
    return strings[Int(max(0, min(Double(strings.count - 1), index.rounded(.down))))]
  }

  /// Adds the transition from `old` (the text before the entry's change at `begin`) to what the
  /// layer shows after it; returns when it ends (`begin` for `kind: "none"` or no change).
  func write(_ node: TemplateNode, from old: String, begin: Double, into output: inout TimelineOutput)
    throws(TemplateError) -> Double
  {
    let o = try node.object(allowed: Self.keys)
    let kindName = try o["kind"]?.string(oneOf: TextTransition.Kind.allCases.map(\.rawValue) + ["none"]) ?? "roll"
    let duration = try o["duration"]?.double(in: TemplateNode.seconds)
    let motion = try TemplateMotion.decode(o)
    let new = Self.shownText(layerID, at: begin, in: &output)
    let countsDown: Bool
    if let n = o["countsDown"] {
      countsDown = try n.bool()
    } else if let a = TextTransition.numericValue(of: old), let b = TextTransition.numericValue(of: new) {
      countsDown = TextTransition.countsDown(from: a, to: b)
    } else {
      countsDown = false
    }
    guard let kind = TextTransition.Kind(rawValue: kindName), old != new else { return begin }
    let transition = TextTransition(from: old, to: new, kind: kind, countsDown: countsDown)
    let property = LayerProperty<Double>.textTransition(transition)
    let request = CurveRequest<Double>(
      handoff: Handoff(value: 0, velocity: 0, time: begin), to: 1, velocity: nil, threshold: property.threshold,
      motion: motion, duration: duration, timing: nil, node: node, property: property.name)
    let curve = try request.curve { n throws(TemplateError) in try n.double() }
    try output.add(property, layerID: layerID, curve: curve, begin: begin, node: node)
    return begin + curve.duration
  }
}
