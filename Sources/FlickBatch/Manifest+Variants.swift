import FlickTemplates
import FlickMotion
import Foundation

/// A render's parameter sets: inline objects, params files, and the rows of a data file (CSV or
/// JSON5). The files are confined to the manifest's folder and read bounded; their bytes never
/// appear in a message (a syntax error says the file, line, column and what was expected); names
/// taken from their values are made plain.
extension Manifest {
  /// The render's variants (one empty set when none are given), named.
  ///
  /// - Parameter before: Variants of the renders before this one, against ``ManifestLimits/variants``.
  static func variants(
    _ o: [String: TemplateNode], owner: TemplateNode, scope: ManifestScope, before: Int
  ) throws(TemplateError) -> [Variant] {
    let cap = scope.policy.limits.variants
    var variants: [Variant] = []
    if let list = o["variants"] {
      let items = try list.array()
      guard before + items.count <= cap else { throw list.error(tooMany(cap)) }
      for item in items { variants.append(try variant(item, scope: scope)) }
    }
    if let data = o["data"] {
      variants += try dataRows(data, scope: scope)
      guard before + variants.count <= cap else { throw data.error(tooMany(cap)) }
    }
    if variants.isEmpty { variants = [Variant(name: "", values: ParameterValues(), files: [])] }
    try nameVariants(&variants, key: o["variantName"], owner: owner, scope: scope)
    return variants
  }

  static func tooMany(_ cap: Int) -> String {
    "the manifest has more than \(cap) variants (the cap of a manifest); split it into several manifests"
  }

  /// An inline object of values or the path of a params file.
  private static func variant(_ node: TemplateNode, scope: ManifestScope) throws(TemplateError) -> Variant {
    var values = ParameterValues()
    if case .string = node.value.kind {
      let (path, text, inside) = try scope.read(node, what: "params file")
      try values.load(text: text, file: path, showingInput: false)
      // Its labels come from the values just read: the file is read once, bounded and confined.
      var labels: [String: String] = [:]
      for (name, value) in values.jsonValues { labels[name] = label(value) }
      var variant = Variant(name: "", values: values, files: [path], labels: labels)
      variant.quotable = inside
      return variant
    }
    var labels: [String: String] = [:]
    _ = try node.members()
    guard case .object(let members) = node.value.kind else { return Variant(name: "", values: values, files: []) }
    for member in members {
      values.set(member: member, file: node.file, path: node.path)
      labels[member.key] = label(member.value)
    }
    return Variant(name: "", values: values, files: [], labels: labels)
  }

  /// One variant per row of a CSV file (a header of parameter names; values as `--set` takes
  /// them, file paths relative to the CSV's folder) or of a JSON/JSON5 file holding an array of
  /// objects.
  private static func dataRows(_ node: TemplateNode, scope: ManifestScope) throws(TemplateError) -> [Variant] {
    let (path, text, inside) = try scope.read(node, what: "data file")
    let limits = scope.policy.limits
    let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
    if path.lowercased().hasSuffix(".csv") {
      let rows = try CSV.parse(text, file: path, limits: limits)
      guard let header = rows.first, !header.fields.isEmpty else {
        throw TemplateError(
          file: path, path: "", line: 1, column: 1, message: "the CSV file needs a header row of parameter names")
      }
      for (i, name) in header.fields.enumerated() where name.count > limits.parameterNameCharacters {
        throw TemplateError(
          file: path, path: "", line: header.position(ofField: i).line, column: header.position(ofField: i).column,
          message: "header field \(i + 1) is longer than \(quoted: limits.parameterNameCharacters) characters; "
            + "it must name a parameter")
      }
      var out: [Variant] = []
      for row in rows.dropFirst() {
        guard row.fields.count == header.fields.count else {
          // The first field too many, or the row's end.
          let at = row.position(ofField: min(row.fields.count, header.fields.count))
          throw TemplateError(
            file: path, path: "", line: at.line, column: at.column,
            message: "this row has \(row.fields.count) fields, the header has \(header.fields.count)")
        }
        var values = ParameterValues()
        var labels: [String: String] = [:]
        for (i, (name, field)) in zip(header.fields, row.fields).enumerated() where !name.isEmpty {
          let (cell, key) = (row.position(ofField: i), header.position(ofField: i))
          values.set(
            name, text: field, folder: folder,
            cell: ParameterValues.Site(file: path, line: cell.line, column: cell.column),
            key: ParameterValues.Site(file: path, line: key.line, column: key.column))
          labels[name] = field
        }
        var variant = Variant(name: "", values: values, files: [path], labels: labels, row: (path, row.line))
        variant.quotable = inside
        out.append(variant)
      }
      return out
    }
    let root: JSON5Value
    do {
      root = try JSON5Parser.parse(text)
    } catch {
      throw TemplateError(file: path, path: "", line: error.line, column: error.column, message: error.plainMessage)
    }
    let doc = TemplateNode(document: root, file: path)
    guard case .array(let items) = root.kind else {
      throw doc.error("expected an array of objects (one per variant), found \(quoted: root.kindDescription)")
    }
    guard items.count <= limits.variants else { throw doc.error(tooMany(limits.variants)) }
    var out: [Variant] = []
    for row in try doc.array() {
      guard case .object(let members) = row.value.kind else {
        throw row.error("expected an object of parameter values, found \(quoted: row.value.kindDescription)")
      }
      var values = ParameterValues()
      var labels: [String: String] = [:]
      for member in members {
        guard member.key.count <= limits.parameterNameCharacters else {
          throw row.error(
            "a key is longer than \(quoted: limits.parameterNameCharacters) characters; it must name a parameter")
        }
        values.set(member: member, file: path, path: row.path)
        labels[member.key] = label(member.value)
      }
      var variant = Variant(name: "", values: values, files: [path], labels: labels, row: (path, row.value.line))
      variant.quotable = inside
      out.append(variant)
    }
    return out
  }

  /// Names variants by `variantName`'s parameter (its value, made a plain name) or by number;
  /// two variants with the same name are refused.
  private static func nameVariants(
    _ variants: inout [Variant], key: TemplateNode?, owner: TemplateNode, scope: ManifestScope
  ) throws(TemplateError) {
    if variants.count == 1 && key == nil && variants[0].files.isEmpty && variants[0].values.isEmpty {
      variants[0].name = "default"
      return
    }
    let limits = scope.policy.limits
    let digits = String(variants.count).count
    // Keyed by the name case-folded: on a file system that ignores case (macOS, Windows) two
    // names that differ only by it are one folder.
    var seen: [String: (index: Int, name: String)] = [:]
    for i in variants.indices {
      var name = String(i + 1)
      name = String(repeating: "0", count: max(0, digits - name.count)) + name
      // A params file (one file, not a data file's row) names its variant by its file name.
      if key == nil, variants[i].row == nil, let file = variants[i].files.first, variants[i].files.count == 1 {
        name = sanitised(URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent, limits: limits)
      }
      if let key {
        let parameter = try key.string()
        guard let text = variants[i].labels[parameter] else {
          throw key.error("variant \(i + 1) has no value for '\(quoted: parameter)', which names the variants")
        }
        name = sanitised(text, limits: limits)
      }
      if let first = seen[Manifest.caseFolded(name)] {
        // A name taken from a file only --allow-outside-manifest let in is its text: not shown.
        let shown = key == nil || (variants[first.index].quotable && variants[i].quotable)
        guard first.name == name else {
          throw (key ?? owner).error(
            "variants \(quoted: first.index + 1) and \(i + 1) are named "
              + (shown ? "'\(quoted: first.name)' and '\(quoted: name)'" : "alike")
              + ", which differ only by case: on a file system that ignores case (macOS, Windows) they are one folder; "
              + "set 'variantName' to a parameter that tells them apart")
        }
        throw (key ?? owner).error(
          "variants \(quoted: first.index + 1) and \(i + 1) are both named "
            + (shown ? "'\(quoted: name)'" : "alike") + " (names are made of letters, digits, '.', '_' "
            + "and '-'); set 'variantName' to a parameter that tells them apart")
      }
      seen[Manifest.caseFolded(name)] = (i, name)
      variants[i].name = name
    }
  }

  /// A scalar value as text (strings as written, numbers without a trailing `.0`).
  static func label(_ value: JSON5Value) -> String? {
    switch value.kind {
    case .string(let s): return s
    case .number(let v): return TemplateNode.format(v)
    case .bool(let b): return String(b)
    default: return nil
    }
  }
}
