import FlickMotion
import FlickScene
import FlickTemplates

extension Flick {
  /// `flick info TEMPLATE`: what a template is, what it takes and what it contains.
  enum Info {
    static let help = """
      USAGE: flick info TEMPLATE|LOTTIE.json [--set NAME=VALUE]... [--params FILE]
             flick info --properties

      Describes TEMPLATE (a file, or the name of a bundled template): its description, its
      parameters with types, defaults and the values in effect, the canvas (size, fps,
      duration), the layer tree and the timeline.

      --properties prints the animatable properties instead: value type, unit, the range a
      written value may take, layer kind, the state each is part of, its layer key and its
      Swift key path (the table of docs/layers.md).

      OPTIONS
      \(Flick.templateOptionsHelp)
      """

    static func run(_ args: [String]) throws {
      let a = try Arguments(
        args, valued: Flick.templateOptions, flags: Flick.templateFlags.union(["help", "h", "properties"]),
        checks: Flick.templateChecks)
      if a.has("help") || a.has("h") {
        StandardStream.writeOutputLine(help)
        return
      }
      if a.has("properties") {
        guard a.positionals.isEmpty else {
          throw CommandError.usage("info --properties takes no TEMPLATE")
        }
        StandardStream.writeOutputLine(LayerPropertyDescriptor.table.joined(separator: "\n"))
        return
      }
      guard a.positionals.count == 1, let path = a.positionals.first else {
        throw CommandError.usage(
          a.positionals.isEmpty ? "info needs a TEMPLATE" : "info takes one TEMPLATE")
      }
      let source = try readSource(path, a)
      if let lottie = try describeLottie(source, a) {
        StandardStream.writeOutputLine(lottie)
        return
      }
      let template = try loadTemplate(path, a, source: source)
      StandardStream.writeOutputLine(describe(template, file: source.path))
    }

    /// The most characters of a template's or parameter's description `flick info` shows.
    static let descriptionLimit = 1_000

    /// The report `flick info` prints.
    static func describe(_ template: Template, file: String) -> String {
      let scene = template.scene
      var lines: [String] = []
      // Everything below that a template wrote (names, descriptions, ids, strings) goes through
      // TemplateText, so a hostile template cannot forge lines or terminal escapes; names and ids
      // are capped as every echo is (200 characters), descriptions at 1,000.
      let name = TemplateText.quoted(template.name)
      lines.append(
        template.description.isEmpty ? name : "\(name) — \(quoted: template.description, limit: Self.descriptionLimit)")
      lines.append("file: \(quoted: file)")
      let seconds = DecimalText.format(scene.duration)
      lines.append(
        "canvas: \(Int(scene.size.width))×\(Int(scene.size.height)) px, \(scene.fps) fps, \(seconds) s"
          + (template.automaticDuration ? " (auto)" : "") + ", \(scene.frameCount) frames, background "
          + Flick.backgroundText(scene.backgroundColor))
      if let blur = scene.motionBlur {
        lines.append(
          "motion blur: \(DecimalText.format(blur.shutterAngle))° shutter, \(blur.samples) samples per moving frame")
      }

      lines.append("")
      if template.parameters.isEmpty {
        lines.append("parameters: none")
      } else {
        lines.append("parameters:")
        var rows: [[String]] = []
        for p in template.parameters {
          let defaultText = p.defaultValue.map { "default " + TemplateNumber.literal($0) } ?? "required"
          var row = [TemplateText.quoted(p.name), TemplateText.quoted(p.typeDescription), defaultText]
          if let value = template.parameterValues[p.name], value != p.defaultValue {
            row[2] += " (now " + TemplateNumber.literal(value) + ")"
          }
          row.append(TemplateText.quoted(p.description, limit: Self.descriptionLimit))
          rows.append(row)
        }
        lines += table(rows).map { "  " + $0 }
      }

      lines.append("")
      lines.append("layers:")
      let instances = Dictionary(template.componentInstances.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
      func walk(_ layer: Layer, depth: Int) {
        let size = "\(DecimalText.format(layer.bounds.width))×\(DecimalText.format(layer.bounds.height))"
        let at = "(\(DecimalText.format(layer.position.x)), \(DecimalText.format(layer.position.y)))"
        var line = String(repeating: "  ", count: depth + 1) + "\(quoted: layer.id)  "
        if layer.content.kind != .none { line += "\(layer.content.kind.rawValue) " }
        line += "\(size) at \(at)"
        if case .text(let text) = layer.content {
          line += "  \"\(escaped: String(text.string.unicodeScalars.prefix(40)))\""
        }
        if let instance = instances[layer.id] {
          // A component instance: which component, with its own parameter values.
          let values = instance.parameterValues.sorted { $0.key < $1.key }.map { name, value in
            let literal = TemplateNumber.literal(value)
            return "\(quoted: name): " + (literal.count > 32 ? literal.prefix(31) + "…" : literal)
          }
          line += "  ◇ \(quoted: instance.component)" + (values.isEmpty ? "" : "(\(values.joined(separator: ", ")))")
        }
        lines.append(line)
        for child in layer.sublayers { walk(child, depth: depth + 1) }
      }
      for layer in scene.layers { walk(layer, depth: 0) }
      if scene.layers.isEmpty { lines.append("  (none)") }

      lines.append("")
      lines.append("timeline: \(scene.animations.count) animation\(scene.animations.count == 1 ? "" : "s")")
      let sorted = scene.animations.enumerated().sorted {
        ($0.element.beginTime, $0.offset) < ($1.element.beginTime, $1.offset)
      }
      for (_, animation) in sorted {
        let start = DecimalText.format(animation.beginTime)
        let end = animation.duration.isFinite ? DecimalText.format(animation.beginTime + animation.duration) : "∞"
        lines.append("  \(start)–\(end) s  \(quoted: animation.layerID).\(animation.propertyName)")
      }
      if !template.crossings.isEmpty {
        lines.append("")
        lines.append("crossings (when):")
        for c in template.crossings {
          lines.append(
            "  \(DecimalText.format(c.time)) s  \(quoted: c.layerID).\(quoted: c.property) crosses "
              + "\(DecimalText.format(c.level)) going \(c.isUp ? "up" : "down") (searched from "
              + "\(DecimalText.format(c.searchFrom)) s) → \(quoted: c.path)")
        }
      }
      return lines.joined(separator: "\n")
    }

    /// Rows with columns padded to a common width (the last column is not padded).
    static func table(_ rows: [[String]]) -> [String] {
      guard let columns = rows.map(\.count).max() else { return [] }
      var widths = [Int](repeating: 0, count: columns)
      for row in rows { for (i, cell) in row.enumerated() { widths[i] = max(widths[i], cell.count) } }
      return rows.map { row in
        row.enumerated().map { i, cell in
          i == row.count - 1 ? cell : cell.padding(toLength: widths[i] + 2, withPad: " ", startingAt: 0)
        }.joined().trimmingTrailingSpaces()
      }
    }
  }
}

/// Formatting of numbers and JSON5 values for reports.
enum TemplateNumber {
  /// A value as a JSON5 literal: `"#F97316"`, `3`, `true`, `["a", "b"]`.
  static func literal(_ v: JSON5Value) -> String {
    switch v.kind {
    case .null: return "null"
    case .bool(let b): return b ? "true" : "false"
    case .number(let d): return DecimalText.format(d)
    case .string(let s): return "\"\(TemplateText.escaped(s))\""
    case .array(let items): return "[" + items.map(literal).joined(separator: ", ") + "]"
    case .object(let members):
      return "{ " + members.map { "\(TemplateText.escaped($0.key)): \(literal($0.value))" }.joined(separator: ", ")
        + " }"
    }
  }
}

extension String {
  fileprivate func trimmingTrailingSpaces() -> String {
    var s = self
    while s.hasSuffix(" ") { s.removeLast() }
    return s
  }
}
