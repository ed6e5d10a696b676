import FlickMotion
import FlickScene
@testable import FlickTemplates
import FlickExpectations
import Foundation
import Testing

/// Every place a template writes a property takes the catalogue row's range, and the JSON Schema
/// says what the decoder says: for every row and every kind of place (a layer key, `set`,
/// `animate` with a value, `to`/`from`, keyframe values, an animator's values, a link's
/// outputs, the short form's `from`, a release's `to`, a drag's points), values at and inside
/// the range's ends are taken by both, values past them refused by both, the decoder's refusal
/// naming the place.
@Suite struct PropertyRangeTests {
  static let validator = try? SchemaTests.validator()

  /// Where a value is written, as the template text around it.
  enum Place: String, CaseIterable {
    case layerKey, set, animateValue, fromTo, keyframes, animator, link, shortForm, release, dragPath
  }

  /// A value of `d`'s type whose ranged components are `x`.
  static func literal(_ d: LayerPropertyDescriptor, _ x: Double) -> String {
    let v = TemplateNode.format(x)
    switch d.property {
    case .double: return v
    case .point, .size: return "[\(v), \(v)]"
    case .rect: return "[0, 0, \(v), \(v)]"
    case .color: return "\"#FF0000\""
    case .colors: return "[\"#000000\", \"#FFFFFF\"]"
    }
  }

  /// Values the range takes (its ends, a point inside) and values it refuses (just past each end).
  static func samples(_ d: LayerPropertyDescriptor) -> (inside: [Double], outside: [Double]) {
    guard let r = d.range else { return ([1], []) }
    var inside = [r.lowerBound, r.lowerBound + min(1, (r.upperBound - r.lowerBound) / 2)]
    var outside = [r.lowerBound - 1]
    if r.upperBound.isFinite {
      inside.append(r.upperBound)
      outside.append(r.upperBound + 1)
    }
    return (inside, outside)
  }

  /// A layer of `d`'s kind, without `d`'s own key (a text layer writing `number` has no string).
  static func layer(_ d: LayerPropertyDescriptor, extra: String = "") -> String {
    let key = d.layerKey
    let own: String
    switch d.contentKind {
    case .shape?: own = #"path: "M0 0 L10 10""#
    case .text?: own = key == "number" && !extra.isEmpty ? "" : #"string: "x""#
    case .gradient?: own = key == "colors" && !extra.isEmpty ? "" : ##"colors: ["#000000", "#FFFFFF"]"##
    case .lottie?: own = #"type: "lottie", source: "lottie/success-badge.json""#
    case .none?, nil: own = key == "size" && !extra.isEmpty ? "" : "size: [10, 10]"
    }
    return "{ id: \"a\"" + [own, extra].filter { !$0.isEmpty }.map { ", " + $0 }.joined() + " }"
  }

  /// The template writing `value` for `d` at `place`, or nil when that place cannot write `d`.
  static func template(_ d: LayerPropertyDescriptor, _ value: String, at place: Place) -> String? {
    let name = d.name
    let other = literal(d, samples(d).inside[0])
    var layers = layer(d)
    let entry: String
    switch place {
    case .layerKey:
      guard let key = d.layerKey else { return nil }
      if key.hasPrefix("transform.") {
        layers = layer(d, extra: "transform: { \(key.dropFirst("transform.".count)): \(value) }")
      } else {
        layers = layer(d, extra: "\(key): \(value)")
      }
      entry = ""
    case .set: entry = "{ target: \"a\", set: { \(name): \(value) } }"
    case .animateValue: entry = "{ target: \"a\", duration: 0.5, animate: { \(name): \(value) } }"
    case .fromTo: entry = "{ target: \"a\", animate: { \(name): { from: \(value), to: \(other), duration: 0.5 } } }"
    case .keyframes:
      entry = "{ target: \"a\", animate: { \(name): { keyframes: { values: [\(other), \(value)] }, duration: 0.5 } } }"
    case .animator:
      guard d.contentKind != .lottie else { return nil }
      entry =
        "{ animator: { duration: 1, target: \"a\", animate: { \(name): \(value) }, events: [{ at: 0, do: \"start\" }] } }"
    case .link:
      entry = "{ target: \"a\", link: { \(name): { from: \"time\", input: [0, 1], output: [\(other), \(value)] } } }"
    case .shortForm:
      guard d.contentKind != .lottie else { return nil }
      entry = "{ target: \"a\", property: \"\(name)\", from: \(value), to: \(other), duration: 0.5 }"
    case .release:
      guard d.contentKind != .lottie else { return nil }
      entry = "{ target: \"a\", release: { property: \"\(name)\", to: \(value) } }"
    case .dragPath:
      guard d.contentKind != .lottie, d.property.valueTypeName != "colors" else { return nil }
      entry = "{ target: \"a\", drag: { property: \"\(name)\", path: [\(other), \(value)], duration: 0.5 } }"
    }
    return """
      { flick: 1, canvas: { width: 100, height: 100, fps: 30, duration: 1 },
        layers: [\(layers)], timeline: [\(entry)] }
      """
  }

  /// The decoder's verdict: nil when it takes the template, else its message.
  static func decoderProblem(_ text: String) -> String? {
    do {
      _ = try Template.decode(text, file: "t.json5", baseFolder: FixturePaths.templates.path)
      return nil
    } catch {
      return error.description
    }
  }

  /// The schema's verdict: nil when the template is valid, else its problems.
  static func schemaProblem(_ text: String) throws -> String? {
    let v = try #require(validator)
    let problems = v.validate(try JSON5Parser.parse(text))
    return problems.isEmpty ? nil : problems.joined(separator: "; ")
  }

  @Test(arguments: LayerPropertyDescriptor.catalogue.map(\.name))
  func schemaAndDecoderAgreeOnEveryPlace(_ name: String) throws {
    let d = try #require(LayerPropertyDescriptor.named(name))
    let (inside, outside) = Self.samples(d)
    for place in Place.allCases {
      for (x, taken) in inside.map({ ($0, true) }) + outside.map({ ($0, false) }) {
        guard let text = Self.template(d, Self.literal(d, x), at: place) else { continue }
        let decoder = Self.decoderProblem(text)
        let schema = try Self.schemaProblem(text)
        let what = "\(name) = \(TemplateNode.format(x)) at \(place.rawValue)"
        expectEqual((decoder == nil), taken, "decoder: \(what): \(decoder ?? "taken")")
        expectEqual((schema == nil), taken, "schema: \(what): \(schema ?? "taken")")
        if let decoder, !taken {
          #expect(decoder.contains("expected"), "\(what): \(decoder)")
          #expect(decoder.hasPrefix("t.json5:"), "\(what): \(decoder)")
        }
      }
    }
  }

  /// The issue's cases, each refused with the file, line, column and JSON path.
  @Test(arguments: [
    (
      "{ target: \"a\", set: { opacity: 7 } }",
      "t.json5:3:45: timeline[0].set.opacity: expected a number in 0…1, found 7"
    ),
    (
      "{ target: \"a\", duration: 1, animate: { cornerRadius: -40 } }",
      "t.json5:3:67: timeline[0].animate.cornerRadius: expected a number in 0…100000, found -40"
    ),
    (
      "{ target: \"a\", animate: { borderWidth: { to: -3 } } }",
      "t.json5:3:59: timeline[0].animate.borderWidth.to: expected a number in 0…100000, found -3"
    ),
    (
      "{ target: \"a\", set: { shadowRadius: 5000 } }",
      "t.json5:3:50: timeline[0].set.shadowRadius: expected a number in 0…1000, found 5000"
    ),
  ])
  func theIssuesValuesAreRefused(_ entry: String, _ message: String) throws {
    let text = """
      { flick: 1, canvas: { width: 100, height: 100, duration: 1 },
        layers: [{ id: "a", size: [10, 10] }],
        timeline: [\(entry)] }
      """
    expectEqual(Self.decoderProblem(text), message)
    #expect(try Self.schemaProblem(text) != nil)
  }

  /// `by` and a drag's offsets are changes: any change is fine, where it lands is checked.
  @Test func changesAreCheckedWhereTheyLand() throws {
    func problem(_ entry: String) -> String? {
      Self.decoderProblem(
        """
        { flick: 1, canvas: { width: 100, height: 100, duration: 2 },
          layers: [{ id: "a", size: [10, 10], opacity: 0.5 }], timeline: [\(entry)] }
        """)
    }
    #expect(problem("{ target: \"a\", animate: { opacity: { by: -0.5 } } }") == nil)
    let by = try #require(problem("{ target: \"a\", animate: { opacity: { by: 0.8 } } }"))
    #expect(by.contains("timeline[0].animate.opacity.by: expected a number in 0…1, found 1.3"), "\(by)")
    #expect(problem("{ target: \"a\", drag: { property: \"opacity\", by: [0.2, -0.4], duration: 1 } }") == nil)
    let drag = try #require(problem("{ target: \"a\", drag: { property: \"opacity\", by: [0.2, 0.6], duration: 1 } }"))
    #expect(drag.contains("timeline[0].drag.by[1]: expected a number in 0…1, found 1.1"), "\(drag)")
    let path = try #require(
      problem("{ target: \"a\", drag: { property: \"size\", path: [[5, 5], [-2, 5]], duration: 1 } }"))
    #expect(path.contains("timeline[0].drag.path[1]: expected width ≥ 0, found -2"), "\(path)")
    // A velocity is a change too: any sign.
    #expect(problem("{ target: \"a\", animate: { opacity: { to: 1, velocity: -20, spring: true } } }") == nil)
    // The release's target is written.
    let release = try #require(problem("{ target: \"a\", release: { property: \"opacity\", to: 3 } }"))
    #expect(release.contains("timeline[0].release.to: expected a number in 0…1, found 3"), "\(release)")
  }
}

/// A property written under one of its aliases (its layer key, its key path) is named.
@Suite struct PropertyAliasTests {
  @Test func anAliasInTheTimelineNamesTheProperty() throws {
    let problem = PropertyRangeTests.decoderProblem(
      """
      { flick: 1, canvas: { width: 100, height: 100, duration: 1 },
        layers: [{ id: "a", size: [10, 10] }], timeline: [{ target: "a", set: { "transform.scale": [2, 2] } }] }
      """)
    let text = try #require(problem)
    #expect(
      text.contains("'transform.scale' is not an animatable property; the timeline calls it 'scaleXY'"), "\(text)")
    expectEqual(LayerPropertyDescriptor.resolving("bounds.size")?.name, "size")
    expectEqual(LayerPropertyDescriptor.named("scaleXY")?.aliases, ["transform.scale"])
  }
}
