import FlickMotion
import FlickScene

extension TimelineCompiler {
  /// The `link` entry's `$defs`: one link object per value type (`numberLink`, `angleLink`, …)
  /// and `link`, the properties a link entry may set (every catalogue property).
  static var linkSchemaDefinitions: [(String, SchemaNode)] {
    typealias S = TemplateSchema
    let stops = InterpolationMap<Double>.maximumStops
    let extrapolation: SchemaNode = ["enum": .strings(InterpolationExtrapolation.allCases.map(\.rawValue))]
    var defs: [(String, SchemaNode)] = []
    for valueType in schemaValueTypes {
      let type = valueType.name
      var keys: [(String, SchemaNode)] = [
        (
          "from",
          [
            "description":
              "What the property follows: \"layer.property\" (a number property, e.g. \"card.positionX\"), \"property\" of the entry's own target, or \"time\" (scene seconds).",
            "type": "string", "minLength": 1,
          ]
        ),
        (
          "input",
          [
            "description": "The source's stops, strictly increasing.",
            "type": "array", "items": .ref("number"), "minItems": 2, "maxItems": .integer(stops),
          ]
        ),
        (
          "output",
          [
            "description": "The property's value at each input stop.",
            "type": "array", "items": S.value(ofType: type), "minItems": 2, "maxItems": .integer(stops),
          ]
        ),
        (
          "curve",
          [
            "description": "The timing curve between stops: one for every gap, or a list with one per gap.",
            "anyOf": [.ref("curve"), ["type": "array", "items": .ref("curve"), "minItems": 1]],
          ]
        ),
        ("extrapolate", extrapolation), ("extrapolateLeft", extrapolation), ("extrapolateRight", extrapolation),
      ]
      if valueType.base == "color" { keys.append(("colorSpace", .ref("colorSpace"))) }
      defs.append(
        (
          type + "Link",
          [
            "type": "object", "required": ["from", "input", "output"], "additionalProperties": false,
            "properties": .fields(keys),
          ]
        ))
    }
    defs.append(
      (
        "link",
        [
          "type": "object", "minProperties": 1, "additionalProperties": false,
          "properties": .fields(LayerPropertyDescriptor.catalogue.map { ($0.name, .ref(schemaType($0) + "Link")) }),
        ]
      ))
    return defs
  }
}
