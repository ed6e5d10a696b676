import FlickMotion
import FlickScene

/// Schemas of the objects that name one property (a `release`, a `drag`, the short form) and of a
/// drag's `resistance`.
extension TimelineCompiler {
  /// For an object naming one property in `property` (a `release`, a `drag`, the short form):
  /// one condition per ranged property it may name, typing its keys with the property's value
  /// definition (`value`, with the range) or its value type (`change`, for `by` and `velocity`).
  static func perProperty(_ keys: (_ value: SchemaNode, _ change: SchemaNode) -> [(String, SchemaNode)]) -> SchemaNode {
    .array(
      LayerPropertyDescriptor.catalogue.filter { $0.range != nil }.map { d in
        let type = PropertySchema.valueType(d)
        let named: SchemaNode = ["required": ["property"], "properties": ["property": ["const": .string(d.name)]]]
        let typed = keys(TemplateSchema.value(ofType: type.name), TemplateSchema.value(ofType: type.base))
        return ["if": named, "then": ["properties": .fields(typed)]]
      })
  }

  /// A drag's `resistance` (``DragResistance``).
  static var resistanceSchema: SchemaNode {
    let end: SchemaNode = ["anyOf": [.ref("number"), ["type": "null"]]]
    let axis: SchemaNode = [
      "description": "[min, max] along the axis (null for an open end); past them the rubber band resists.",
      "type": "array", "items": end, "minItems": 2, "maxItems": 2,
    ]
    return [
      "description":
        "UIScrollView's rubber band past the bounds: bound + (1 − 1 / (o·c / D + 1))·D for an overshoot o.",
      "type": "object", "required": ["bounds"], "additionalProperties": false,
      "properties": [
        "bounds": [
          "type": "object", "minProperties": 1, "additionalProperties": false, "properties": ["x": axis, "y": axis],
        ],
        "coefficient": TemplateSchema.describing(
          "c (default 0.55).", TemplateSchema.number(in: DragResistance.coefficientRange)),
        "dimension": TemplateSchema.describing(
          "D in points (default: the canvas size along the axis).",
          TemplateSchema.number(in: DragResistance.dimensionRange)),
      ],
    ]
  }
}
