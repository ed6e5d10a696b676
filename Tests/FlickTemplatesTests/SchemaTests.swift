import FlickScene
@testable import FlickTemplates
import FlickExpectations
import Foundation
import Testing

@Suite struct SchemaTests {
  static func validator() throws -> JSONSchemaValidator {
    let text = try String(contentsOf: FixturePaths.templates.appendingPathComponent("schema.json"), encoding: .utf8)
    return JSONSchemaValidator(root: try JSON5Parser.parse(text))
  }

  static let bundled = FixturePaths.json5Files(in: FixturePaths.templates)

  @Test func schemaIsStrictJSONAndUsesOnlyCheckedKeywords() throws {
    let data = try Data(contentsOf: FixturePaths.templates.appendingPathComponent("schema.json"))
    #expect(throws: Never.self) { try JSONSerialization.jsonObject(with: data) }
    try expectEqual(Self.validator().unsupportedKeywords(), [])
  }

  @Test(arguments: bundled)
  func bundledTemplateValidates(_ url: URL) throws {
    let value = try JSON5Parser.parse(try String(contentsOf: url, encoding: .utf8))
    let problems = try Self.validator().validate(value)
    expectEqual(problems, [])
  }

  /// The schema lists exactly the keys and properties the decoder knows, so they cannot drift.
  @Test func schemaMatchesTheDecoder() throws {
    let root = try Self.validator().root
    func keys(_ def: String) -> Set<String> {
      guard case .object(let members)? = root["$defs"]?[def]?["properties"]?.kind else { return [] }
      return Set(members.map(\.key))
    }
    let layerKeys = Template.baseLayerKeys + LayerContentKind.allCases.flatMap { Template.contentKeys[$0] ?? [] }
    expectEqual(keys("layerBody"), Set(layerKeys + ["style"]))
    // `string` is a text layer's step-valued string (TimelineCompiler+Text), not in the catalogue.
    expectEqual(keys("animate"), Set(AnyLayerProperty.names + ["string"]))
    expectEqual(keys("setValues"), Set(AnyLayerProperty.names + ["string"]))
    expectEqual(keys("canvas"), ["width", "height", "fps", "duration", "background"])
    let entryKeys = TimelineCompiler.EntryKind.allCases.map { $0.rawValue + "Entry" }
      .reduce(into: Set<String>()) { $0.formUnion(keys($1)) }
    expectEqual(entryKeys, Set(TimelineCompiler.entryKeys))
    expectEqual(keys("component"), Set(TemplateComponent.keys))
    expectEqual(keys("componentInstance"), Set(ComponentExpander.instanceKeys + ComponentExpander.overridingKeys))
    guard case .array(let types)? = root["$defs"]?["parameterType"]?["enum"]?.kind else {
      Issue.record("no parameterType enum")
      return
    }
    expectEqual(
      Set(types.compactMap { if case .string(let s) = $0.kind { s } else { nil } }), Set(TemplateParameter.Kind.names))
  }

  /// The animator's keys, its events' keys and its commands are the compiler's.
  @Test func schemaMatchesTheAnimator() throws {
    let root = try Self.validator().root
    func keys(_ node: JSON5Value?) -> Set<String> {
      guard case .object(let members)? = node?["properties"]?.kind else { return [] }
      return Set(members.map(\.key))
    }
    let animator = root["$defs"]?["animatorEntry"]?["properties"]?["animator"]
    expectEqual(keys(animator), Set(AnimatorWriter.animatorKeys))
    expectEqual(keys(root["$defs"]?["animatorEvent"]), Set(AnimatorWriter.animatorEventKeys))
    expectEqual(
      keys(animator?["properties"]?["animations"]?["items"]), ["target", "targets", "animate", "delayFactor"])
    guard case .array(let commands)? = root["$defs"]?["animatorEvent"]?["properties"]?["do"]?["enum"]?.kind else {
      Issue.record("no animator command enum")
      return
    }
    expectEqual(
      commands.compactMap { if case .string(let s) = $0.kind { s } else { nil } },
      AnimatorScript.Command.allCases.map(\.rawValue))
  }

  /// `Templates/schema.json` is exactly what the Swift descriptors build (`flick schema` prints
  /// the same text): regenerate it with `flick schema > Templates/schema.json`.
  @Test func committedSchemaIsTheGeneratedOne() throws {
    let committed = try String(
      contentsOf: FixturePaths.templates.appendingPathComponent("schema.json"), encoding: .utf8)
    let generated = TemplateSchema.json
    // Semantically equal (key order aside) first, for a readable failure; then byte for byte.
    let parsed = { (text: String) throws -> NSDictionary in
      try JSONSerialization.jsonObject(with: Data(text.utf8)) as? NSDictionary ?? [:]
    }
    try expectEqual(parsed(generated), parsed(committed))
    expectEqual(generated, committed, "Templates/schema.json is stale: run `flick schema > Templates/schema.json`")
  }

  static func string(_ value: JSON5Value?) -> String? {
    if case .string(let s)? = value?.kind { return s }
    return nil
  }

  /// Every key the layer decoder accepts has a schema, and no other key has one.
  @Test func everyLayerKeyHasASchema() {
    let decoded = Set(
      Template.baseLayerKeys + LayerContentKind.allCases.flatMap { Template.contentKeys[$0] ?? [] } + ["style"])
    expectEqual(Set(Template.layerKeySchemas.keys), decoded)
    expectEqual(Template.layerSchemaKeys.count, decoded.count)
  }

  /// The animatable properties come from the catalogue, with its value types (angles as angles).
  @Test func animatablePropertiesComeFromTheCatalogue() throws {
    let root = try JSON5Parser.parse(TemplateSchema.json)
    guard case .object(let animate)? = root["$defs"]?["animate"]?["properties"]?.kind else {
      Issue.record("no animate properties")
      return
    }
    // The catalogue's properties, then `string` (a text layer's string: not continuous, so not in
    // the catalogue; see TimelineCompiler+Text.swift).
    expectEqual(animate.map(\.key), LayerPropertyDescriptor.catalogue.map(\.name) + ["string"])
    expectEqual(Self.string(root["$defs"]?["animate"]?["properties"]?["rotation"]?["$ref"]), "#/$defs/angleAnimation")
    // A ranged property's value definition carries its range (bounds: width and height ≥ 0).
    expectEqual(Self.string(root["$defs"]?["setValues"]?["properties"]?["bounds"]?["$ref"]), "#/$defs/rectIn0ToUp")
    expectEqual(Self.string(root["$defs"]?["setValues"]?["properties"]?["opacity"]?["$ref"]), "#/$defs/numberIn0To1")
    expectEqual(Self.string(root["$defs"]?["layerBody"]?["properties"]?["opacity"]?["$ref"]), "#/$defs/numberIn0To1")
    // Every row with a layer key is a key of a layer object (or of its transform), from the row.
    let layerKeys = Set(Template.baseLayerKeys + LayerContentKind.allCases.flatMap { Template.contentKeys[$0] ?? [] })
    for d in LayerPropertyDescriptor.catalogue {
      guard let key = d.layerKey else { continue }
      if key.hasPrefix("transform.") {
        #expect(Template.transformKeys.contains(String(key.dropFirst(10))), "\(key)")
      } else {
        #expect(layerKeys.contains(key), "\(key)")
      }
    }
  }

  /// The serializer writes JSON that parses back to the same value, escapes included.
  @Test func schemaNodePrintsParseableJSON() throws {
    let node: SchemaNode = ["a": "x\"y\\z\n\u{01}°", "b": [1, 2.5, true], "c": [:], "d": []]
    let parsed = try JSON5Parser.parse(node.json)
    expectEqual(Self.string(parsed["a"]), "x\"y\\z\n\u{01}°")
    expectEqual(
      node.json,
      "{\n  \"a\": \"x\\\"y\\\\z\\n\\u0001°\",\n  \"b\": [\n    1,\n    2.5,\n    true\n  ],\n  \"c\": {},\n  \"d\": []\n}\n"
    )
  }

  @Test func bundledTemplatesExist() {
    #expect(Self.bundled.contains { $0.lastPathComponent == "hello.json5" })
  }

  /// The validator itself must be able to fail, keyword by keyword.
  @Test func validatorCatchesEachKeyword() throws {
    let schema = try JSON5Parser.parse(
      """
      { type: "object", required: ["a"], additionalProperties: false,
        properties: {
          a: { type: "integer", minimum: 1, maximum: 3 },
          b: { enum: ["x", "y"] },
          c: { type: "array", items: { type: "string", pattern: "^#", minLength: 2 }, minItems: 1, maxItems: 2 },
          d: { anyOf: [{ type: "number" }, { const: "auto" }] },
          e: { oneOf: [{ type: "number" }, { type: "integer" }] },
          f: { not: { type: "string" } },
          g: { $ref: "#/$defs/point" },
          h: { allOf: [{ type: "object" }], propertyNames: { pattern: "^[a-z]+$" } },
        },
        $defs: { point: { type: "array", minItems: 2, maxItems: 2 } } }
      """)
    let v = JSONSchemaValidator(root: schema)
    func problems(_ text: String) throws -> Int { v.validate(try JSON5Parser.parse(text)).count }
    try expectEqual(problems("{ a: 2, b: 'x', c: ['#a'], d: 'auto', e: 1.5, f: 1, g: [1, 2], h: { ok: 1 } }"), 0)
    try expectEqual(problems("{ b: 'x' }"), 1)  // required
    try expectEqual(problems("{ a: 2, z: 1 }"), 1)  // additionalProperties
    try expectEqual(problems("{ a: 2.5 }"), 1)  // integer
    try expectEqual(problems("{ a: 0 }"), 1)  // minimum
    try expectEqual(problems("{ a: 4 }"), 1)  // maximum
    try expectEqual(problems("{ a: 1, b: 'z' }"), 1)  // enum
    try expectEqual(problems("{ a: 1, c: ['ab'] }"), 1)  // pattern
    try expectEqual(problems("{ a: 1, c: ['#'] }"), 1)  // minLength
    try expectEqual(problems("{ a: 1, c: [] }"), 1)  // minItems
    try expectEqual(problems("{ a: 1, c: ['#a', '#b', '#c'] }"), 1)  // maxItems
    try expectEqual(problems("{ a: 1, d: 'manual' }"), 1)  // anyOf + const
    try expectEqual(problems("{ a: 1, e: 2 }"), 1)  // oneOf: both match
    try expectEqual(problems("{ a: 1, f: 's' }"), 1)  // not
    try expectEqual(problems("{ a: 1, g: [1] }"), 1)  // $ref
    try expectEqual(problems("{ a: 1, h: { Bad: 1 } }"), 1)  // propertyNames
    try expectEqual(problems("{ a: 1, h: 3 }"), 1)  // allOf
  }

  @Test func unsupportedKeywordsAreReported() throws {
    let v = JSONSchemaValidator(root: try JSON5Parser.parse("{ properties: { a: { exclusiveMinimum: 0 } } }"))
    expectEqual(v.unsupportedKeywords(), ["#/properties/a/exclusiveMinimum"])
  }
}
