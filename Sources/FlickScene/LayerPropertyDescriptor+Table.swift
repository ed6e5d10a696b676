extension LayerPropertyDescriptor {
  /// The columns of ``table``.
  package static let tableHeader = [
    "property", "value", "unit", "range", "layer", "part of", "layer key", "Swift key path",
  ]

  /// This row's cells: name, value type, unit, range (``rangeText``), layer kind (`any`), the
  /// property it is part of, its key in a template's layer object and its key path from `Layer`.
  package var tableCells: [String] {
    func code(_ s: String?) -> String { s.map { "`\($0)`" } ?? "" }
    return [
      code(name), property.valueTypeName, unit.rawValue, rangeText, contentKind?.rawValue ?? "any", code(partOf),
      code(layerKey), code(keyPath.map { "\\.\($0.spelling)" }),
    ]
  }

  /// The catalogue as a Markdown table (docs/layers.md holds it; `flick info --properties`
  /// prints it).
  package static var table: [String] {
    func row(_ cells: [String]) -> String { "| " + cells.joined(separator: " | ") + " |" }
    return [row(tableHeader), row(tableHeader.map { _ in "---" })] + catalogue.map { row($0.tableCells) }
  }
}
