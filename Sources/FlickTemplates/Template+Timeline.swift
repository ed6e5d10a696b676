import FlickMotion
import FlickScene

extension Template {
  /// Decodes one timeline entry; `scene` holds the animations before it, which give the start
  /// value when 'from' is omitted (the value the property has when the animation begins).
  static func decodeAction(_ node: TemplateNode, ids: Set<String>, scene: Scene) throws(TemplateError)
    -> LayerAnimation
  {
    let o = try node.object(allowed: ["target", "property", "from", "to", "at", "duration", "curve"])
    guard let targetNode = o["target"] else { throw node.error("an animation needs a 'target' layer id") }
    let target = try targetNode.string()
    guard ids.contains(target) else {
      var message = "no layer with id '\(target)'"
      if let guess = TemplateNode.closest(to: target, in: Array(ids).sorted()) { message += "; did you mean '\(guess)'?" }
      throw targetNode.error(message)
    }
    guard let propertyNode = o["property"] else { throw node.error("an animation needs a 'property'") }
    guard let toNode = o["to"] else { throw node.error("an animation needs a 'to' value") }
    let at = try o["at"]?.double(in: 0...3600) ?? 0
    let duration = try o["duration"]?.double(in: 0...3600) ?? 0.4
    let curve = try o["curve"].map { n throws(TemplateError) in try decodeCurve(n) } ?? .default
    let context = TweenContext(scene: scene, target: target, from: o["from"], to: toNode, at: at, duration: duration, curve: curve)
    switch try propertyNode.string(oneOf: ["position", "opacity", "backgroundColor", "cornerRadius"]) {
    case "position":
      return try context.tween(.position) { n throws(TemplateError) in try n.point() }
    case "opacity":
      return try context.tween(.opacity) { n throws(TemplateError) in try n.double(in: 0...1) }
    case "cornerRadius":
      return try context.tween(.cornerRadius) { n throws(TemplateError) in try n.double(in: 0...100_000) }
    default:
      return try context.tween(.backgroundColor) { n throws(TemplateError) in try n.color() }
    }
  }

  private static func decodeCurve(_ node: TemplateNode) throws(TemplateError) -> TimingFunction {
    if case .array = node.value.kind {
      let v = try node.numbers(count: 4)
      guard (0...1).contains(v[0]), (0...1).contains(v[2]) else {
        throw node.error("a cubic-bezier curve needs x1 and x2 in 0…1, found \(v[0]) and \(v[2])")
      }
      return TimingFunction(v[0], v[1], v[2], v[3])
    }
    let name = try node.string(oneOf: TimingFunction.named.keys.sorted())
    return TimingFunction.named[name] ?? .default
  }
}
/// The parts of a timeline entry that every property's tween needs.
private struct TweenContext {
  let scene: Scene
  let target: String
  let from: TemplateNode?
  let to: TemplateNode
  let at: Double
  let duration: Double
  let curve: TimingFunction

  func tween<V>(_ property: LayerProperty<V>, _ decode: (TemplateNode) throws(TemplateError) -> V)
    throws(TemplateError) -> LayerAnimation
  {
    let toValue = try decode(to)
    let fromValue: V
    if let from {
      fromValue = try decode(from)
    } else {
      fromValue = scene.renderTree(at: at).layer(id: target).map(property.read) ?? toValue
    }
    return LayerAnimation(
      layerID: target, property: property,
      tween: BasicAnimation(from: fromValue, to: toValue, duration: duration, timingFunction: curve),
      beginTime: at)
  }
}
