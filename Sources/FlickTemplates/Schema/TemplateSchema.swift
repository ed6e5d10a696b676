import FlickMotion
import FlickScene

/// The JSON Schema (draft 2020-12) of the template format, built from the descriptors the
/// decoder reads: `Templates/schema.json` is ``json`` (`flick schema` prints it, and a test
/// checks that the committed file equals it byte for byte).
///
/// Each area describes its own keys next to its decoder: the layer keys in
/// `Template+LayerSchema.swift` (ordered by ``Template/baseLayerKeys`` and
/// ``Template/contentKeys``), the animatable properties from
/// `LayerPropertyDescriptor.catalogue`, the timeline entries from `TimelineCompiler.EntryKind`
/// in `Timeline/TimelineSchema.swift`. This file holds the shared value types and the top level.
package enum TemplateSchema {
  /// The schema as the text committed in `Templates/schema.json`.
  package static var json: String { document.json }

  /// The schema document.
  package static var document: SchemaNode {
    var defs: [(String, SchemaNode)] = [("colorSpace", colorSpace), ("stringAnimation", stringAnimation)]
    defs += valueDefinitions
    defs += [("parameterType", parameterType), ("parameter", parameter), ("canvas", canvas)]
    defs += [("path", path), ("transform", transform)]
    defs += Template.layerSchemaDefinitions
    defs += TimelineCompiler.schemaDefinitions
    defs += ComponentExpander.schemaDefinitions
    let properties: SchemaNode = .fields([
      ("$schema", ["type": "string", "description": "Where editors find this schema."]),
      ("flick", ["const": 1, "description": "Format version; this schema describes version 1."]),
      ("name", ["type": "string"]),
      ("description", ["type": "string", "description": "One line for 'flick templates' and 'flick info'."]),
      (
        "parameters",
        [
          "type": "object",
          "description":
            "Typed values the template exposes; referenced as \"$name\" (\"$(expression)\" computes a number), or \"${name}\" inside strings.",
          "propertyNames": identifierName,
          "additionalProperties": .ref("parameter"),
        ]
      ),
      (
        "fonts",
        [
          "type": "array",
          "description":
            "Font files (.ttf, .otf, .ttc) relative to the template's folder; their families can be named in fontFamily.",
          "maxItems": .integer(TemplateLimits.maximumFontFiles),
          "items": [
            "anyOf": [
              ["type": "string", "pattern": .string("\\.([tT][tT][fFcC]|[oO][tT][fF])" + endOfText)],
              parameterReference,
            ]
          ],
        ]
      ),
      (
        "styles",
        [
          "type": "object", "description": "Named bags of layer properties, applied with style: \"name\".",
          "additionalProperties": .ref("style"),
        ]
      ),
      ("canvas", .ref("canvas")),
      ("layers", ["type": "array", "items": .ref("layer")]),
      ("timeline", ["type": "array", "items": .ref("entry")]),
      (
        "colorSpace",
        described(
          .ref("colorSpace"),
          "The template's default space for colour animations (each animate entry or property may choose its own).")
      ),
      ("motionBlur", motionBlur),
      (
        "components",
        [
          "type": "object",
          "description":
            "Reusable layer subtrees with their own parameters and timeline, placed with { id, use: \"name\", params: { … } } layers.",
          "propertyNames": identifierName,
          "additionalProperties": .ref("component"),
        ]
      ),
    ])
    return .fields([
      ("$schema", "https://json-schema.org/draft/2020-12/schema"),
      ("$id", "https://flick.invalid/schema/template-1.json"),
      ("title", "Flick template (format version 1)"),
      (
        "description",
        "An animated layer scene for the flick renderer. JSON5 is accepted: comments, unquoted keys, trailing commas. See docs/templates.md."
      ),
      ("type", "object"),
      ("required", ["flick", "canvas"]),
      ("additionalProperties", false),
      ("properties", properties),
      ("$defs", .fields(defs)),
    ])
  }

  // MARK: - Building blocks

  /// Ends a `pattern` at the end of the text. `$` would do in ECMA-262, but Python's and ICU's
  /// regular expressions also match it before a final line break, which the decoder refuses.
  package static let endOfText = "(?![\\s\\S])"

  /// A parameter's or a component's name (``TemplateParameter/isValidName(_:)``).
  static let identifierName: SchemaNode = ["pattern": .string("^[A-Za-z_][A-Za-z0-9_]*" + endOfText)]

  /// `{ "$ref": "#/$defs/parameterReference" }`: where a value may be a parameter.
  package static let parameterReference = SchemaNode.ref("parameterReference")

  /// `schema`, or a parameter reference.
  package static func withReference(_ schema: SchemaNode) -> SchemaNode { ["anyOf": [schema, parameterReference]] }

  /// One of `values`, or a parameter reference.
  package static func oneOf(_ values: [String]) -> SchemaNode { withReference(["enum": .strings(values)]) }

  /// A number in `range`, or a parameter reference.
  package static func number(in range: ClosedRange<Double>, integer: Bool = false) -> SchemaNode {
    withReference(bounded(range, integer: integer))
  }

  /// A number in `range` (no parameter reference).
  package static func bounded(_ range: ClosedRange<Double>, integer: Bool = false) -> SchemaNode {
    func bound(_ v: Double) -> SchemaNode { v == v.rounded() && abs(v) < 1e15 ? .integer(Int(v)) : .number(v) }
    return .fields([
      ("type", integer ? "integer" : "number"), ("minimum", bound(range.lowerBound)),
      ("maximum", bound(range.upperBound)),
    ])
  }

  /// `schema` with a `description` added after its other keys.
  package static func described(_ schema: SchemaNode, _ text: String) -> SchemaNode {
    schema.setting("description", .string(text))
  }

  /// A `description` followed by the keys of `schema`.
  package static func describing(_ text: String, _ schema: SchemaNode) -> SchemaNode {
    SchemaNode.fields([("description", .string(text))]).merging(schema)
  }

  // MARK: - Shared value types

  static var valueDefinitions: [(String, SchemaNode)] {
    let p = parameterReference
    return [
      (
        "parameterReference",
        [
          "type": "string", "pattern": .string("^\\$([A-Za-z_][A-Za-z0-9_]*|\\(.*\\))" + endOfText),
          "description":
            "The value of a parameter, \"$name\", or a number computed from number parameters, \"$(width / 2 + 8)\".",
        ]
      ),
      ("number", withReference(["type": "number"])),
      ("nonNegativeNumber", withReference(["type": "number", "minimum": 0])),
      ("unitInterval", withReference(["type": "number", "minimum": 0, "maximum": 1])),
      ("seconds", number(in: TemplateNode.seconds)),
      ("signedSeconds", number(in: TemplateNode.signedSeconds)),
      ("boolean", withReference(["type": "boolean"])),
      (
        "angle",
        [
          "description": "Radians, or degrees as \"90deg\": a decimal number directly followed by 'deg'.",
          "anyOf": [["type": "number"], ["type": "string", "pattern": .string(TemplateNode.degreesPattern)], p],
        ]
      ),
      (
        "color",
        [
          "description": "\"#RRGGBB\", \"#RRGGBBAA\", \"#RGB\", \"#RGBA\" or \"transparent\".",
          "anyOf": [
            [
              "type": "string",
              "pattern": .string("^#?([0-9A-Fa-f]{3}|[0-9A-Fa-f]{4}|[0-9A-Fa-f]{6}|[0-9A-Fa-f]{8})" + endOfText),
            ],
            ["enum": ["transparent", "clear"]], p,
          ],
        ]
      ),
      ("colors", withReference(["type": "array", "items": .ref("color")])),
      (
        "point",
        [
          "description": "[x, y] or { x, y }.",
          "anyOf": [
            ["type": "array", "items": .ref("number"), "minItems": 2, "maxItems": 2],
            [
              "type": "object", "required": ["x", "y"], "additionalProperties": false,
              "properties": ["x": .ref("number"), "y": .ref("number")],
            ],
            p,
          ],
        ]
      ),
      (
        "size",
        [
          "description": "[width, height] or { width, height }, not negative.",
          "anyOf": [
            ["type": "array", "items": .ref("nonNegativeNumber"), "minItems": 2, "maxItems": 2],
            [
              "type": "object", "required": ["width", "height"], "additionalProperties": false,
              "properties": ["width": .ref("nonNegativeNumber"), "height": .ref("nonNegativeNumber")],
            ],
            p,
          ],
        ]
      ),
      (
        "rect",
        [
          "description": "[x, y, width, height] or { x, y, width, height }.",
          "anyOf": [
            ["type": "array", "items": .ref("number"), "minItems": 4, "maxItems": 4],
            [
              "type": "object", "required": ["x", "y", "width", "height"], "additionalProperties": false,
              "properties": .fields(["x", "y", "width", "height"].map { ($0, .ref("number")) }),
            ],
            p,
          ],
        ]
      ),
      ("scale", ["description": "A factor, or [sx, sy].", "anyOf": [.ref("number"), .ref("point")]]),
    ]
  }

  /// The schema of a value of an animatable property of `type` (`AnyLayerProperty.typeName`:
  /// "number", "point", …; angles are "angle").
  package static func value(ofType type: String) -> SchemaNode { .ref(type) }

  // MARK: - Parameters and canvas

  /// Each type name followed by its aliases (`colour` after `color`).
  static var parameterType: SchemaNode { typeNames(TemplateParameter.Kind.allCases) }

  /// The names of `kinds`, each followed by its aliases.
  private static func typeNames(_ kinds: [TemplateParameter.Kind]) -> SchemaNode {
    let aliases = TemplateParameter.Kind.names.filter { TemplateParameter.Kind(rawValue: $0) == nil }
    return ["enum": .strings(kinds.flatMap { kind in [kind.rawValue] + (kind == .color ? aliases : []) })]
  }

  static var parameter: SchemaNode {
    let range = TemplateParameter.Kind.itemCountRange
    let count: SchemaNode = [
      "type": "integer", "minimum": .integer(range.lowerBound), "maximum": .integer(range.upperBound),
    ]
    return [
      "type": "object", "required": ["type"], "additionalProperties": false,
      "properties": [
        "type": .ref("parameterType"),
        "default": ["description": "The value when none is given; without it the parameter is required."],
        "description": ["type": "string"], "minimum": ["type": "number"], "maximum": ["type": "number"],
        "choices": ["type": "array", "items": ["type": "string"], "minItems": 1],
        "items": typeNames(TemplateParameter.Kind.itemKinds), "minItems": count, "maxItems": count,
      ],
    ]
  }

  static var canvas: SchemaNode {
    let background: SchemaNode = [
      "description":
        "A colour, \"transparent\", or a gradient (a layer with id \"background\" under every other layer).",
      "anyOf": [
        .ref("color"),
        [
          "type": "object", "required": ["colors"], "additionalProperties": false,
          "properties": [
            "colors": .ref("colors"), "kind": oneOf(["axial", "radial", "conic", "linear"]),
            "locations": ["type": "array", "items": .ref("unitInterval")],
            "startPoint": .ref("point"), "endPoint": .ref("point"),
          ],
        ],
      ],
    ]
    let duration: SchemaNode = [
      "description": "Seconds, or \"auto\": until every animation has settled.",
      "anyOf": [bounded(TemplateNode.positiveSeconds), ["const": "auto"], parameterReference],
    ]
    return [
      "type": "object", "required": ["width", "height", "duration"], "additionalProperties": false,
      "properties": [
        "width": number(in: 1...16384, integer: true), "height": number(in: 1...16384, integer: true),
        "fps": number(in: 1...240, integer: true), "duration": duration, "background": background,
      ],
    ]
  }

  static var motionBlur: SchemaNode {
    [
      "anyOf": [
        .ref("boolean"),
        [
          "type": "object", "additionalProperties": false,
          "properties": [
            "shutterAngle": number(in: 1...720), "samples": number(in: 2...64, integer: true),
          ],
        ],
      ],
      "description":
        "Motion blur: the shutter angle in degrees (180 = half a frame) and samples averaged per moving frame; true for 180° and 16.",
    ]
  }

  // MARK: - Paths and transforms

  static var path: SchemaNode {
    [
      "description": "SVG path data, or one shape helper.",
      "anyOf": [
        ["type": "string"],
        [
          "type": "object", "additionalProperties": false,
          "properties": [
            "rect": .ref("rect"), "ellipse": .ref("rect"), "roundedRect": .ref("rect"),
            "cornerRadius": number(in: Template.lengthRange), "arc": .ref("point"),
            "radius": number(in: Template.lengthRange),
            "startAngle": .ref("angle"), "endAngle": .ref("angle"), "clockwise": .ref("boolean"),
          ],
        ],
        [
          "type": "object",
          "description": "The outline of an SVG file (the svg shape source; see docs/layers.md for what it reads).",
          "additionalProperties": false, "required": ["svg"],
          "properties": [
            "svg": ["type": "string", "description": "A .svg file, relative to the template's folder."],
            "frame": described(
              .ref("rect"),
              "Stretch the document's box (0, 0, width, height) into [x, y, w, h]; default: the document's own units."),
          ],
        ],
        parameterReference,
      ],
    ]
  }

  /// `colorSpace`: the names ``TemplateNode/colorSpace()`` decodes.
  static var colorSpace: SchemaNode {
    [
      "enum": .strings([ColorSpace.sRGB, .linearSRGB, .oklab].map(\.templateName)),
      "description":
        "The space a colour animation travels through, with the same timing: sRGB components (Core Animation's and Pop's, the default), linear light, or OKLab (blue to green without a dull teal).",
    ]
  }

  /// A text layer's `string` in the timeline (TimelineCompiler+Text.swift).
  static var stringAnimation: SchemaNode {
    let strings: SchemaNode = ["type": "array", "items": ["type": "string"], "minItems": 1]
    return [
      "description":
        "A text layer's string in the timeline: a string (shown from the entry's start), or { to, delay } or { keyframes: [strings] | { values, keyTimes, mode: 'discrete' }, duration, delay } (each string holds from its key time).",
      "anyOf": [
        ["type": "string"],
        [
          "type": "object", "additionalProperties": false,
          "properties": [
            "to": ["type": "string"],
            "keyframes": [
              "anyOf": [
                strings,
                [
                  "type": "object", "required": ["values"], "additionalProperties": false,
                  "properties": [
                    "values": strings, "keyTimes": ["type": "array", "items": .ref("unitInterval")],
                    "mode": ["enum": ["discrete"]],
                  ],
                ],
              ]
            ],
            "duration": .ref("seconds"), "delay": .ref("seconds"),
          ],
        ],
      ],
    ]
  }

  /// A `transform` object: the catalogue's `transform.…` layer keys, each with its row's value
  /// type and range (`scale` may also be one number).
  static var transform: SchemaNode {
    var fields: [(String, SchemaNode)] = []
    for d in LayerPropertyDescriptor.catalogue {
      guard let key = d.layerKey, key.hasPrefix("transform.") else { continue }
      let name = String(key.dropFirst("transform.".count))
      fields.append((name, name == "scale" ? .ref("scale") : .ref(TimelineCompiler.schemaType(d))))
    }
    return ["type": "object", "additionalProperties": false, "properties": .fields(fields)]
  }

}
