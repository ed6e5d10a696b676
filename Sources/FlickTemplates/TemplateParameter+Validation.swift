import FlickMotion
import Foundation

extension TemplateParameter {
  /// Decodes one declaration of the `parameters` section (its default is validated too).
  static func decode(name: String, _ node: TemplateNode) throws(TemplateError) -> TemplateParameter {
    guard isValidName(name) else {
      throw node.error(
        "invalid parameter name '\(quoted: name)': use letters, digits and '_', starting with a letter or '_'")
    }
    let o = try node.object(allowed: [
      "type", "default", "description", "minimum", "maximum", "choices", "items", "minItems", "maxItems",
    ])
    guard let typeNode = o["type"] else {
      throw node.error("parameter '\(quoted: name)' needs a 'type' (one of: \(Kind.names.joined(separator: ", ")))")
    }
    let kind = try decodeKind(typeNode)
    var p = TemplateParameter(name: name, kind: kind, description: try o["description"]?.string() ?? "")
    let numeric = kind == .number || kind == .integer || kind == .list
    func only(_ key: String, _ allowed: Bool, _ kinds: String) throws(TemplateError) {
      if !allowed, let n = o[key] { throw n.error("'\(quoted: key)' applies only to \(quoted: kinds) parameters") }
    }
    try only("minimum", numeric, "number, integer and list")
    try only("maximum", numeric, "number, integer and list")
    try only("choices", kind == .enum || kind == .list, "enum and list")
    try only("items", kind == .list, "list")
    try only("minItems", kind == .list, "list")
    try only("maxItems", kind == .list, "list")
    p.minimum = try o["minimum"]?.double()
    p.maximum = try o["maximum"]?.double()
    if let lo = p.minimum, let hi = p.maximum, lo > hi, let n = o["maximum"] {
      throw n.error("'maximum' (\(TemplateNode.format(hi))) is below 'minimum' (\(TemplateNode.format(lo)))")
    }
    if kind == .list {
      if let n = o["items"] {
        let item = try decodeKind(n)
        guard Kind.itemKinds.contains(item) else { throw n.error("a list cannot hold lists") }
        p.itemKind = item
      } else {
        p.itemKind = .string
      }
      p.minItems = try o["minItems"]?.int(in: Kind.itemCountRange)
      p.maxItems = try o["maxItems"]?.int(in: Kind.itemCountRange)
    }
    let needsChoices = kind == .enum || p.itemKind == .enum
    if let n = o["choices"] {
      p.choices = try n.array().map { c throws(TemplateError) in try c.string() }
      guard !p.choices.isEmpty else { throw n.error("'choices' cannot be empty") }
      if !needsChoices { throw n.error("'choices' applies only to enum parameters and lists of enum") }
    } else if needsChoices {
      throw node.error("parameter '\(quoted: name)' of type enum needs 'choices': [\"…\", …]")
    }
    if let n = o["default"] {
      p.defaultValue = try p.validate(n)
    }
    return p
  }

  static func isValidName(_ name: String) -> Bool {
    guard let first = name.unicodeScalars.first, first == "_" || (first.isASCII && first.properties.isAlphabetic)
    else { return false }
    return name.unicodeScalars.allSatisfy {
      $0 == "_" || ($0.isASCII && $0.properties.isAlphabetic) || ("0"..."9").contains($0)
    }
  }

  private static func decodeKind(_ node: TemplateNode) throws(TemplateError) -> Kind {
    let name = try node.string(oneOf: Kind.names)
    return Kind(name: name) ?? .string
  }

  // MARK: - Values

  /// Checks a value against the parameter's type and bounds.
  ///
  /// - Returns: The value to substitute; asset paths become absolute.
  /// - Throws: ``TemplateError`` located at `node`, saying which parameter and type was expected.
  func validate(_ node: TemplateNode) throws(TemplateError) -> JSON5Value {
    do throws(TemplateError) {
      if kind == .list {
        let items = try node.array()
        if let minItems, items.count < minItems {
          throw node.error("expected at least \(minItems) items, found \(items.count)")
        }
        if let maxItems, items.count > maxItems {
          throw node.error("expected at most \(maxItems) items, found \(items.count)")
        }
        var out: [JSON5Value] = []
        for item in items { out.append(try check(item, as: itemKind ?? .string)) }
        return JSON5Value(.array(out), line: node.value.line, column: node.value.column)
      }
      return try check(node, as: kind)
    } catch {
      var e = error
      e.message = "parameter '\(quoted: name)' (\(quoted: typeDescription)): " + e.message
      throw e
    }
  }

  private func check(_ node: TemplateNode, as kind: Kind) throws(TemplateError) -> JSON5Value {
    let v: JSON5Value.Kind
    switch kind {
    case .number, .integer:
      let x = try node.double()
      if kind == .integer && x != x.rounded() {
        throw node.error("expected a whole number, found \(TemplateNode.format(x))")
      }
      // Beyond 2⁵³ − 1 a whole number is not held exactly (99999999999999999999 reads as 1e20).
      if kind == .integer && abs(x) > Self.largestExactInteger {
        throw node.error(
          "expected a whole number in −\(Int(Self.largestExactInteger))…\(Int(Self.largestExactInteger)) "
            + "(larger ones are not held exactly), found \(TemplateNode.format(x))")
      }
      if let minimum, x < minimum {
        throw node.error("expected a number ≥ \(TemplateNode.format(minimum)), found \(TemplateNode.format(x))")
      }
      if let maximum, x > maximum {
        throw node.error("expected a number ≤ \(TemplateNode.format(maximum)), found \(TemplateNode.format(x))")
      }
      v = .number(x)
    case .string: v = .string(try node.string())
    case .color:
      _ = try node.color()
      v = node.value.kind
    case .image: v = .string(try node.assetPath(kind: "image"))
    case .font:
      // A font file stays a path here (so the template's `fonts` can list it); Template.decode
      // registers it and substitutes its family name.
      let s = try node.string()
      v = .string(Self.isFontFile(s) ? try node.fontFile().path : s)
    case .boolean: v = .bool(try node.bool())
    case .enum: v = .string(try node.string(oneOf: choices))
    case .list: throw node.error("a list cannot hold lists")
    }
    return JSON5Value(v, line: node.value.line, column: node.value.column)
  }

  /// The largest whole number a Double holds with every smaller one: 2⁵³ − 1.
  static let largestExactInteger = 9_007_199_254_740_991.0

  /// Whether a font value names a file rather than a family.
  static func isFontFile(_ s: String) -> Bool {
    let lower = s.lowercased()
    return [".ttf", ".otf", ".ttc", ".woff", ".woff2"].contains { lower.hasSuffix($0) }
  }

  // MARK: - Text (--set)

  /// The value a `--set name=TEXT` stands for, before validation: numbers and booleans are
  /// parsed, lists are `[…]` JSON5 or comma-separated, files are made absolute against
  /// `folder` (the current directory), everything else stays text.
  ///
  /// - Throws: A message for a list that opens with `[` but is not JSON5 (not closed): it is not
  ///   read as comma-separated text then, which would complain about its `[1` item.
  func value(fromText text: String, relativeTo folder: String) throws(TextValueError) -> JSON5Value {
    if kind == .list {
      let trimmed = text.trimmingCharacters(in: .whitespaces)
      if trimmed.hasPrefix("[") {
        do {
          return absolutized(try JSON5Parser.parse(trimmed), relativeTo: folder)
        } catch {
          let closed =
            !(error.plainMessage.hasSuffix("found end of input") || error.plainMessage == "unterminated string")
          throw TextValueError(
            message: closed
              ? "the list is not valid JSON5 (column \(error.column) of the value: \(escaped: error.message))"
              : "the list is not closed: it opens with '[' and has no matching ']' (write [1, 2] or 1, 2)")
        }
      }
      let parts = trimmed.isEmpty ? [] : trimmed.split(separator: ",", omittingEmptySubsequences: false)
      return JSON5Value(
        .array(
          parts.map {
            Self.scalar(
              fromText: String($0).trimmingCharacters(in: .whitespaces), kind: itemKind ?? .string, folder: folder)
          }))
    }
    return Self.scalar(fromText: text, kind: kind, folder: folder)
  }

  private static func scalar(fromText text: String, kind: Kind, folder: String) -> JSON5Value {
    switch kind {
    case .number, .integer:
      // A decimal number only: not `0x10`, `nan` or `inf`, which Double(String) would also read.
      if let v = DecimalText.value(text.trimmingCharacters(in: .whitespaces)) { return JSON5Value(.number(v)) }
    case .boolean:
      if text == "true" { return JSON5Value(.bool(true)) }
      if text == "false" { return JSON5Value(.bool(false)) }
    case .image:
      return JSON5Value(.string(absolute(text, folder)))
    case .font where isFontFile(text):
      return JSON5Value(.string(absolute(text, folder)))
    default: break
    }
    return JSON5Value(.string(text))
  }

  /// File-valued strings of a value given in a params file, made absolute against that file's folder.
  func absolutized(_ value: JSON5Value, relativeTo folder: String) -> JSON5Value {
    var out = value
    switch (kind, value.kind) {
    case (.image, .string(let s)):
      out.kind = .string(Self.absolute(s, folder))
    case (.font, .string(let s)) where Self.isFontFile(s):
      out.kind = .string(Self.absolute(s, folder))
    case (.list, .array(let items)) where itemKind == .image || itemKind == .font:
      out.kind = .array(
        items.map { item in
          guard case .string(let s) = item.kind, itemKind == .image || Self.isFontFile(s) else { return item }
          var copy = item
          copy.kind = .string(Self.absolute(s, folder))
          return copy
        })
    default: break
    }
    return out
  }

  private static func absolute(_ path: String, _ folder: String) -> String {
    guard !path.isEmpty, !path.hasPrefix("/") else { return path }
    return URL(fileURLWithPath: folder).appendingPathComponent(path).standardizedFileURL.path
  }
}

/// Why a `--set` text (or a CSV cell) cannot be read as its parameter's type at all.
struct TextValueError: Error {
  var message: String
}
