import FlickScene

extension TimelineCompiler {
  /// The `when` placement's schema (`$defs.crossing`): the names ``CrossedProperty`` accepts;
  /// `crosses` in degrees for its angles only.
  static var crossingSchema: SchemaNode {
    [
      "description":
        "Starts the entry when a property of a layer crosses a value (found on its compiled track; with 'at' / 'after' / 'with', the first crossing from then on).",
      "type": "object", "required": ["target", "property", "crosses"], "additionalProperties": false,
      "properties": [
        "target": ["description": "The layer to watch.", "type": "string", "minLength": 1],
        "property": [
          "description":
            "A number property (positionY, opacity, rotation, …) or a component (position.y, size.height).",
          "enum": .strings(CrossedProperty.names),
        ],
        "crosses": [
          "description": "The value to wait for, in the property's unit (angles also as \"90deg\").",
          "anyOf": [.ref("number"), .ref("angle")],
        ],
        "direction": [
          "description": "Only crossings going up (from below) or down (from above); default either.",
          "enum": .strings(CrossingDirection.allCases.map(\.rawValue)),
        ],
      ],
      // Degrees only where the watched property is an angle.
      "if": [
        "required": ["property"], "properties": ["property": ["not": ["enum": .strings(CrossedProperty.angleNames)]]],
      ],
      "then": ["properties": ["crosses": .ref("number")]],
    ]
  }
}
