import FlickMotion
import Foundation

/// The motion of an animation as written in a template: a spec string shared with
/// `flick curve` (`"spring(bounciness: 8, speed: 12)"`, `"easeOut"`), a cubic-bezier array, or
/// an object form (`spring: { bounciness: 8 }`, `keyframes: { values: […] }`).
enum TemplateMotion {
  /// A parsed spec; `node` locates it for later errors.
  case spec(AnimationSpec, node: TemplateNode)
  /// Keyframes whose `values` are property values (decoded once the property's type is known).
  case keyframes(
    values: TemplateNode, keyTimes: [Double]?, curves: [TimingFunction]?, mode: KeyframeCalculationMode,
    duration: Double?, node: TemplateNode)

  /// The parsed spec, when the motion is one (keyframes of property values are not).
  var spec: AnimationSpec? {
    if case .spec(let spec, _) = self { spec } else { nil }
  }

  /// The keys that choose a motion.
  static let keys = ["curve", "spring", "decay", "tween", "keyframes"]

  /// The motion given in `o` (at most one of ``keys``), or nil.
  static func decode(_ o: [String: TemplateNode]) throws(TemplateError) -> TemplateMotion? {
    let given = keys.filter { o[$0] != nil }
    guard let key = given.first, let n = o[key] else { return nil }
    if given.count > 1, let second = o[given[1]] {
      throw second.error("give one motion: '\(quoted: given[0])' and '\(quoted: given[1])' are both set")
    }
    switch key {
    case "curve": return try curve(n)
    case "keyframes": return try keyframes(n)
    default: return .spec(try spec(name: key, object: n), node: n)
    }
  }

  /// `curve: "spec"` or `curve: [x1, y1, x2, y2]`.
  static func curve(_ node: TemplateNode) throws(TemplateError) -> TemplateMotion {
    if case .array = node.value.kind {
      let v = try node.numbers(count: 4)
      guard (0...1).contains(v[0]), (0...1).contains(v[2]) else {
        throw node.error(
          "a cubic-bezier curve needs x1 and x2 in 0…1, found \(TemplateNode.format(v[0])) and \(TemplateNode.format(v[2]))"
        )
      }
      let spec = AnimationSpec(kind: .tween(TimingFunction(v[0], v[1], v[2], v[3]), duration: 0.4))
      do {
        try spec.checkFinite(column: 0)
      } catch {
        throw node.error("invalid curve: \(escaped: error.message)")
      }
      return .spec(spec, node: node)
    }
    guard case .string(let text) = node.value.kind else {
      throw node.expected(
        "an animation spec such as \"easeOut\" or \"spring(bounciness: 8, speed: 12)\", or [x1, y1, x2, y2]")
    }
    return .spec(try parse(text, node), node: node)
  }

  /// Parses spec text, reporting a problem at the spec's position in the file (the error's
  /// column inside the spec, moved into the file after the opening quote).
  static func parse(_ text: String, _ node: TemplateNode) throws(TemplateError) -> AnimationSpec {
    do {
      // A decay without a velocity takes the property's velocity when it starts (a release).
      return try AnimationSpec(parsing: text, options: .velocityFromHandoff)
    } catch {
      throw node.specError(error, spec: text)
    }
  }

  /// `spring: { … }`, `decay: { … }`, `tween: { … }`: the object's members become typed spec
  /// arguments (no text printed and parsed again).
  static func spec(name: String, object node: TemplateNode) throws(TemplateError) -> AnimationSpec {
    guard case .object(let members) = node.value.kind else {
      if case .bool(true) = node.value.kind { return try parse(name, node) }
      throw node.expected("an object of \(quoted: name) parameters, like { \(escaped: example(name)) }")
    }
    var arguments: [SpecArgument] = []
    for m in members {
      arguments.append(SpecArgument(label: m.key, value: try specValue(node.child(m.key, m.value))))
    }
    do {
      return try AnimationSpec(name: name, arguments: arguments, options: .velocityFromHandoff)
    } catch {
      // The argument at fault locates the error in the file.
      let at =
        error.argument.flatMap { label in members.first { $0.key == label }.map { node.child($0.key, $0.value) } }
        ?? node
      throw at.error("invalid \(quoted: name): \(escaped: error.message)")
    }
  }

  /// A member of a motion object as a spec value: numbers, booleans, lists, and strings (a
  /// name such as `easeOut`, or a nested spec such as `"cubicBezier(0.2, 0, 0, 1)"`).
  private static func specValue(_ node: TemplateNode) throws(TemplateError) -> SpecExpression {
    switch node.value.kind {
    case .number(let v):
      guard v.isFinite else { throw node.error("expected a finite number") }
      return .number(v)
    case .bool(let b): return .call(name: b ? "true" : "false", arguments: nil)
    case .string(let text):
      do {
        return try SpecExpression.parse(text)
      } catch {
        throw node.specError(error, spec: text)
      }
    case .array(let items):
      var values: [SpecExpression] = []
      for (i, item) in items.enumerated() {
        values.append(
          try specValue(TemplateNode(value: item, path: "\(node.path)[\(i)]", file: node.file, context: node.context)))
      }
      return .list(values)
    default:
      throw node.expected("a number, a name or a list")
    }
  }

  private static func example(_ name: String) -> String {
    switch name {
    case "spring": return "bounciness: 8, speed: 12"
    case "decay": return "velocity: 1200, deceleration: 0.998"
    default: return "curve: \"easeOut\", duration: 0.3"
    }
  }

  /// `keyframes: { values: [...], keyTimes: [...], curves: [...], mode: "linear", duration: 0.8 }`.
  static func keyframes(_ node: TemplateNode) throws(TemplateError) -> TemplateMotion {
    let o = try node.object(allowed: ["values", "keyTimes", "curves", "mode", "duration"])
    guard let values = o["values"] else { throw node.error("keyframes need 'values' (values of the property)") }
    let keyTimes = try o["keyTimes"].map { n throws(TemplateError) in
      try n.array().map { k throws(TemplateError) in try k.double(in: 0...1) }
    }
    var curves: [TimingFunction]?
    if let n = o["curves"] {
      let items = try n.array()
      var list: [TimingFunction] = []
      for item in items { list.append(try timingFunction(item)) }
      curves = list
    }
    let mode =
      try o["mode"].map { n throws(TemplateError) in
        KeyframeCalculationMode(rawValue: try n.string(oneOf: KeyframeCalculationMode.allCases.map(\.rawValue)))
          ?? .linear
      } ?? .linear
    let duration = try o["duration"]?.double(in: TemplateNode.seconds)
    return .keyframes(values: values, keyTimes: keyTimes, curves: curves, mode: mode, duration: duration, node: node)
  }

  /// A timing curve alone (`"easeOut"`, `"backOut(overshoot: 2)"`, `[x1, y1, x2, y2]`).
  static func timingFunction(_ node: TemplateNode) throws(TemplateError) -> TimingFunction {
    guard case .spec(let spec, _) = try curve(node), case .tween(let f, _) = spec.kind else {
      throw node.error("expected a timing curve such as \"easeOut\" or [x1, y1, x2, y2], not a spring or decay")
    }
    return f
  }
}

extension TemplateNode {
  /// A spec error at this node: "invalid animation spec …", at the place in the file where the
  /// character the error is about is written (``sourcePosition(ofScalar:in:)``).
  func specError(_ error: MotionError, spec text: String) -> TemplateError {
    var (line, column) = (value.line, value.column)
    if let c = error.column, c > 0, value.origin == nil {
      (line, column) = sourcePosition(ofScalar: c - 1, in: text) ?? (line, column + c)
    }
    return TemplateError(
      file: file, path: path, line: line, column: column,
      message: "invalid animation spec \"\(quoted: text)\": \(escaped: error.message)")
  }

  /// Where scalar `offset` of `text` (this string value, after parameter substitution) is
  /// written in the file: the string literal at the value's position is read again, so escapes
  /// and `\`-continued lines count as written. A place inside a substituted `${…}` is the
  /// reference's first character. Nil when the file's text is not at hand.
  func sourcePosition(ofScalar offset: Int, in text: String) -> (line: Int, column: Int)? {
    guard let source = context.source, source.file == file,
      let literal = JSON5Parser.stringLiteral(in: source.text, line: value.line, column: value.column)
    else { return nil }
    let raw = literal.scalars
    let final = Array(text.unicodeScalars)
    guard !raw.isEmpty, offset >= 0, offset < final.count else { return nil }
    // Substitution changes one stretch between a common prefix and a common suffix.
    var prefix = 0
    while prefix < min(raw.count, final.count), raw[prefix] == final[prefix] { prefix += 1 }
    var suffix = 0
    while suffix < min(raw.count, final.count) - prefix, raw[raw.count - 1 - suffix] == final[final.count - 1 - suffix]
    {
      suffix += 1
    }
    let index: Int
    if offset < prefix {
      index = offset
    } else if offset >= final.count - suffix {
      index = offset + raw.count - final.count
    } else {
      index = min(prefix, raw.count - 1)
    }
    return literal.positions[index]
  }
}
