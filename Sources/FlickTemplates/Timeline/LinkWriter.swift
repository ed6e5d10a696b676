import FlickMotion
import FlickScene

/// One property's `link` object, read but not yet typed (the outputs decode with the property
/// when it is written).
struct LinkRequest: PropertyJob {
  var node: TemplateNode
  var source: LinkSource
  /// The `from` member (errors about the source point at it).
  var sourceNode: TemplateNode
  var input: [Double]
  var outputNode: TemplateNode
  var timing: [TimingFunction]
  var left: InterpolationExtrapolation
  var right: InterpolationExtrapolation
  var colorSpaceNode: TemplateNode?
  var begin: Double
  /// The template's default space for colour animations.
  var templateColorSpace: ColorSpace
}

/// Writes a `link` entry: each property becomes a function of another property or of time
/// (a ``LinkRequest`` per property and target, added to the tracks as a ``PropertyLink``).
struct LinkWriter {
  /// Keys of one property's link object.
  static let linkKeys = [
    "from", "input", "output", "curve", "extrapolate", "extrapolateLeft", "extrapolateRight", "colorSpace",
  ]
  /// The most links one template may compile to (each is evaluated on every frame it shows).
  static let linkLimit = 1000

  /// The entry's targets, and the layers a `from` names.
  let schedule: TimelineSchedule
  /// The template's default space for colour animations.
  let colorSpace: ColorSpace

  /// `{ at, target, link: { rotation: { from: "card.positionX", input: [280, 680], output:
  /// ["-12deg", "12deg"], extrapolate, curve } } }`: from `at` on, until a later entry animates
  /// or sets it, each property is a function of another layer's number property at the same
  /// time (or of `"time"`, scene seconds): Remotion's `interpolate`, After Effects' `linear()`.
  /// A `from` without a dot names a property of the entry's own target (so `targets` with
  /// `from: "positionX"` links each layer to itself). Returns the span `begin … begin`.
  func write(_ o: [String: TemplateNode], _ node: TemplateNode, begin: Double, into output: inout TimelineOutput)
    throws(TemplateError) -> TimelineSchedule.Span
  {
    guard let linkNode = o["link"] else { return .init(begin: begin, end: begin) }
    guard case .object(let members) = linkNode.value.kind, !members.isEmpty else {
      throw linkNode.expected(
        "an object of properties to link, like { rotation: { from: \"card.positionX\", input: [0, 100], "
          + "output: [0, 1] } }")
    }
    let targets = try schedule.targets(o, node)
    let stagger = try TimelineSchedule.stagger(o, count: targets.count, begin: begin)
    for (i, target) in targets.enumerated() {
      for m in members {
        let specNode = linkNode.child(m.key, m.value)
        if m.key == "string" {
          throw specNode.error("a text layer's 'string' changes with 'set' or 'animate'; link its 'number' instead")
        }
        let property = try AnyLayerProperty.timeline(
          named: m.key, specNode, key: m, layer: output.layer(target.id), layerID: target.id)
        let request = try linkRequest(
          specNode, targetID: target.id, begin: begin + Double(i) * stagger, layers: output.tracks)
        _ = try property.write(request, layerID: target.id, into: &output)
      }
    }
    return .init(begin: begin, end: begin)
  }

  /// Reads one property's link object (everything but the outputs).
  private func linkRequest(_ node: TemplateNode, targetID: String, begin: Double, layers: PropertyTracks)
    throws(TemplateError) -> LinkRequest
  {
    guard case .object = node.value.kind else {
      throw node.expected("a link object like { from: \"card.positionX\", input: [0, 100], output: [0, 1] }")
    }
    let o = try node.object(allowed: Self.linkKeys)
    guard let sourceNode = o["from"] else {
      throw node.error("a link needs 'from': the property it follows (\"layer.property\", or \"time\" in seconds)")
    }
    guard let inputNode = o["input"] else { throw node.error("a link needs 'input': the source's stops, increasing") }
    guard let outputNode = o["output"] else { throw node.error("a link needs 'output': one value per input stop") }
    let items = try inputNode.array()
    let cap = InterpolationMap<Double>.maximumStops
    guard items.count >= 2 else { throw inputNode.expected("at least 2 input stops") }
    guard items.count <= cap else { throw inputNode.error("a link has at most \(cap) stops, found \(items.count)") }
    var input: [Double] = []
    for (i, item) in items.enumerated() {
      let x = try item.double()
      if i > 0, !(x > input[i - 1]) {
        throw item.error(
          "input stops must increase: \(TemplateNode.format(x)) is not above \(TemplateNode.format(input[i - 1])) "
            + "(to map a falling source, keep 'input' increasing and reverse 'output')")
      }
      input.append(x)
    }
    var timing: [TimingFunction] = [.linear]
    if let curveNode = o["curve"] {
      // [x1, y1, x2, y2] is one Bézier curve; a list of names or of Bézier lists is one per gap.
      if case .array(let list) = curveNode.value.kind,
        list.contains(where: { if case .number = $0.kind { false } else { true } })
      {
        timing = []
        for item in try curveNode.array() { timing.append(try TemplateMotion.timingFunction(item)) }
        guard timing.count == input.count - 1 else {
          throw curveNode.error(
            "give one curve for every gap, or \(input.count - 1) (one per gap between the \(input.count) stops), "
              + "found \(timing.count)")
        }
      } else {
        timing = [try TemplateMotion.timingFunction(curveNode)]
      }
    }
    let names = InterpolationExtrapolation.allCases.map(\.rawValue)
    func extrapolation(_ n: TemplateNode?) throws(TemplateError) -> InterpolationExtrapolation? {
      guard let n else { return nil }
      return InterpolationExtrapolation(rawValue: try n.string(oneOf: names))
    }
    let both = try extrapolation(o["extrapolate"]) ?? .clamp
    return LinkRequest(
      node: node, source: try linkSource(sourceNode, targetID: targetID, layers: layers), sourceNode: sourceNode,
      input: input,
      outputNode: outputNode, timing: timing,
      left: try extrapolation(o["extrapolateLeft"]) ?? both, right: try extrapolation(o["extrapolateRight"]) ?? both,
      colorSpaceNode: o["colorSpace"], begin: begin, templateColorSpace: colorSpace)
  }

  /// `"time"`, `"layer.property"` or `"property"` (of `targetID`): a number property.
  private func linkSource(_ node: TemplateNode, targetID: String, layers: PropertyTracks) throws(TemplateError)
    -> LinkSource
  {
    let text = try node.string()
    if text == "time" { return .time }
    var layerID = targetID
    var name = text
    if let dot = text.lastIndex(of: ".") {
      // Inside a component's timeline the layer is one of the instance's own (as for `target`).
      let written = String(text[..<dot])
      layerID = try schedule.qualifiedLayerID(
        written, node, use: " to link from",
        ownLayersHint: "a component's timeline links from its own layers ('\(written)' is the template's)",
        trailer: " (write \"layer.property\", or \"time\")")
      name = String(text[text.index(after: dot)...])
    }
    guard let property = AnyLayerProperty.named(name) else {
      var message = "'\(quoted: name)' is not an animatable property to link from"
      if let guess = TemplateNode.closest(to: name, in: AnyLayerProperty.names + ["time"]) {
        message += "; did you mean '\(escaped: guess)'?"
      }
      throw node.error(message + " (write \"layer.property\" with a number property such as positionX, or \"time\")")
    }
    if let layer = layers.layer(layerID), !property.applies(to: layer), let kind = property.contentKind {
      throw node.error(
        "'\(quoted: name)' is a property of \(kind.rawValue) layers, but '\(quoted: layerID)' is "
          + "not a \(kind.rawValue) layer")
    }
    guard case .double(let p) = property else {
      let parts = LayerPropertyDescriptor.catalogue.filter { $0.partOf == name }.map { "\(layerID).\($0.name)" }
      var message =
        "a link follows a number, and \(quoted: layerID).\(quoted: name) is a "
        + "\(quoted: property.valueTypeName)"
      if !parts.isEmpty { message += "; link from one component: \(quoted: parts.joined(separator: " or "))" }
      throw node.error(message)
    }
    return .property(p, layerID: layerID)
  }
}

extension LinkRequest {
  /// Writes the link of one typed property: decodes the outputs, adds the link to the tracks
  /// (which refuse a cycle) and its curve to the scene. Returns the link's begin.
  func write<V: Animatable>(
    _ p: LayerProperty<V>, layerID: String, values: PropertyValueDecoder<V>, into output: inout TimelineOutput
  ) throws(TemplateError) -> Double {
    let items = try outputNode.array()
    guard items.count == input.count else {
      throw outputNode.error(
        "'output' has \(items.count) values but 'input' has \(input.count) stops; give one output per input")
    }
    var stops: [V] = []
    for item in items { stops.append(try values.value(item)) }
    let space = try PropertyAnimation.colorSpace(colorSpaceNode, entry: nil, template: templateColorSpace, for: p)
    if left == .identity || right == .identity, V.self != Double.self {
      throw node.error(
        "'identity' extrapolation returns the source itself, so it needs a number property, and "
          + "\(quoted: p.name) is not one")
    }
    let mapping: any InterpolationMapping<V>
    do throws(MotionError) {
      if space != .sRGB, let colors = stops as? [Color],
        let map = try ColorSpaceInterpolationMap(
          input: input, output: colors, timing: timing, in: space, extrapolateLeft: left, extrapolateRight: right)
          as? any InterpolationMapping<V>
      {
        mapping = map
      } else {
        mapping = try InterpolationMap(
          input: input, output: stops, timing: timing, extrapolateLeft: left, extrapolateRight: right,
          identity: Self.identity(V.self))
      }
    } catch {
      throw node.error(error.message)
    }
    let link = PropertyLink(property: p, layerID: layerID, source: source, mapping: mapping, begin: begin)
    try output.addLink(link, node: node, sourceNode: sourceNode)
    return begin
  }

  /// The input as a value, for `identity` extrapolation: only a number is one.
  private static func identity<V: Animatable>(_: V.Type) -> (@Sendable (Double) -> V)? {
    guard V.self == Double.self else { return nil }
    return { x in x as? V ?? .zero }
  }
}

/// How to rebuild the scene animation of one link once the tracks are complete.
struct LinkBuilder {
  var index: Int
  var make: (PropertyTracks) -> LayerAnimation
}
