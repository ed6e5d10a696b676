import FlickScene
@testable import FlickTemplates
import FlickExpectations
import Foundation
import Testing

/// The JSON Schema (as `flick schema` builds it) and the decoder give the same verdict on a
/// corpus of snippets, each accepted or refused by design: the degree syntax, the property names
/// every entry may name, motion and timing objects, numeric ranges, non-empty objects, parameter
/// types. Each snippet goes into one place of a small template with a plain, a text, a shape and
/// a Lottie layer.
@Suite struct SchemaAgreementTests {
  static let validator = (try? JSON5Parser.parse(TemplateSchema.json)).map(JSONSchemaValidator.init(root:))

  /// Where a snippet goes.
  enum Place {
    /// Members added to the plain layer `a`, the text layer `t`, the shape layer `s` or the Lottie layer `L`.
    case a, t, s, L
    /// More layers.
    case layers
    /// The timeline's entries.
    case timeline
    /// The `parameters` section's members.
    case parameters
  }

  struct Case: CustomTestStringConvertible, Sendable {
    var place: Place
    var text: String
    var accepted: Bool
    var testDescription: String { "\(accepted ? "takes" : "refuses") \(text)" }
  }

  static func template(_ c: Case) -> String {
    func at(_ p: Place) -> String { c.place == p ? ", " + c.text : "" }
    let layers = c.place == .layers ? c.text + "," : ""
    let timeline = c.place == .timeline ? c.text : ""
    let parameters = c.place == .parameters ? "parameters: { \(c.text) }," : ""
    return """
      { flick: 1, canvas: { width: 200, height: 100, fps: 10, duration: 1 }, \(parameters)
        layers: [
          { id: "a", size: [10, 10], position: [50, 50], backgroundColor: "#FF0000"\(at(.a)) },
          { id: "t", type: "text", size: [100, 20], position: [50, 50], string: "hi"\(at(.t)) },
          { id: "s", size: [100, 20], position: [50, 50], path: { rect: [0, 0, 10, 10] }\(at(.s)) },
          { id: "L", type: "lottie", source: "lottie/success-badge.json", size: [50, 50], position: [50, 50]\(at(.L)) },
          \(layers)
        ],
        timeline: [\(timeline)] }
      """
  }

  /// Angles written as degrees: one grammar, a decimal number directly followed by `deg`. (A
  /// number past a double's range, `"1e999deg"`, is refused by the decoder only: a pattern
  /// cannot see it; DecimalReadingTests checks it.)
  static let angles: [Case] =
    ["90deg", "-4.5deg", "+90deg", "1E2deg", "1e+2deg", "1e-2deg", ".5deg", "5.deg", "0deg"].map {
      Case(place: .a, text: "transform: { rotation: \"\($0)\" }", accepted: true)
    }
    + [
      "0x10deg", "0x1p4deg", #"\n90deg"#, #"90deg\n"#, " 90deg", "90deg ", "90 deg", #"\t90deg"#, "..deg", "1.2.3deg",
      "deg", "nandeg", "infdeg", "infinitydeg", "90DEG", "1e2.5deg", "-deg", "1edeg", "90", "٩٠deg",
    ].map { Case(place: .a, text: "transform: { rotation: \"\($0)\" }", accepted: false) }
    + [
      Case(place: .timeline, text: #"{ target: "a", animate: { rotation: "45deg" }, duration: 0.5 }"#, accepted: true),
      Case(
        place: .timeline, text: #"{ target: "a", animate: { rotation: "0x10deg" }, duration: 0.5 }"#, accepted: false),
      Case(place: .s, text: #"shadowPath: { arc: [5, 5], radius: 4, endAngle: "180deg" }"#, accepted: true),
      Case(place: .s, text: #"shadowPath: { arc: [5, 5], radius: 4, endAngle: "nandeg" }"#, accepted: false),
    ]

  /// A `when` crossing: degrees for an angle property only; each name once.
  static let crossings: [Case] = [
    ("rotation", #""45deg""#, true), ("rotation", "0.5", true), ("opacity", #""0.5deg""#, false),
    ("position.x", "60", true), ("transform.rotation", #""45deg""#, true), ("rotation", #""0x10deg""#, false),
  ].map { property, crosses, accepted in
    Case(
      place: .timeline,
      text: """
        { target: "a", animate: { rotation: "90deg", positionX: 100, opacity: 0 }, duration: 0.5 },
        { target: "t", set: { opacity: 0.5 }, when: { target: "a", property: "\(property)", crosses: \(crosses) } }
        """, accepted: accepted)
  }

  /// Entries naming one property take every catalogue property, a Lottie layer's playhead too.
  static let propertyNames: [Case] = [
    Case(place: .timeline, text: #"{ target: "L", property: "progress", to: 1, duration: 0.5 }"#, accepted: true),
    Case(place: .timeline, text: #"{ target: "L", property: "frame", to: 10, duration: 0.5 }"#, accepted: true),
    Case(
      place: .timeline, text: #"{ target: "L", drag: { property: "progress", by: [0, 0.5], duration: 0.5 } }"#,
      accepted: true),
    Case(place: .timeline, text: #"{ target: "L", release: { property: "progress", to: 1 } }"#, accepted: true),
    Case(
      place: .timeline,
      text: #"{ animator: { duration: 1, target: "L", animate: { progress: 1 }, events: [{ at: 0, do: "start" }] } }"#,
      accepted: true),
    Case(place: .timeline, text: #"{ target: "a", property: "nope", to: 1, duration: 0.5 }"#, accepted: false),
  ]

  /// Motion objects take the spec's timing options; an entry's timing keys their ranges.
  static let timing: [Case] =
    [
      (#"tween: { curve: "linear", duration: 0.3, delay: 0.1 }"#, true),
      (#"tween: { curve: "linear", duration: 0.3, fill: "both", repeatCount: 2 }"#, true),
      (#"tween: { curve: "linear", duration: 0.3, delay: 4000 }"#, false),
      (#"spring: { bounciness: 8, fill: "both" }"#, true), ("decay: { velocity: 100, delay: -1 }", false),
      ("duration: 0.5, speed: 0", false), ("duration: 0.5, speed: 0.001", true), ("duration: 0.5, speed: 1000", true),
      ("duration: 0.5, speed: 1001", false), ("duration: 0.5, timeOffset: 3601", false),
      ("duration: 0.5, repeatCount: 1000001", false), ("duration: 0.5, repeatCount: 2.5", true),
      ("duration: 0.5, repeatDuration: 3601", false),
    ].map { Case(place: .timeline, text: #"{ target: "a", animate: { positionX: 10 }, \#($0.0) }"#, accepted: $0.1) }
    + [
      Case(
        place: .timeline, text: #"{ targets: ["a", "t"], animate: { opacity: 0 }, duration: 0.2, stagger: 0.1 }"#,
        accepted: true),
      Case(
        place: .timeline, text: #"{ targets: ["a", "t"], animate: { opacity: 0 }, duration: 0.2, stagger: 61 }"#,
        accepted: false),
      Case(
        place: .timeline, text: #"{ target: "a", drag: { property: "positionX", by: [0, 10], duration: 0 } }"#,
        accepted: false),
      Case(
        place: .timeline,
        text:
          #"{ target: "a", drag: { property: "positionX", by: [0, 10], duration: 0.5, resistance: { bounds: { x: [0, 5] }, coefficient: 0 } } }"#,
        accepted: false),
      Case(
        place: .timeline,
        text: #"{ animator: { duration: 0, target: "a", animate: { opacity: 0 }, events: [{ at: 0, do: "start" }] } }"#,
        accepted: false),
    ]

  /// Layer keys with a range, and objects that cannot be empty.
  static let values: [Case] = [
    Case(place: .t, text: "lineSpacing: 1000", accepted: true),
    Case(place: .t, text: "lineSpacing: -1001", accepted: false),
    Case(place: .t, text: "lineSpacing: -1e9", accepted: false), Case(place: .L, text: "speed: 100", accepted: true),
    Case(place: .L, text: "speed: 101", accepted: false), Case(place: .L, text: "speed: 1e9", accepted: false),
    Case(place: .L, text: "beginTime: 1e6", accepted: true), Case(place: .L, text: "beginTime: 1e9", accepted: false),
    Case(place: .s, text: "miterLimit: 1", accepted: true), Case(place: .s, text: "miterLimit: 0.5", accepted: false),
    Case(place: .s, text: "lineDashPattern: [4, 2]", accepted: true),
    Case(place: .s, text: "lineDashPattern: [4, 200000]", accepted: false),
    Case(place: .s, text: "shadowPath: { roundedRect: [0, 0, 10, 10], cornerRadius: 200000 }", accepted: false),
    Case(
      place: .layers,
      text:
        #"{ id: "r", instanceCount: 2, instanceJitter: { seed: 1, position: { x: 1, y: 2 } }, sublayers: [{ id: "r1", size: [2, 2] }] }"#,
      accepted: true),
    Case(
      place: .layers,
      text:
        #"{ id: "r", instanceCount: 2, instanceJitter: { seed: 1, position: 200000 }, sublayers: [{ id: "r1", size: [2, 2] }] }"#,
      accepted: false),
    Case(place: .timeline, text: #"{ target: "a", set: { opacity: 1 } }"#, accepted: true),
    Case(place: .timeline, text: #"{ target: "a", set: {} }"#, accepted: false),
    Case(place: .parameters, text: #"p: { type: "list", items: "number", default: [] }"#, accepted: true),
    Case(place: .parameters, text: #"p: { type: "list", items: "colour", default: [] }"#, accepted: true),
    Case(place: .parameters, text: #"p: { type: "list", items: "list", default: [] }"#, accepted: false),
    Case(place: .parameters, text: #"p: { type: "list", maxItems: 10000, default: [] }"#, accepted: true),
    Case(place: .parameters, text: #"p: { type: "list", minItems: 10001, default: [] }"#, accepted: false),
    // A pattern's end is the text's end, not a final line break before it.
    Case(place: .t, text: ##"textColor: "#00FF00""##, accepted: true),
    Case(place: .t, text: ##"textColor: "#00FF00\n""##, accepted: false),
    Case(place: .parameters, text: #""p\n": { type: "number", default: 1 }"#, accepted: false),
  ]

  /// Entries in a group take the group's timing (GroupTiming.keys: motion, `duration`, timing
  /// options) where they give none: a `drag` its `duration` and curve, the others their motion,
  /// length and timing, through nested groups and sequences too.
  static let groups: [Case] = [
    #"{ curve: "easeInEaseOut", duration: 0.6, group: [{ target: "a", drag: { property: "positionX", by: [0, 120] } }] }"#,
    #"{ duration: 0.6, group: [{ target: "a", drag: { path: [[0, 0], [20, 10]] } }] }"#,
    #"{ duration: 0.6, group: [{ group: [{ target: "a", drag: { property: "positionY", by: [0, 20] } }] }] }"#,
    #"{ duration: 0.6, group: [{ sequence: [{ target: "a", drag: { by: [[0, 0], [10, 10]] } }] }] }"#,
    #"{ duration: 0.6, delay: 0.1, speed: 2, group: [{ target: "a", drag: { property: "positionX", by: [0, 9] } }] }"#,
    #"{ curve: "easeOut", duration: 0.4, group: [{ target: "a", spin: { to: 2 } }] }"#,
    #"{ curve: "easeOut", duration: 0.4, fill: "both", group: [{ target: "a", animate: { positionX: 10 } }] }"#,
    #"{ duration: 0.4, group: [{ target: "a", property: "opacity", to: 0 }] }"#,
    #"{ spring: { bounciness: 8 }, group: [{ target: "a", release: { property: "positionX", to: 10 } }] }"#,
  ].map { Case(place: .timeline, text: $0, accepted: true) }

  @Test(arguments: angles + crossings + propertyNames + timing + values + groups)
  func schemaAndDecoderAgree(_ c: Case) throws {
    let text = Self.template(c)
    var decoder: String?
    do {
      _ = try Template.decode(text, file: "t.json5", baseFolder: FixturePaths.templates.path)
    } catch {
      decoder = error.description
    }
    let problems = try #require(Self.validator).validate(try JSON5Parser.parse(text))
    expectEqual(decoder == nil, c.accepted, "decoder: \(c.text): \(decoder ?? "taken")")
    expectEqual(problems.isEmpty, c.accepted, "schema: \(c.text): \(problems.joined(separator: "; "))")
  }

  /// A drag with no `duration` of its own and none from a group: the decoder refuses it. (The
  /// schema takes it: it cannot see which group an entry is in.)
  @Test(arguments: [
    #"{ target: "a", drag: { property: "positionX", by: [0, 120] } }"#,
    #"{ curve: "easeOut", group: [{ target: "a", drag: { property: "positionX", by: [0, 120] } }] }"#,
    #"{ sequence: [{ target: "a", drag: { by: [[0, 0], [10, 10]] } }] }"#,
  ])
  func aDragWithoutAnyDurationIsRefused(_ entry: String) throws {
    let text = Self.template(Case(place: .timeline, text: entry, accepted: false))
    let error = try #require(throws: TemplateError.self) {
      try Template.decode(text, file: "t.json5", baseFolder: FixturePaths.templates.path)
    }
    #expect(error.description.contains("a drag needs a 'duration' in seconds"), "\(error.description)")
  }

  /// No entry that takes a group's timing requires, in its own object or an object inside it, a
  /// key a group can give it (GroupTiming.keys): the schema would refuse what a group completes.
  /// (`anyOf`, `oneOf`, `if` and `not` branches are alternatives or conditions; `$ref`s lead to
  /// shared definitions, which SchemaTests covers.)
  @Test func noEntryRequiresAKeyAGroupGives() throws {
    let root = try JSON5Parser.parse(TemplateSchema.json)
    let groupKeys = Set(GroupTiming.keys)
    func required(_ v: JSON5Value, at path: String) -> [String] {
      switch v.kind {
      case .object(let members):
        var found: [String] = []
        for m in members where !["anyOf", "oneOf", "if", "then", "else", "not"].contains(m.key) {
          if m.key == "required", case .array(let names) = m.value.kind {
            found += names.compactMap { n in
              guard case .string(let s) = n.kind, groupKeys.contains(s) else { return nil }
              return "\(path): \(s)"
            }
          } else {
            found += required(m.value, at: path + "/" + m.key)
          }
        }
        return found
      case .array(let items): return items.flatMap { required($0, at: path) }
      default: return []
      }
    }
    for kind in ["animate", "property", "release", "drag", "spin", "group", "sequence"] {
      let entry = try #require(root["$defs"]?[kind + "Entry"], "no \(kind)Entry")
      expectEqual(required(entry, at: kind + "Entry"), [], "\(kind)Entry requires a key a group gives")
    }
  }

  /// `when` lists each property name once.
  @Test func crossingNamesAreListedOnce() throws {
    expectEqual(CrossedProperty.names.count, Set(CrossedProperty.names).count)
    let root = try JSON5Parser.parse(TemplateSchema.json)
    guard case .array(let names)? = root["$defs"]?["crossing"]?["properties"]?["property"]?["enum"]?.kind else {
      Issue.record("no crossing property enum")
      return
    }
    expectEqual(names.count, CrossedProperty.names.count)
  }
}
