import FlickScene

extension Template {
  /// The kinds a layer's `type` may name: `layer`, the content kinds, and `replicator` (a plain
  /// layer, as `CAReplicatorLayer` is a `CALayer`).
  static let layerTypeNames =
    ["layer"] + LayerContentKind.allCases.filter { $0 != .none }.map(\.rawValue) + ["replicator"]

  /// The schema of each layer key the decoder accepts (``baseLayerKeys``, ``contentKeys`` and
  /// `style`). A test checks that every decoder key has one and no other key does.
  static var layerKeySchemas: [String: SchemaNode] {
    nonPropertyKeySchemas.merging(propertyKeySchemas) { own, _ in own }
  }

  /// The schema of each layer key of an animatable property, from its catalogue row (value
  /// type and range), with a description where the key needs one.
  static var propertyKeySchemas: [String: SchemaNode] {
    typealias S = TemplateSchema
    let descriptions = [
      "number": "A text layer shows this number through 'format' instead of a 'string' (animatable as 'number').",
      "frame": "lottie: the frame shown first, counted from the file's in point.",
      "progress": "lottie: the point shown first, 0 (first frame) to 1 (last frame).",
    ]
    var out: [String: SchemaNode] = [:]
    for d in LayerPropertyDescriptor.catalogue {
      guard let key = d.layerKey, !key.contains(".") else { continue }
      let value = S.value(ofType: TimelineCompiler.schemaType(d))
      out[key] = descriptions[key].map { S.described(value, $0) } ?? value
    }
    return out
  }

  /// The schema of each layer key that is not an animatable property's.
  private static var nonPropertyKeySchemas: [String: SchemaNode] {
    typealias S = TemplateSchema
    let corners = [
      "topLeft", "topRight", "bottomLeft", "bottomRight", "layerMinXMinYCorner", "layerMaxXMinYCorner",
      "layerMinXMaxYCorner", "layerMaxXMaxYCorner",
    ]
    let weights = TextContent.FontWeight.allCases.map(\.name)
    func replicator(_ text: String, _ schema: SchemaNode) -> SchemaNode {
      S.describing("CAReplicatorLayer: " + text, schema)
    }
    func lottie(_ schema: SchemaNode, _ text: String) -> SchemaNode { S.described(schema, "lottie: " + text) }
    let length = S.number(in: lengthRange)
    let xy: SchemaNode = [
      "type": "object", "required": ["x", "y"], "additionalProperties": false,
      "properties": ["x": length, "y": length],
    ]
    func offset(_ component: String) -> SchemaNode {
      replicator(
        "added to the \(component) component of the colour multiplier per instance (−1…1).", S.number(in: -1...1))
    }
    return [
      "id": ["type": "string", "minLength": 1],
      "type": [
        "enum": .strings(layerTypeNames),
        "description":
          "The layer kind; implied by kind-specific keys when omitted ('replicator' is a plain layer, as CAReplicatorLayer is a CALayer).",
      ],
      "style": [
        "anyOf": [["type": "string"], ["type": "array", "items": ["type": "string"]]],
        "description": "Style name(s); the layer's own properties win.",
      ],
      "maskedCorners": ["type": "array", "items": ["enum": .strings(corners)]], "transform": .ref("transform"),
      "isHidden": .ref("boolean"), "isDoubleSided": .ref("boolean"),
      "shadowPath": .ref("path"), "masksToBounds": .ref("boolean"), "mask": .ref("layer"),
      "contents": [
        "type": "string",
        "description": "A picture file (.png, .jpg, .jpeg, .webp or .svg), relative to the template's folder.",
      ],
      "contentsGravity": S.oneOf(ContentsGravity.allCases.map(\.rawValue)),
      "contentsTint": S.described(
        .ref("color"),
        "Draw the contents picture as a template image: its alpha filled with this colour (an SVG stays vector)."),
      "sublayers": ["type": "array", "items": .ref("layer")],
      "constraints": constraintsSchema,
      // Replicator and backdrop (Template+Replicator.swift).
      "instanceCount": replicator(
        "how many copies of the sublayers are drawn (0…100; default 1).", S.number(in: 0...100, integer: true)),
      "instanceTransform": replicator(
        "applied to instance k−1 to place instance k, about the centre of the bounds.", .ref("transform")),
      "instanceDelay": replicator(
        "seconds instance k lags instance k−1 (its animations sampled at t − k·delay).",
        S.number(in: TemplateNode.signedSeconds)),
      "instanceColor": replicator("multiplies every colour instance 0 draws (default white).", .ref("color")),
      "instanceRedOffset": offset("red"), "instanceGreenOffset": offset("green"), "instanceBlueOffset": offset("blue"),
      "instanceAlphaOffset": offset("alpha"),
      "instanceJitter": replicator(
        "seeded per-instance variation (SplitMix64; the same seed gives the same pixels everywhere): each value is a "
          + "maximum amplitude a, drawn uniformly per instance in [−a, a] (opacity dims by up to a; scale is 1 ± a; "
          + "delay adds to the instance delay).",
        [
          "type": "object", "additionalProperties": false, "required": ["seed"],
          "properties": [
            "seed": S.number(in: 0...Double(maximumJitterSeed), integer: true),
            "position": ["anyOf": [length, ["type": "array", "items": length, "minItems": 2, "maxItems": 2], xy]],
            "scale": S.number(in: 0...0.99), "rotation": .ref("angle"), "opacity": .ref("unitInterval"),
            "delay": S.number(in: TemplateNode.seconds),
          ],
        ]),
      "material": S.describing(
        "A backdrop material preset: blur, saturation and tint of what is behind the layer (see docs/layers.md).",
        ["enum": .strings(LayerBackdrop.Material.allCases.map(\.rawValue))]),
      "backdrop": S.describing(
        "Backdrop material numbers; each overrides the preset of 'material' (or of 'regular').",
        [
          "type": "object", "additionalProperties": false,
          "properties": [
            "blur": S.describing("Gaussian standard deviation in points, 0…250.", S.number(in: 0...250)),
            "saturation": S.describing("0 grey, 1 unchanged, above 1 more vivid (0…4).", S.number(in: 0...4)),
            "tint": .ref("color"),
          ],
        ]),
      // Shape.
      "path": .ref("path"),
      "lineCap": S.oneOf(ShapeContent.LineCap.allCases.map(\.rawValue)),
      "lineJoin": S.oneOf(ShapeContent.LineJoin.allCases.map(\.rawValue)),
      "miterLimit": S.number(in: miterLimitRange), "lineDashPattern": ["type": "array", "items": length],
      "fillRule": S.oneOf(ShapeContent.FillRule.allCases.map(\.rawValue)),
      // Text.
      "string": ["type": "string"], "fontFamily": ["type": "string", "minLength": 1],
      "fontWeight": [
        "anyOf": [
          ["enum": .array((1...9).map { SchemaNode.integer($0 * 100) })], ["enum": .strings(weights)],
          S.parameterReference,
        ]
      ],
      "fontStyle": S.oneOf(TextContent.FontStyle.allCases.map(\.rawValue)),
      "alignment": S.oneOf(TextContent.Alignment.allCases.map(\.rawValue)), "isWrapped": .ref("boolean"),
      "lineSpacing": S.number(in: lineSpacingRange),
      "format": [
        "type": "string",
        "description":
          "How a text layer shows its 'number': printf-style with one conversion %f, %e, %g or %d (flags, width, precision up to 20) and literal text; %% is a percent sign. Default \"%.0f\".",
      ],
      "truncationMode": S.oneOf(TextContent.TruncationMode.allCases.map(\.rawValue)),
      // Gradient.
      "kind": S.oneOf(GradientContent.Kind.allCases.map(\.rawValue) + ["linear"]),
      "locations": ["type": "array", "items": .ref("unitInterval")],
      // Lottie (Template+Lottie.swift).
      "source": [
        "type": "string", "minLength": 1,
        "description": "lottie: the Lottie file (.json) to draw, relative to the template's folder.",
      ],
      "speed": lottie(
        S.number(in: lottieSpeedRange),
        "how fast it plays by itself (1 = the file's rate; 0 = held for the timeline to drive)."),
      "loop": lottie(.ref("boolean"), "wrap around past the last frame instead of holding it."),
      "beginTime": lottie(
        S.number(in: lottieBeginTimeRange), "scene time (seconds) at which it starts playing by itself."),
    ]
  }

  /// The layer keys in schema order: `id`, `type`, `style`, then the decoder's order.
  static var layerSchemaKeys: [String] {
    let decoded = baseLayerKeys + LayerContentKind.allCases.flatMap { contentKeys[$0] ?? [] }
    return ["id", "type", "style"] + decoded.filter { $0 != "id" && $0 != "type" }
  }

  /// `layerBody` (every layer key), `layer` (needs an id) and `style` (no id, sublayers or style).
  static var layerSchemaDefinitions: [(String, SchemaNode)] {
    let schemas = layerKeySchemas
    let body: SchemaNode = [
      "type": "object", "additionalProperties": false,
      "properties": .fields(layerSchemaKeys.map { ($0, schemas[$0] ?? [:]) }),
    ]
    return [
      ("layerBody", body),
      ("layer", ["anyOf": [["allOf": [.ref("layerBody")], "required": ["id"]], .ref("componentInstance")]]),
      (
        "style",
        [
          "allOf": [.ref("layerBody")],
          "not": ["anyOf": [["required": ["id"]], ["required": ["sublayers"]], ["required": ["style"]]]],
        ]
      ),
    ]
  }
}
