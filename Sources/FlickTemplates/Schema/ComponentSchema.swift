extension ComponentExpander {
  /// The schema definitions of components: `component` (a member of `components`) and
  /// `componentInstance` (a layer with `use:`), from ``TemplateComponent/keys``,
  /// ``instanceKeys`` and ``overridingKeys``.
  static var schemaDefinitions: [(String, SchemaNode)] {
    let layers = Template.layerKeySchemas
    let definition: [String: SchemaNode] = [
      "description": ["type": "string", "description": "What the component is, for 'flick info'."],
      "parameters": [
        "type": "object",
        "description":
          "The component's own parameters (same schema as the template's); they shadow the template's, which a component sees too.",
        "propertyNames": TemplateSchema.identifierName,
        "additionalProperties": .ref("parameter"),
      ],
      "layer": [
        "allOf": [.ref("layerBody")],
        "description": "The root layer (its id, if any, is replaced by the instance's).",
      ],
      "layers": [
        "type": "array", "items": .ref("layer"),
        "description": "Layers drawn in a plain root layer (sized by 'size'); instead of 'layer'.",
      ],
      "size": TemplateSchema.described(.ref("size"), "The root layer's size with 'layers'."),
      "timeline": [
        "type": "array", "items": .ref("entry"),
        "description":
          "Played for each instance as a group (at 0, or where the instance says); entries name the component's own layers.",
      ],
    ]
    let placement = Dictionary(uniqueKeysWithValues: TimelineCompiler.placementSchema + TimelineCompiler.repeatSchema)
    let instance: [String: SchemaNode] = [
      "id": ["type": "string", "minLength": 1, "description": "The root layer's id; inner layers are id/name."],
      "use": ["type": "string", "description": "The component (a key of 'components')."],
      "params": [
        "type": "object", "description": "Values of the component's parameters (those without a default are required).",
      ],
      "autoplay": TemplateSchema.described(
        .ref("boolean"),
        "Whether the component's timeline plays by itself (default true); false leaves it to { play: id } entries."),
    ]
    func schema(_ key: String) -> SchemaNode { instance[key] ?? placement[key] ?? layers[key] ?? [:] }
    return [
      (
        "component",
        [
          "type": "object", "additionalProperties": false,
          "description": "A reusable layer subtree with its own parameters and timeline.",
          "properties": .fields(TemplateComponent.keys.map { ($0, definition[$0] ?? [:]) }),
          "oneOf": [["required": ["layer"]], ["required": ["layers"]]],
        ]
      ),
      (
        "componentInstance",
        [
          "type": "object", "additionalProperties": false, "required": ["id", "use"],
          "description":
            "A component placed as a layer: its keys override the component root's; at/after/with/delay/repeat/autoreverses place and loop its timeline.",
          "properties": .fields((instanceKeys + overridingKeys).map { ($0, schema($0)) }),
        ]
      ),
    ]
  }
}
