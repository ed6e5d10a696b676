import FlickMotion
import FlickScene

/// The JSON Schema of the animatable properties' values, from their catalogue rows: each row's
/// value type (angles are `angle`) and range. A row whose range is its value type's own (any
/// number; sizes are never negative) uses the shared definition (`number`, `size`, …); a ranged
/// one uses a definition made for its range (`numberIn0To1` for opacity), so the schema refuses
/// what the decoder refuses.
enum PropertySchema {
  /// One value definition: its name, its value type's and its range (nil: the type's own).
  struct ValueType: Equatable {
    var name: String
    var base: String
    var range: ClosedRange<Double>?
  }

  /// The range each shared value definition already has.
  private static func ownRange(of base: String) -> ClosedRange<Double>? { base == "size" ? 0 ... .infinity : nil }

  /// The value type of `descriptor`.
  static func valueType(_ descriptor: LayerPropertyDescriptor) -> ValueType {
    let base = descriptor.isAngle ? "angle" : descriptor.property.valueTypeName
    guard let range = descriptor.range, range != ownRange(of: base) else {
      return ValueType(name: base, base: base, range: nil)
    }
    func bound(_ v: Double) -> String {
      v == .infinity ? "Up" : (v < 0 ? "Minus" : "") + TemplateNode.format(abs(v))
    }
    return ValueType(name: "\(base)In\(bound(range.lowerBound))To\(bound(range.upperBound))", base: base, range: range)
  }

  /// The shared value types, then each ranged one the catalogue uses, in catalogue order.
  static var valueTypes: [ValueType] {
    var out = ["number", "angle", "point", "size", "rect", "color", "colors"].map {
      ValueType(name: $0, base: $0, range: nil)
    }
    for d in LayerPropertyDescriptor.catalogue {
      let type = valueType(d)
      if !out.contains(type) { out.append(type) }
    }
    return out
  }

  /// The definitions of the ranged value types (the shared ones are ``TemplateSchema``'s).
  static var rangedDefinitions: [(String, SchemaNode)] {
    valueTypes.compactMap { type in type.range.map { (type.name, schema(of: type.base, in: $0)) } }
  }

  /// A number in `range` (no maximum when it is unbounded above), or a parameter reference.
  private static func number(in range: ClosedRange<Double>) -> SchemaNode {
    func bound(_ v: Double) -> SchemaNode { v == v.rounded() && abs(v) < 1e15 ? .integer(Int(v)) : .number(v) }
    var fields: [(String, SchemaNode)] = [("type", "number"), ("minimum", bound(range.lowerBound))]
    if range.upperBound.isFinite { fields.append(("maximum", bound(range.upperBound))) }
    return TemplateSchema.withReference(.fields(fields))
  }

  /// The schema of a `base` value whose ranged components are in `range` (``LayerPropertyDescriptor/range``).
  private static func schema(of base: String, in range: ClosedRange<Double>) -> SchemaNode {
    let n = number(in: range)
    func pair(_ a: String, _ b: String, _ item: SchemaNode) -> [SchemaNode] {
      [
        ["type": "array", "items": item, "minItems": 2, "maxItems": 2],
        [
          "type": "object", "required": [.string(a), .string(b)], "additionalProperties": false,
          "properties": .fields([(a, item), (b, item)]),
        ],
      ]
    }
    switch base {
    case "point": return ["anyOf": .array(pair("x", "y", n) + [TemplateSchema.parameterReference])]
    case "size": return ["anyOf": .array(pair("width", "height", n) + [TemplateSchema.parameterReference])]
    case "rect":
      let free = SchemaNode.ref("number")
      return [
        "anyOf": [
          ["type": "array", "prefixItems": [free, free, n, n], "minItems": 4, "maxItems": 4],
          [
            "type": "object", "required": ["x", "y", "width", "height"], "additionalProperties": false,
            "properties": .fields([("x", free), ("y", free), ("width", n), ("height", n)]),
          ],
          TemplateSchema.parameterReference,
        ]
      ]
    default: return n
    }
  }
}
