extension TemplateParameter {
  /// A value of the parameter's type within its bounds, for checking a component no layer uses
  /// when the parameter has no default (``Template/checkUnusedComponents``). `variant` 0 is the
  /// likelier to be valid wherever it goes (the number 1, the first choice, black, `false`, one
  /// item); 1 differs from it wherever the declaration allows a second value (2 or another
  /// bound, the last choice, white, `true`, two items), so an error that changes between them
  /// came from the value. A string is the parameter's name (a valid layer id); an image is a
  /// file that is not there.
  func placeholder(_ variant: Int) -> JSON5Value {
    guard kind == .list else { return JSON5Value(Self.placeholder(kind, of: self, variant, item: nil)) }
    let fewest = minItems ?? 0
    let count = min(max(1 + variant, fewest), max(fewest, maxItems ?? Int.max))
    return JSON5Value(
      .array((0..<count).map { JSON5Value(Self.placeholder(itemKind ?? .string, of: self, variant, item: $0)) }))
  }

  private static func placeholder(_ kind: Kind, of p: TemplateParameter, _ variant: Int, item: Int?)
    -> JSON5Value.Kind
  {
    let suffix = item.map { "\($0)" } ?? ""
    switch kind {
    case .number, .integer:
      let whole = kind == .integer
      func clamped(_ x: Double) -> Double {
        var x = x
        if let maximum = p.maximum { x = min(x, whole ? maximum.rounded(.down) : maximum) }
        if let minimum = p.minimum { x = max(x, whole ? minimum.rounded(.up) : minimum) }
        return x
      }
      let first = clamped(1)
      guard variant == 1 else { return .number(first) }
      // Another value where the bounds allow one: 2, or the other bound when 1 and 2 clamp alike.
      for x in [2, p.maximum ?? first + 1, p.minimum ?? first - 1] where clamped(x) != first {
        return .number(clamped(x))
      }
      return .number(first)
    case .string: return .string(p.name + (variant == 0 ? "" : "_b") + suffix)
    case .color: return .string(variant == 0 ? "#000000" : "#FFFFFF")
    case .image: return .string("flick-placeholder-\(p.name)-\(variant)\(suffix).png")
    case .font: return .string(variant == 0 ? "sans-serif" : "serif")
    case .boolean: return .bool(variant == 1)
    case .enum: return .string((variant == 0 ? p.choices.first : p.choices.last) ?? "")
    case .list: return .array([])
    }
  }
}

extension TemplateComponent {
  /// The component with every parameter that has no default given ``TemplateParameter/placeholder(_:)``
  /// of `variant` as its default.
  func withPlaceholders(_ variant: Int) -> TemplateComponent {
    var out = self
    for i in out.parameters.indices where out.parameters[i].defaultValue == nil {
      out.parameters[i].defaultValue = out.parameters[i].placeholder(variant)
    }
    return out
  }
}
