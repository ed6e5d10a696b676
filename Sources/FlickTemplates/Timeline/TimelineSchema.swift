import FlickMotion
import FlickScene

extension TimelineCompiler {
  /// The value definitions of the animatable properties (``PropertySchema/valueTypes``): one
  /// animation and one link definition each.
  static var schemaValueTypes: [PropertySchema.ValueType] { PropertySchema.valueTypes }

  /// The name of `descriptor`'s value definition: `angle` for angles, `number`, `point`, …, or
  /// one for its range (`numberIn0To1`).
  static func schemaType(_ descriptor: LayerPropertyDescriptor) -> String {
    PropertySchema.valueType(descriptor).name
  }

  /// The timeline's `$defs`: motion objects, one animation definition per value type, the
  /// property tables (from ``LayerPropertyDescriptor/catalogue``) and one definition per
  /// ``EntryKind``, in that order, then `entry` (any of them).
  static var schemaDefinitions: [(String, SchemaNode)] {
    typealias S = TemplateSchema
    let num = SchemaNode.ref("number")
    // The timing options every spec takes (`MediaTiming.specLabels`), typed as the spec reads them.
    let repeating = specTimingSchema
    func motionObject(_ keys: [String]) -> SchemaNode {
      let properties = SchemaNode.fields(keys.map { ($0, num) } + repeating)
      return ["anyOf": [["const": true], ["type": "object", "additionalProperties": false, "properties": properties]]]
    }
    var defs: [(String, SchemaNode)] =
      PropertySchema.rangedDefinitions + timingDefinitions + [
        (
          "curve",
          [
            "description":
              "An animation spec, as for 'flick curve': \"easeOut\", \"spring(bounciness: 8, speed: 12)\", \"decay(deceleration: 0.998)\", \"steps(4)\"…, or a cubic bezier [x1, y1, x2, y2].",
            "anyOf": [
              [
                "type": "string",
                "pattern": .string(
                  "^\\s*(" + AnimationSpec.names.joined(separator: "|") + ")\\s*(\\(.*\\))?\\s*" + S.endOfText),
              ],
              ["type": "array", "items": ["type": "number"], "minItems": 4, "maxItems": 4], S.parameterReference,
            ],
          ]
        ),
        (
          "springObject",
          motionObject([
            "stiffness", "damping", "mass", "tension", "friction", "bounciness", "speed", "duration", "bounce",
            "response",
            "dampingRatio", "visualDuration", "velocity", "normalizedVelocity", "threshold",
          ])
        ),
        ("decayObject", motionObject(["velocity", "deceleration", "threshold", "min", "max"])),
        (
          "tweenObject",
          [
            "type": "object", "additionalProperties": false,
            "properties": .fields([("curve", ["type": "string"]), ("duration", .ref("seconds"))] + repeating),
          ]
        ),
      ]
    for valueType in schemaValueTypes {
      let type = valueType.name
      let value = S.value(ofType: type)
      // A change (`by`, `velocity`) has no range: only where it lands does.
      let change = S.value(ofType: valueType.base)
      let keyframes: SchemaNode = [
        "type": "object", "required": ["values"], "additionalProperties": false,
        "properties": [
          "values": ["type": "array", "items": value, "minItems": 1],
          "keyTimes": ["type": "array", "items": .ref("unitInterval")],
          "curves": ["type": "array", "items": .ref("curve")],
          "mode": ["enum": .strings(KeyframeCalculationMode.allCases.map(\.rawValue))], "duration": .ref("seconds"),
        ],
      ]
      let own: [(String, SchemaNode)] = [
        ("to", value), ("from", value), ("by", change), ("velocity", change), ("duration", .ref("seconds")),
        ("delay", .ref("seconds")), ("keyframes", keyframes),
      ]
      let space: [(String, SchemaNode)] = valueType.base == "color" ? [("colorSpace", .ref("colorSpace"))] : []
      let keys = space + own + motionSchema + timingSchema
      let spec: SchemaNode = [
        "type": "object", "additionalProperties": false, "properties": .fields(keys),
        // A colour space alone animates nothing: some other key must be there.
        "anyOf": .array(keys.filter { $0.0 != "colorSpace" }.map { ["required": [.string($0.0)]] }),
      ]
      defs.append((type + "Animation", ["anyOf": [value, spec]]))
    }
    // Every entry names its properties through `AnyLayerProperty.named`: the whole catalogue.
    let all = LayerPropertyDescriptor.catalogue
    defs.append(
      (
        "animate",
        [
          "type": "object", "minProperties": 1, "additionalProperties": false,
          "properties": .fields(
            all.map { ($0.name, .ref(schemaType($0) + "Animation")) } + [("string", .ref("stringAnimation"))]),
        ]
      ))
    defs.append(
      (
        "setValues",
        [
          // SetWriter refuses an empty set: it changes nothing.
          "type": "object", "minProperties": 1, "additionalProperties": false,
          "properties": .fields(
            all.map { ($0.name, S.value(ofType: schemaType($0))) } + [("string", ["type": "string"])]),
        ]
      ))
    defs.append(
      (
        "animatorValues",
        [
          "type": "object", "minProperties": 1, "additionalProperties": false,
          "properties": .fields(
            all.map { d in
              let value = S.value(ofType: schemaType(d))
              return (
                d.name,
                [
                  "anyOf": [
                    value,
                    [
                      "type": "object", "required": ["to"], "additionalProperties": false,
                      "properties": ["to": value, "from": value],
                    ],
                  ]
                ]
              )
            }),
        ]
      ))
    defs.append(("propertyName", ["enum": .strings(all.map(\.name))]))
    defs += linkSchemaDefinitions
    defs.append(("crossing", crossingSchema))
    for kind in EntryKind.allCases {
      switch kind {
      case .animator:
        defs.append(("animatorEvent", animatorEventSchema))
      default: break
      }
      defs.append((kind.rawValue + "Entry", kind.schema))
    }
    defs.append(("entry", ["anyOf": .array(EntryKind.allCases.map { .ref($0.rawValue + "Entry") })]))
    return defs
  }

  /// `curve`, `spring`, `decay`, `tween` (``TemplateMotion/keys`` but `keyframes`, which each
  /// entry describes in its own place).
  static var motionSchema: [(String, SchemaNode)] {
    TemplateMotion.keys.filter { $0 != "keyframes" }.map { ($0, .ref($0 == "curve" ? "curve" : $0 + "Object")) }
  }

  /// The schema of each of ``placementKeys``.
  static var placementSchema: [(String, SchemaNode)] {
    let schemas: [String: SchemaNode] = [
      "id": ["type": "string", "minLength": 1], "at": .ref("seconds"), "after": ["type": "string"],
      "with": ["type": "string"], "delay": .ref("signedSeconds"), "when": .ref("crossing"),
    ]
    return placementKeys.map { ($0, schemas[$0] ?? [:]) }
  }

  /// `target`, `targets`, `stagger`.
  static var targetsSchema: [(String, SchemaNode)] {
    [
      ("target", ["type": "string"]), ("targets", ["type": "array", "items": ["type": "string"], "minItems": 1]),
      ("stagger", TemplateSchema.number(in: TimelineSchedule.staggerRange)),
    ]
  }

  /// The schema of each of ``repeatKeys`` (a group's or sequence's `repeat`).
  static var repeatSchema: [(String, SchemaNode)] {
    let schemas: [String: SchemaNode] = [
      "repeat": [
        "description":
          "Play it this many times (1 = once), each run starting when the previous one has settled, or \"forever\" (until the scene ends).",
        "anyOf": [
          ["type": "integer", "minimum": 1, "maximum": 100000], ["const": "forever"], TemplateSchema.parameterReference,
        ],
      ],
      "autoreverses": .ref("boolean"),
    ]
    return repeatKeys.map { ($0, schemas[$0] ?? [:]) }
  }

  /// One `animator` event (``animatorEventKeys``; `do` is one of ``AnimatorScript/Command``).
  static var animatorEventSchema: SchemaNode {
    let schemas: [String: SchemaNode] = [
      "at": .ref("seconds"), "do": ["enum": .strings(AnimatorScript.Command.allCases.map(\.rawValue))],
      "delay": .ref("seconds"), "fraction": .ref("unitInterval"), "duration": .ref("seconds"), "curve": .ref("curve"),
      "durationFactor": TemplateSchema.number(in: AnimatorEventPlayer.durationFactorRange),
      "position": ["enum": ["start", "current", "end"]], "reversed": .ref("boolean"),
      "withoutFinishing": .ref("boolean"), "target": ["type": "string"],
      "targets": ["type": "array", "items": ["type": "string"]],
      "animate": .ref("animatorValues"), "delayFactor": .ref("unitInterval"),
    ]
    return [
      "type": "object", "required": ["do"], "additionalProperties": false,
      "properties": .fields(AnimatorWriter.animatorEventKeys.map { ($0, schemas[$0] ?? [:]) }),
    ]
  }

  /// The `animator` object (``animatorKeys``).
  static var animatorSchema: SchemaNode {
    let strings: SchemaNode = ["type": "array", "items": ["type": "string"]]
    let schemas: [String: SchemaNode] = [
      "duration": TemplateSchema.number(in: TemplateNode.positiveSeconds), "curve": .ref("curve"),
      "target": ["type": "string"],
      "targets": strings,
      "pausesOnCompletion": .ref("boolean"), "scrubsLinearly": .ref("boolean"), "animate": .ref("animatorValues"),
      "animations": [
        "type": "array",
        "items": [
          "type": "object", "required": ["animate"], "additionalProperties": false,
          "properties": [
            "target": ["type": "string"], "targets": strings, "animate": .ref("animatorValues"),
            "delayFactor": .ref("unitInterval"),
          ],
        ],
      ],
      "events": ["type": "array", "items": .ref("animatorEvent"), "minItems": 1],
    ]
    // Schema order: what it animates with, its options, then what it animates and its events.
    let order = [
      "duration", "curve", "target", "targets", "pausesOnCompletion", "scrubsLinearly", "animate", "animations",
      "events",
    ]
    return [
      "type": "object", "required": ["duration", "events"], "additionalProperties": false,
      "properties": .fields(order.filter(AnimatorWriter.animatorKeys.contains).map { ($0, schemas[$0] ?? [:]) }),
    ]
  }
}

extension TimelineCompiler.EntryKind {
  /// The keys this kind has besides the placement keys, with their schemas, in schema order.
  var schemaProperties: [(String, SchemaNode)] {
    typealias C = TimelineCompiler
    let target: (String, SchemaNode) = ("target", ["type": "string"])
    switch self {
    case .animate:
      return C.targetsSchema + [
        ("animate", .ref("animate")), ("duration", .ref("seconds")), ("keyframes", ["type": "object"]),
      ]
        + C.motionSchema + C.timingSchema + [("colorSpace", .ref("colorSpace"))]
    case .set:
      // In typed steps: as one literal this took the type checker 1.2 s of every build.
      let kinds: [String] = TextTransition.Kind.allCases.map(\.rawValue) + ["none"]
      let kind: SchemaNode = ["enum": .strings(kinds)]
      let curve: [(String, SchemaNode)] = C.motionSchema.filter { (entry: (String, SchemaNode)) -> Bool in
        entry.0 == "curve" || entry.0 == "spring"
      }
      let fields: [(String, SchemaNode)] =
        [("kind", kind), ("duration", .ref("seconds"))] + curve + [("countsDown", .ref("boolean"))]
      let transition: SchemaNode = [
        "type": "object", "additionalProperties": false,
        "description": "Play the change of 'string' or 'number' as iOS's numeric text transition.",
        "properties": .fields(fields),
      ]
      return C.targetsSchema + [("set", .ref("setValues")), ("transition", transition)]
    case .group:
      // The timing every entry inside takes when it gives none (GroupTiming.keys).
      let timing = (C.motionSchema + [("duration", .ref("seconds"))] + C.timingSchema).filter {
        GroupTiming.keys.contains($0.0)
      }
      return [("group", ["type": "array", "items": .ref("entry")]), C.targetsSchema[2]] + C.repeatSchema
        + timing
    case .sequence:
      let step: SchemaNode = [
        "anyOf": [
          .ref("entry"), ["type": "array", "items": .ref("entry")],
          [
            "type": "object", "required": ["delay"], "additionalProperties": false,
            "properties": ["delay": .ref("seconds")],
          ],
        ]
      ]
      return [("sequence", ["type": "array", "items": step])] + C.repeatSchema
    case .drag:
      // No `required: ["duration"]`: inside a group the group's `duration` is the drag's
      // (GroupTiming.keys); a drag with neither is refused by the decoder only, as the schema
      // cannot see which group an entry is in.
      let drag: SchemaNode = [
        "type": "object", "additionalProperties": false,
        "properties": [
          "property": .ref("propertyName"), "path": ["type": "array", "minItems": 1],
          "by": ["type": "array", "minItems": 1],
          "duration": TemplateSchema.number(in: TemplateNode.positiveSeconds), "curve": .ref("curve"),
          "resistance": C.resistanceSchema,
        ],
        "allOf": C.perProperty { value, change in [("path", ["items": value]), ("by", ["items": change])] },
      ]
      return [target, ("drag", drag)]
    case .spin:
      let spin: SchemaNode = [
        "type": "object", "required": ["to"], "additionalProperties": false,
        "properties": [
          "property": [
            "description": "A number property (default \"rotation\"; key paths such as \"transform.rotation.z\" too).",
            "type": "string",
          ],
          "to": [
            "description": "The speed to reach, units/s (rad/s for an angle, or \"200deg\" for 200°/s); 0 stops it.",
            "anyOf": [.ref("angle")],
          ],
          "duration": .ref("seconds"), "curve": .ref("curve"),
        ],
      ]
      return [target, ("spin", spin)]
    case .release:
      let release = SchemaNode.fields(
        [("property", .ref("propertyName")), ("to", [:]), ("by", [:])] + C.motionSchema
          + [("keyframes", ["type": "object"])] + C.timingSchema)
      let typed = C.perProperty { value, change in [("to", value), ("by", change)] }
      return [
        target, ("release", ["type": "object", "additionalProperties": false, "properties": release, "allOf": typed]),
      ]
    case .animator:
      return [("animator", C.animatorSchema)]
    case .link:
      return C.targetsSchema + [("link", .ref("link"))]
    case .play:
      let play: SchemaNode = [
        "type": "string", "minLength": 1,
        "description":
          "The id of a component instance (a layer with 'use:'); inside a component, of an instance in it.",
      ]
      let params: SchemaNode = [
        "type": "object",
        "description":
          "Values of the component's parameters for this play only (the others keep the instance's); its layers keep the instance's.",
      ]
      return [("play", play), ("params", params)] + C.repeatSchema
    case .property:
      return [
        target, ("property", .ref("propertyName")), ("to", [:]), ("from", [:]), ("by", [:]), ("velocity", [:]),
        ("duration", .ref("seconds")), ("keyframes", ["type": "object"]),
      ] + C.motionSchema + C.timingSchema + [("colorSpace", .ref("colorSpace"))]
    }
  }

  /// What the kind does, for the schema's `description`.
  var schemaDescription: String {
    switch self {
    case .animate: "Animate properties of target layer(s)."
    case .set: "Change properties at once."
    case .group: "Entries in parallel; 'at' inside is relative to the group."
    case .sequence: "Steps one after another: an entry, a parallel step [ … ], or { delay }."
    case .drag: "A scripted finger moving a property along a path."
    case .release: "Let go: the velocity at this moment goes into a spring (with 'to') or a decay."
    case .animator: "A UIViewPropertyAnimator driven by scripted events."
    case .link:
      "Properties as functions of another layer's property (or of time) from 'at' on, until another entry animates them."
    case .play: "Play a component instance's timeline (again), as a group starting here."
    case .property: "One property of one layer (the short form)."
    case .spin: "A speed eased from the property's current velocity to 'to' units/s, then held for ever."
    }
  }

  /// The keys an entry of this kind must have.
  var schemaRequired: [String] {
    switch self {
    case .drag, .release, .spin: [rawValue, "target"]
    case .property: ["target", "property"]
    default: [rawValue]
    }
  }

  /// The entry's schema: placement keys, then ``schemaProperties``; the short form's values
  /// typed by the property it names.
  var schema: SchemaNode {
    let node: SchemaNode = [
      "type": "object", "description": .string(schemaDescription), "required": .strings(schemaRequired),
      "additionalProperties": false,
      "properties": SchemaNode.fields(TimelineCompiler.placementSchema).merging(.fields(schemaProperties)),
    ]
    guard self == .property else { return node }
    return node.setting(
      "allOf",
      TimelineCompiler.perProperty { value, change in
        [("to", value), ("from", value), ("by", change), ("velocity", change)]
      })
  }
}
