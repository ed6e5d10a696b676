extension Template {
  /// Decodes the `parameters` section in declaration order.
  static func decodeParameters(_ node: TemplateNode?) throws(TemplateError) -> [TemplateParameter] {
    guard let node else { return [] }
    guard case .object(let members) = node.value.kind else {
      throw node.expected("an object of parameter declarations")
    }
    var out: [TemplateParameter] = []
    for m in members {
      out.append(try TemplateParameter.decode(name: m.key, node.child(m.key, m.value)))
    }
    return out
  }

  /// The value of every declared parameter: given values (checked) over defaults.
  ///
  /// - Throws: ``TemplateError`` for an unknown name (with did-you-mean), an ill-typed value, or
  ///   a parameter without default that was not given.
  static func resolveParameters(
    _ declared: [TemplateParameter], given: ParameterValues, file: String, context: TemplateContext
  ) throws(TemplateError) -> [String: JSON5Value] {
    var values: [String: JSON5Value] = [:]
    let names = declared.map(\.name)
    for entry in given.entries {
      let node: TemplateNode
      let parameter = declared.first { $0.name == entry.name }
      let path = entry.path ?? entry.name
      switch entry.source {
      case .text(let text):
        if let cell = entry.cell {
          guard let parameter else { throw unknownParameter(entry, names, file: cell.file) }
          var value: JSON5Value
          do {
            value = try parameter.value(fromText: text, relativeTo: entry.folder)
          } catch {
            throw TemplateError(
              file: cell.file, path: path, line: cell.line, column: cell.column,
              message: "parameter '\(quoted: entry.name)': " + error.message)
          }
          (value.line, value.column) = (cell.line, cell.column)
          node = TemplateNode(value: value, path: path, file: cell.file, context: context)
          break
        }
        let file = "--set \(entry.name)=\(text)"
        guard let parameter else { throw unknownParameter(entry, names, file: file) }
        let value: JSON5Value
        do {
          value = try parameter.value(fromText: text, relativeTo: entry.folder)
        } catch {
          throw TemplateError(
            file: file, path: "", message: "parameter '\(quoted: entry.name)': " + error.message)
        }
        node = TemplateNode(value: value, path: "", file: file, context: context)
      case .json(let value, let file):
        guard let parameter else { throw unknownParameter(entry, names, file: file) }
        node = TemplateNode(
          value: parameter.absolutized(value, relativeTo: entry.folder), path: path, file: file,
          context: context)
      }
      values[entry.name] = try parameter?.validate(node)
    }
    for p in declared where values[p.name] == nil {
      guard let value = p.defaultValue else {
        throw TemplateError(
          file: file, path: "parameters.\(p.name)",
          message: "parameter '\(quoted: p.name)' has no default: give a value with --set "
            + "\(quoted: p.name)=VALUE or --params FILE")
      }
      values[p.name] = value
    }
    return values
  }

  /// The error for a value given for no declared parameter: at the name as written (a params
  /// file's key, a CSV header field), with the value's JSON path.
  private static func unknownParameter(
    _ entry: ParameterValues.Entry, _ names: [String], file: String
  ) -> TemplateError {
    let name = entry.name
    var message = "unknown parameter '\(quoted: name)'"
    if names.isEmpty {
      message += "; this template declares no parameters"
    } else {
      if let guess = TemplateNode.closest(to: name, in: names) { message += "; did you mean '\(escaped: guess)'?" }
      message += " (parameters: \(TemplateText.list(names)))"
    }
    guard let key = entry.key else { return TemplateError(file: file, path: "", message: message) }
    return TemplateError(
      file: key.file, path: entry.path ?? name, line: key.line, column: key.column, message: message)
  }

  // MARK: - Substitution

  /// Replaces every parameter reference in `node`'s value: a string that is exactly `"$name"`
  /// becomes the parameter's value (any type), and one that is exactly `"$(expression)"` the
  /// number it computes (``TemplateExpression``); `"${name}"` or `"${expression}"` inside a
  /// string becomes its text; `"$$"` is a literal `$`. Substituted values keep the reference's
  /// position and record their origin, so later errors point at the reference and name the
  /// parameter.
  ///
  /// Every substitution is counted against `budget` (``TemplateLimits/maximumExpandedBytes``).
  static func substitute(
    _ node: TemplateNode, values: [String: JSON5Value], budget: inout ExpansionBudget
  ) throws(TemplateError) -> JSON5Value {
    var value = node.value
    switch value.kind {
    // Bytes, not Foundation's substring search (thousands of instructions a string).
    case .string(let s) where s.utf8.contains(UInt8(ascii: "$")):
      if let name = wholeReference(s) {
        guard var replacement = values[name] else { throw unknownReference(name, node, values) }
        try budget.spend(ExpansionBudget.size(of: replacement), at: node)
        replacement = repositioned(replacement, like: value, origin: "parameter '\(name)'")
        return replacement
      }
      if s.hasPrefix("$("), s.hasSuffix(")") {
        let text = String(s.dropFirst(2).dropLast())
        value.kind = .number(try evaluate(text, in: s, node, values))
        value.origin = "expression \(s)"
        return value
      }
      value.kind = .string(try interpolate(s, node, values, budget: &budget))
    case .array(let items):
      var out: [JSON5Value] = []
      for (i, item) in items.enumerated() {
        out.append(
          try substitute(
            TemplateNode(value: item, path: "\(node.path)[\(i)]", file: node.file, context: node.context),
            values: values, budget: &budget))
      }
      value.kind = .array(out)
    case .object(let members):
      var out: [JSON5Value.Member] = []
      for var m in members {
        m.value = try substitute(node.child(m.key, m.value), values: values, budget: &budget)
        out.append(m)
      }
      value.kind = .object(out)
    default: break
    }
    return value
  }

  /// `name` if `s` is exactly `$name`.
  private static func wholeReference(_ s: String) -> String? {
    guard s.hasPrefix("$"), !s.hasPrefix("$$"), !s.hasPrefix("${") else { return nil }
    let name = String(s.dropFirst())
    return TemplateParameter.isValidName(name) ? name : nil
  }

  private static func interpolate(
    _ s: String, _ node: TemplateNode, _ values: [String: JSON5Value], budget: inout ExpansionBudget
  ) throws(TemplateError) -> String {
    var out = ""
    var i = s.startIndex
    while i < s.endIndex {
      let c = s[i]
      let next = s.index(after: i)
      guard c == "$", next < s.endIndex else {
        out.append(c)
        i = next
        continue
      }
      if s[next] == "$" {
        out.append("$")
        i = s.index(after: next)
      } else if s[next] == "{" {
        guard let close = s[next...].firstIndex(of: "}") else {
          throw node.error("unterminated '${' in \"\(quoted: s)\": write ${name}, or $$ for a literal '$'")
        }
        let name = String(s[s.index(after: next)..<close])
        if TemplateParameter.isValidName(name) {
          guard let value = values[name] else { throw unknownReference(name, node, values) }
          let text = TemplateParameter.text(of: value)
          try budget.spend(text.utf8.count, at: node)
          out += text
        } else {
          out += TemplateNode.format(try evaluate(name, in: s, node, values))
        }
        i = s.index(after: close)
      } else {
        out.append(c)
        i = next
      }
    }
    return out
  }

  /// The value of the expression `text` (written in the string `s`), or an error at the node
  /// that quotes it and points at the character.
  private static func evaluate(
    _ text: String, in s: String, _ node: TemplateNode, _ values: [String: JSON5Value]
  ) throws(TemplateError) -> Double {
    do {
      return try TemplateExpression.evaluate(text, values: values)
    } catch {
      let marker =
        error.offset > 0 ? " at '\(String(Array(text)[min(error.offset, text.count - 1)...]).prefix(12))'" : ""
      throw node.error("in \"\(quoted: s)\": \(escaped: error.message)\(quoted: marker)")
    }
  }

  private static func unknownReference(_ name: String, _ node: TemplateNode, _ values: [String: JSON5Value])
    -> TemplateError
  {
    let names = values.keys.sorted()
    var message = "unknown parameter '$\(quoted: name)'"
    if names.isEmpty {
      message += "; the template declares no parameters (write $$ for a literal '$')"
    } else {
      if let guess = TemplateNode.closest(to: name, in: names) { message += "; did you mean '$\(escaped: guess)'?" }
      message += " (parameters: \(TemplateText.list(names)))"
    }
    return node.error(message)
  }

  /// `value` with every position moved to `site`'s and its origin recorded.
  private static func repositioned(_ value: JSON5Value, like site: JSON5Value, origin: String) -> JSON5Value {
    var out = value
    out.line = site.line
    out.column = site.column
    out.origin = origin
    switch value.kind {
    case .array(let items): out.kind = .array(items.map { repositioned($0, like: site, origin: origin) })
    case .object(let members):
      out.kind = .object(
        members.map { m in
          var m = m
          m.value = repositioned(m.value, like: site, origin: origin)
          m.line = site.line
          m.column = site.column
          return m
        })
    default: break
    }
    return out
  }
}
