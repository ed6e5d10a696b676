import FlickMotion
import FlickScene

/// What an entry says about every property it animates (each property may override it).
struct MotionDefaults {
  var motion: TemplateMotion?
  var duration: Double?
  var timing: MediaTiming?
  /// The entry's `colorSpace` for its colour properties (nil: the template's default).
  var colorSpace: ColorSpace?
}

extension TimelineCompiler {
  /// Keys of a property's own animation object (`position: { to: […], spring: {…} }`).
  static let propertySpecKeys =
    ["to", "from", "by", "velocity", "duration", "delay", "colorSpace"] + TemplateMotion.keys + timingKeys

  /// `{ target, animate: { property: value or { to, … } }, curve, duration, … }`.
  mutating func animate(_ o: [String: TemplateNode], _ node: TemplateNode, begin: Double) throws(TemplateError) -> Span
  {
    let defaults = try motionDefaults(o)
    guard let animateNode = o["animate"] else { return Span(begin: begin, end: begin) }
    guard case .object(let members) = animateNode.value.kind, !members.isEmpty else {
      throw animateNode.expected("an object of properties to animate, like { opacity: 0, position: [320, 180] }")
    }
    let stagger = try o["stagger"]?.double(in: -60...60) ?? 0
    var end = begin
    for (i, target) in try targets(o, node).enumerated() {
      for m in members {
        if m.key == "string" {
          end = max(
            end,
            try animateString(
              animateNode.child(m.key, m.value), layerID: target.id, defaults: defaults,
              begin: begin + Double(i) * stagger))
          continue
        }
        let property = try Self.property(
          named: m.key, animateNode.child(m.key, m.value), layer: layer(target.id), layerID: target.id)
        end = max(
          end,
          try animateProperty(
            property, layerID: target.id, animateNode.child(m.key, m.value), defaults: defaults,
            begin: begin + Double(i) * stagger))
      }
    }
    return Span(begin: begin, end: end)
  }

  /// The legacy single-property form `{ target, property, to, from, at, duration, curve }`.
  mutating func legacy(_ o: [String: TemplateNode], _ node: TemplateNode, begin: Double) throws(TemplateError) -> Span {
    guard let propertyNode = o["property"] else { return Span(begin: begin, end: begin) }
    let target = try targets(o, node)[0]
    let name = try propertyNode.string()
    let property = try Self.property(named: name, propertyNode, layer: layer(target.id), layerID: target.id)
    // The entry itself is the property's animation object.
    var members: [JSON5Value.Member] = []
    for key in ["to", "from", "by", "velocity", "duration", "colorSpace"] + TemplateMotion.keys + Self.timingKeys {
      if let n = o[key] {
        members.append(JSON5Value.Member(key: key, value: n.value, line: n.value.line, column: n.value.column))
      }
    }
    let spec = TemplateNode(
      value: JSON5Value(.object(members), line: node.value.line, column: node.value.column), path: node.path,
      file: node.file, context: node.context)
    let end = try animateProperty(property, layerID: target.id, spec, defaults: MotionDefaults(), begin: begin)
    return Span(begin: begin, end: end)
  }

  /// `{ target, set: { property: value } }`: values that change at once and hold.
  mutating func set(_ o: [String: TemplateNode], _ node: TemplateNode, begin: Double) throws(TemplateError) -> Span {
    guard let setNode = o["set"] else { return Span(begin: begin, end: begin) }
    guard case .object(let members) = setNode.value.kind, !members.isEmpty else {
      throw setNode.expected("an object of property values, like { opacity: 1 }")
    }
    let stagger = try o["stagger"]?.double(in: -60...60) ?? 0
    var end = begin
    for (i, target) in try targets(o, node).enumerated() {
      let at = begin + Double(i) * stagger
      for m in members {
        let valueNode = setNode.child(m.key, m.value)
        if m.key == "string" {
          end = max(end, try setString(valueNode, layerID: target.id, begin: at))
          continue
        }
        let property = try Self.property(named: m.key, valueNode, layer: layer(target.id), layerID: target.id)
        end = max(end, try perform(property, layerID: target.id, .set(valueNode, begin: at)))
      }
    }
    return Span(begin: begin, end: end)
  }

  // MARK: - One property

  /// Compiles the animation of one property from its value or animation object; returns its end.
  mutating func animateProperty(
    _ property: AnyLayerProperty, layerID: String, _ node: TemplateNode, defaults: MotionDefaults, begin: Double,
    defaultMotion: TemplateMotion? = nil
  ) throws(TemplateError) -> Double {
    try perform(
      property, layerID: layerID, .animate(node, defaults: defaults, begin: begin, defaultMotion: defaultMotion))
  }

  /// Compiles the animation of one typed property.
  mutating func animateTyped<V: Animatable>(
    _ p: LayerProperty<V>, layerID: String, values: PropertyValueDecoder<V>, _ node: TemplateNode,
    defaults: MotionDefaults, begin: Double, defaultMotion: TemplateMotion?
  ) throws(TemplateError) -> Double {
    let decode = values.value
    var spec: [String: TemplateNode] = [:]
    var valueNode: TemplateNode? = node
    if case .object(let members) = node.value.kind, members.contains(where: { Self.propertySpecKeys.contains($0.key) })
    {
      spec = try node.object(allowed: Self.propertySpecKeys)
      valueNode = spec["to"]
    }
    let own = try Self.timing(spec)
    let start = begin + (try spec["delay"]?.double(in: 0...3600) ?? 0)
    let from = try spec["from"].map(decode) ?? output.currentValue(p, layerID: layerID, at: start)
    var to = try valueNode.map(decode)
    if to == nil, let by = spec["by"] {
      let end = from + (try values.change(by))
      try values.check(end, at: by, how: "where 'by' ends from the start value")
      to = end
    }
    let handoff = Handoff(value: from, velocity: output.currentVelocity(p, layerID: layerID, at: start), time: start)
    let request = CurveRequest(
      handoff: handoff, to: to, velocity: try spec["velocity"].map(values.change), threshold: p.threshold,
      motion: try TemplateMotion.decode(spec, in: node) ?? defaults.motion ?? defaultMotion,
      duration: try spec["duration"]?.double(in: 0...3600) ?? defaults.duration,
      timing: own ?? defaults.timing, node: node, property: p.name,
      colorSpace: try colorSpace(spec["colorSpace"], defaults: defaults, for: p))
    let curve = try request.curve(decode: decode)
    try output.add(p, layerID: layerID, curve: curve, begin: start, node: node)
    return start + curve.duration
  }

  /// The entry-level motion, duration and timing.
  func motionDefaults(_ o: [String: TemplateNode]) throws(TemplateError) -> MotionDefaults {
    MotionDefaults(
      motion: try TemplateMotion.decode(o, in: TemplateNode(value: JSON5Value(.null), path: "", file: "")),
      duration: try o["duration"]?.double(in: 0...3600),
      timing: try Self.timing(o),
      colorSpace: try o["colorSpace"]?.colorSpace())
  }

  /// The space a colour animation of `p` travels through: its own `colorSpace`, the entry's,
  /// then the template's default. An own `colorSpace` on a property that is not a colour is
  /// an error; the entry's applies to the entry's colour properties only.
  func colorSpace<V>(_ own: TemplateNode?, defaults: MotionDefaults, for p: LayerProperty<V>) throws(TemplateError)
    -> ColorSpace
  {
    if let own {
      guard V.self == Color.self else {
        throw own.error(
          "'colorSpace' applies to colour properties (backgroundColor, borderColor, …), and "
            + "\(quoted: p.name) is not one")
      }
      return try own.colorSpace()
    }
    guard V.self == Color.self else { return .sRGB }
    return defaults.colorSpace ?? colorSpace
  }

  /// Core Animation timing from `repeatCount`, `repeatForever`, `autoreverses`, `speed`,
  /// `timeOffset`, `repeatDuration`, `fill`, or nil when none is given.
  static func timing(_ o: [String: TemplateNode]) throws(TemplateError) -> MediaTiming? {
    guard timingKeys.contains(where: { o[$0] != nil }) else { return nil }
    let fill = try o["fill"]?.string(oneOf: MediaTiming.FillMode.allCases.map(\.rawValue))
    return MediaTiming(
      speed: try o["speed"]?.double(in: 0.001...1000) ?? 1,
      timeOffset: try o["timeOffset"]?.double(in: -3600...3600) ?? 0,
      repeatCount: try o["repeatCount"]?.double(in: 0...1_000_000) ?? 0,
      repeatDuration: try o["repeatDuration"]?.double(in: 0...3600) ?? 0,
      repeatForever: try o["repeatForever"]?.bool() ?? false,
      autoreverses: try o["autoreverses"]?.bool() ?? false,
      fillMode: fill.flatMap(MediaTiming.FillMode.init(rawValue:)) ?? .forwards)
  }

  // MARK: - Properties

  /// The animatable property `name` of the layer, checked against the catalogue and the layer's kind.
  static func property(named name: String, _ node: TemplateNode, layer: Layer?, layerID: String) throws(TemplateError)
    -> AnyLayerProperty
  {
    guard let property = AnyLayerProperty.named(name) else {
      var message = "'\(quoted: name)' is not an animatable property"
      if let alias = LayerPropertyDescriptor.resolving(name) {
        message += "; the timeline calls it '\(escaped: alias.name)'"
      } else if let guess = TemplateNode.closest(to: name, in: AnyLayerProperty.names) {
        message += "; did you mean '\(escaped: guess)'?"
      }
      throw node.error(message + " (properties: \(AnyLayerProperty.names.joined(separator: ", ")))")
    }
    if let layer, !property.applies(to: layer), let kind = property.contentKind {
      throw node.error(
        "'\(quoted: name)' is a property of \(kind.rawValue) layers, but '\(quoted: layerID)' is "
          + "not a \(kind.rawValue) layer")
    }
    return property
  }
}
