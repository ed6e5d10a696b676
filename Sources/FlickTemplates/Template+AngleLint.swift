import FlickMotion
import Foundation

extension Template {
  /// Keys whose numbers are angles in radians.
  static let angleKeys: Set<String> = ["rotation", "rotationX", "rotationY", "startAngle", "endAngle"]

  /// Warnings for bare angles above a full turn (|v| > 2π radians): `rotation: 45` is 45 radians
  /// (seven turns), almost always meant as degrees. Each names the file, line, column and path and
  /// suggests the degree form (`"45deg"`). Reads the JSON5 text as written (parameter values are
  /// not substituted), so it never fails: text that does not parse has no warnings here.
  package static func angleWarnings(in text: String, file: String) -> [String] {
    guard let root = try? JSON5Parser.parse(text) else { return [] }
    return angleWarnings(in: root, file: file)
  }

  /// ``angleWarnings(in:file:)`` of the tree `root` the text was parsed into.
  static func angleWarnings(in root: JSON5Value, file: String) -> [String] {
    var out: [String] = []
    func check(_ v: JSON5Value, _ path: String) {
      guard case .number(let n) = v.kind, n.isFinite, abs(n) > 2 * .pi + 1e-9 else { return }
      let degrees = n * 180 / .pi
      out.append(
        "\(quoted: file):\(v.line):\(v.column): \(quoted: path): \(TemplateNode.format(n)) is in radians "
          + "(\(TemplateNode.format(degrees.rounded()))°, more than a full turn); "
          + "for degrees write \"\(TemplateNode.format(n))deg\"")
    }
    /// The angle values of an animation object or value: a number, `to`/`from`/`by`, keyframe values.
    func checkAngleValue(_ v: JSON5Value, _ path: String) {
      switch v.kind {
      case .number: check(v, path)
      case .object(let members):
        for m in members {
          switch m.key {
          case "to", "from", "by": check(m.value, "\(path).\(m.key)")
          case "keyframes":
            if case .object(let k) = m.value.kind, let values = k.first(where: { $0.key == "values" }),
              case .array(let items) = values.value.kind
            {
              for (i, item) in items.enumerated() { check(item, "\(path).keyframes.values[\(i)]") }
            }
          default: break
          }
        }
      default: break
      }
    }
    func walk(_ v: JSON5Value, _ path: String) {
      switch v.kind {
      case .object(let members):
        // An entry animating one angle property: `{ property: "rotation", to: 45 }`.
        if let p = members.first(where: { $0.key == "property" }), case .string(let name) = p.value.kind,
          angleKeys.contains(name)
        {
          for m in members where ["to", "from", "by"].contains(m.key) {
            check(m.value, path.isEmpty ? m.key : "\(path).\(m.key)")
          }
        }
        for m in members {
          let child = path.isEmpty ? m.key : "\(path).\(m.key)"
          if angleKeys.contains(m.key) { checkAngleValue(m.value, child) } else { walk(m.value, child) }
        }
      case .array(let items):
        for (i, item) in items.enumerated() { walk(item, "\(path)[\(i)]") }
      default: break
      }
    }
    walk(root, "")
    return out
  }
}
