import FlickScene

extension Template {
  /// The layer keys a style cannot set: what makes a layer itself, not its appearance.
  static let styleForbiddenKeys = ["id", "sublayers", "style"]

  /// Decodes the `styles` section: named bags of layer properties.
  static func decodeStyles(_ node: TemplateNode?) throws(TemplateError) -> [String: [JSON5Value.Member]] {
    guard let node else { return [:] }
    guard case .object(let members) = node.value.kind else { throw node.expected("an object of named styles") }
    var styles: [String: [JSON5Value.Member]] = [:]
    for m in members {
      let style = node.child(m.key, m.value)
      guard case .object(let properties) = m.value.kind else {
        throw style.expected("an object of layer properties")
      }
      for p in properties where styleForbiddenKeys.contains(p.key) {
        throw TemplateError(
          file: node.file, path: style.path + "." + p.key, line: p.line, column: p.column,
          message: "a style cannot set '\(quoted: p.key)' (styles hold appearance and geometry shared by layers)")
      }
      styles[m.key] = properties.map { p in
        var p = p
        if p.value.origin == nil { p.value.origin = "style '\(m.key)'" }
        return p
      }
    }
    return styles
  }

  /// Checks the styles no layer names (`style:` anywhere in `layers` or `components`), so a
  /// mistake in a style not (yet) used is not silent: each key must be one some layer takes, and
  /// each value the value alone decides (a layer property of the catalogue, such as `opacity` or
  /// `shadowColor`, or a `transform`) is decoded as a layer would decode it. The other values
  /// (text, shape and gradient content, pictures, masks) depend on the keys of the layer that
  /// uses the style and are checked there.
  static func checkUnusedStyles(_ node: TemplateNode?, usedIn sources: [TemplateNode?]) throws(TemplateError) {
    guard let node, case .object(let members) = node.value.kind else { return }
    var used = Set<String>()
    for source in sources { if let source { collectStyleNames(source.value, into: &used) } }
    let keys = styleableKeys
    for m in members where !used.contains(m.key) {
      guard case .object(let properties) = m.value.kind else { continue }
      let style = node.child(m.key, m.value)
      for p in properties where !keys.contains(p.key) {
        var message = "unknown key '\(quoted: p.key)'"
        if let guess = TemplateNode.closest(to: p.key, in: keys) { message += "; did you mean '\(escaped: guess)'?" }
        message += " (no layer uses style '\(quoted: m.key)'; its keys must still be layer keys)"
        throw TemplateError(
          file: node.file, path: style.path + "." + p.key, line: p.line, column: p.column, message: message)
      }
      for p in properties {
        do throws(TemplateError) {
          try checkValue(of: p.key, style.child(p.key, p.value))
        } catch {
          var error = error
          error.message += " (in style '\(quoted: m.key)', which no layer uses)"
          throw error
        }
      }
    }
  }

  /// Decodes `node`, the value of `key` in a style, where the value alone decides whether it is
  /// valid (``checkUnusedStyles(_:usedIn:)``).
  private static func checkValue(of key: String, _ node: TemplateNode) throws(TemplateError) {
    if key == "transform" {
      _ = try decodeTransform(node)
    } else if let descriptor = decodedPropertyKeys.first(where: { $0.key == key })?.descriptor {
      var scratch = Layer(id: "")
      try descriptor.write(node, into: &scratch)
    }
  }

  /// Every key a style may set: the keys of any kind of layer, less ``styleForbiddenKeys``.
  static var styleableKeys: [String] {
    var keys = baseLayerKeys
    for kind in LayerContentKind.allCases { keys += contentKeys[kind] ?? [] }
    var seen = Set<String>()
    return keys.filter { !styleForbiddenKeys.contains($0) && seen.insert($0).inserted }
  }

  /// The style names `value` mentions in `style:` members, at any depth.
  private static func collectStyleNames(_ value: JSON5Value, into names: inout Set<String>) {
    switch value.kind {
    case .object(let members):
      for m in members {
        if m.key == "style" {
          if case .string(let s) = m.value.kind { names.insert(s) }
          if case .array(let items) = m.value.kind {
            for case .string(let s) in items.map(\.kind) { names.insert(s) }
          }
        }
        collectStyleNames(m.value, into: &names)
      }
    case .array(let items): for item in items { collectStyleNames(item, into: &names) }
    default: break
    }
  }

  /// The layer objects under `node` (an array of layers) with every `style: "name"` (or
  /// `style: ["a", "b"]`, later styles winning) replaced by the style's properties; the layer's
  /// own properties win over its styles'.
  static func applyStyles(_ node: TemplateNode, _ styles: [String: [JSON5Value.Member]]) throws(TemplateError)
    -> JSON5Value
  {
    guard case .array(let items) = node.value.kind else { return node.value }
    var out = node.value
    var layers: [JSON5Value] = []
    for (i, item) in items.enumerated() {
      let layerNode = TemplateNode(value: item, path: "\(node.path)[\(i)]", file: node.file, context: node.context)
      guard case .object(let members) = item.kind else {
        layers.append(item)
        continue
      }
      var merged: [JSON5Value.Member] = []
      var own = members
      if let styleMember = members.first(where: { $0.key == "style" }) {
        own.removeAll { $0.key == "style" }
        let styleNode = layerNode.child("style", styleMember.value)
        let names: [TemplateNode]
        if case .array = styleMember.value.kind { names = try styleNode.array() } else { names = [styleNode] }
        for nameNode in names {
          let name = try nameNode.string()
          guard let properties = styles[name] else {
            var message = "unknown style '\(quoted: name)'"
            if let guess = TemplateNode.closest(to: name, in: styles.keys.sorted()) {
              message += "; did you mean '\(escaped: guess)'?"
            }
            message +=
              styles.isEmpty
              ? " (the template has no 'styles')" : " (styles: \(TemplateText.list(styles.keys.sorted())))"
            throw nameNode.error(message)
          }
          // A style's value reports the layer, the style and its place in `styles`, as a component
          // instance's does: `layers[0] (style "card") → styles.card.size`.
          merged += properties.map { p in
            var p = p
            if p.value.anchor == nil {
              p.value.anchor = layerNode.path + " (style \"" + name + "\") → styles." + name + "." + p.key
            }
            return p
          }
        }
      }
      for var m in own {
        if m.key == "sublayers" {
          m.value = try applyStyles(layerNode.child("sublayers", m.value), styles)
        }
        merged.append(m)
      }
      var layer = item
      layer.kind = .object(lastOfEachKey(merged))
      layers.append(layer)
    }
    out.kind = .array(layers)
    return out
  }

  /// The members with only the last occurrence of each key kept, in the order of those last
  /// occurrences (later styles win, the layer's own properties win over all): one pass with a
  /// dictionary, so merging many keys stays linear.
  static func lastOfEachKey(_ members: [JSON5Value.Member]) -> [JSON5Value.Member] {
    var last: [String: Int] = [:]
    for (i, m) in members.enumerated() { last[m.key] = i }
    return members.enumerated().filter { last[$0.element.key] == $0.offset }.map(\.element)
  }
}
