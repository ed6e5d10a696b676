extension Template {
  /// Refuses a NUL character (U+0000) in any string value of `node`, at that string: Pango,
  /// fontconfig and the file system read a string only up to its first NUL, so a text
  /// `"A\u0000B"` would draw "A" (and a font or file name would name another one). Checked after
  /// parameters and components are substituted, so a `--set`, `--params` or component value is
  /// caught where it is used, naming the parameter.
  static func refuseNULCharacters(in node: TemplateNode) throws(TemplateError) {
    guard containsNUL(node.value) else { return }
    var stack = [node]
    while let n = stack.popLast() {
      switch n.value.kind {
      case .string(let s) where s.utf8.contains(0):
        throw n.error(
          "a NUL character (\\u0000) inside the string '\(quoted: s)': text would stop drawing there (and a name "
            + "or path would end there); remove it")
      case .array(let items):
        for (i, item) in items.enumerated().reversed() where containsNUL(item) {
          stack.append(TemplateNode(value: item, path: "\(n.path)[\(i)]", file: n.file, context: n.context))
        }
      case .object(let members):
        for m in members.reversed() where containsNUL(m.value) { stack.append(n.child(m.key, m.value)) }
      default: break
      }
    }
  }

  /// Whether a string anywhere in `value` holds a NUL character (no recursion: any depth).
  private static func containsNUL(_ value: JSON5Value) -> Bool {
    var stack = [value]
    while let v = stack.popLast() {
      switch v.kind {
      case .string(let s): if s.utf8.contains(0) { return true }
      case .array(let items): stack += items
      case .object(let members): stack += members.map(\.value)
      default: break
      }
    }
    return false
  }
}
