import FlickScene
import FlickExpectations
import Foundation
import Testing

@testable import FlickTemplates

/// A component no layer uses is still checked: it is expanded once as an instance with its
/// parameters' defaults and decoded into a scene that is dropped, so its mistakes are errors
/// located in the definition (as an unused style's are), and the template is otherwise the same.
@Suite struct UnusedComponentTests {
  static func template(_ components: String, layers: String = #"{ id: "a", size: [10, 10] }"#) -> String {
    """
    { flick: 1, canvas: { width: 100, height: 100, fps: 10, duration: 1 },
      components: { \(components) },
      layers: [ \(layers) ] }
    """
  }

  static func message(_ text: String, limits: TemplateLimits = TemplateLimits()) -> String {
    var options = TemplateOptions()
    options.limits = limits
    do {
      _ = try Template.decode(text, file: "u.json5", options: options)
      return ""
    } catch {
      return error.description
    }
  }

  @Test func aMistakeInAnUnusedComponentIsAnErrorInItsDefinition() {
    let layerKey = Self.template(#"bad: { layers: [ { id: "y", size: [10, 10], opacty: 1 } ] }"#)
    let m = Self.message(layerKey)
    #expect(
      m.hasPrefix("u.json5:2:61: components.bad.layers[0].opacty: unknown key 'opacty'; did you mean 'opacity'?"),
      "\(m)")
    #expect(m.hasSuffix(" (in component 'bad', which no layer uses)"), "\(m)")
    let target = Self.template(
      #"bad: { layers: [ { id: "y", size: [10, 10] } ], timeline: [ { at: 0, target: "nope", animate: { opacity: 0 } } ] }"#
    )
    expectEqual(
      Self.message(target),
      "u.json5:2:94: components.bad.timeline[0].target: no layer with id 'nope' in the component "
        + "(in component 'bad', which no layer uses)")
    let value = Self.template(##"bad: { layer: { size: [10, 10], backgroundColor: "#GG0000" } }"##)
    #expect(Self.message(value).contains("components.bad.layer.backgroundColor:"), "\(Self.message(value))")
    // Used only by a component that is itself unused: found through either.
    let inner = Self.template(
      #"outer: { layers: [ { id: "i", use: "inner" } ] }, inner: { layers: [ { id: "z", opacity: 2 } ] }"#)
    #expect(Self.message(inner).contains("components.inner.layers[0].opacity:"), "\(Self.message(inner))")
  }

  @Test func aValidUnusedComponentChangesNothing() throws {
    let unused =
      #"spare: { parameters: { n: { type: "number", default: 2 } }, layers: [ { id: "y", size: ["$n", 10] } ], timeline: [ { at: 0, target: "y", animate: { opacity: 0 }, duration: 0.5 } ] }"#
    let with = try Template.decode(Self.template(unused), file: "u.json5")
    let without = try Template.decode(Self.template(#"spare: { layers: [] }"#), file: "u.json5")
    expectEqual(with.scene.layers, without.scene.layers)
    expectEqual(with.scene.animations.count, without.scene.animations.count)
    expectEqual(with.componentInstances.count, 0)
  }

  /// A parameter without a default takes a placeholder of its type, so a mistake that does not
  /// depend on it is found before any layer uses the component.
  @Test func aComponentWithARequiredParameterIsCheckedWithAPlaceholder() {
    let required = #"req: { parameters: { n: { type: "number" } }, layers: [ { id: "y", opacity: 2 } ] }"#
    let m = Self.message(Self.template(required))
    #expect(m.hasPrefix("u.json5:2:93: components.req.layers[0].opacity: expected a number in 0…1"), "\(m)")
    #expect(m.hasSuffix(" (in component 'req', which no layer uses)"), "\(m)")
    // Every type, in its own place: the mistake is found whatever the parameters are.
    let every =
      #"req: { parameters: { n: { type: "integer", minimum: 3, maximum: 9 }, s: { type: "string" }, "#
      + ##"c: { type: "color" }, i: { type: "image" }, f: { type: "font" }, b: { type: "boolean" }, "##
      + #"e: { type: "enum", choices: ["x", "y"] }, l: { type: "list", items: "number", minItems: 2 } }, "#
      + #"layers: [ { id: "y", size: ["$n", "$n"] } ], "#
      + #"timeline: [ { at: 0, target: "y", animate: { opacty: 0 } } ] }"#
    let e = Self.message(Self.template(every))
    #expect(e.contains("components.req.timeline[0].animate.opacty:"), "\(e)")
    #expect(e.hasSuffix(" (in component 'req', which no layer uses)"), "\(e)")
    // Inside a timeline whose target is a parameter too.
    let target = Self.template(
      #"req: { parameters: { t: { type: "string" } }, layers: [ { id: "y" } ], "#
        + #"timeline: [ { at: 0, target: "y", animate: { opacity: 0 }, duration: -1 } ] }"#)
    #expect(Self.message(target).contains("components.req.timeline[0].duration:"), "\(Self.message(target))")
    // Still checked where an instance gives the value.
    #expect(
      Self.message(Self.template(required, layers: #"{ id: "r", use: "req", params: { n: 1 } }"#))
        .contains("components.req.layers[0].opacity:"))
  }

  /// What only a placeholder makes wrong is not reported: a valid component with required
  /// parameters used where their values matter (a target, an image, an id, a size, a colour, an
  /// enum, a list, an expression) loads as if it were absent.
  @Test func aPlaceholderCausesNoError() {
    let valid = [
      #"pick: { parameters: { which: { type: "string" } }, layers: [ { id: "a" }, { id: "b" } ], "#
        + #"timeline: [ { at: 0, target: "$which", animate: { opacity: 0 }, duration: 0.5 } ] }"#,
      #"photo: { parameters: { p: { type: "image" } }, layers: [ { id: "a", size: [10, 10], contents: "$p" } ] }"#,
      #"named: { parameters: { a: { type: "string" }, b: { type: "string" } }, "#
        + #"layers: [ { id: "x${a}" }, { id: "x${b}" } ] }"#,
      #"sized: { parameters: { w: { type: "number", minimum: 10, maximum: 20 } }, "#
        + #"layers: [ { id: "a", size: ["$(w - 10)", 10], opacity: "$(20 - w)" } ] }"#,
      #"tint: { parameters: { c: { type: "color" }, e: { type: "enum", choices: ["a", "b"] } }, "#
        + #"layers: [ { id: "$e", backgroundColor: "$c" } ] }"#,
      #"items: { parameters: { l: { type: "list", items: "number", minItems: 2, maxItems: 2 } }, "#
        + #"layers: [ { id: "a", position: "$l" } ] }"#,
      #"pass: { parameters: { s: { type: "string" } }, layers: [ { id: "i", use: "inner", params: { label: "$s" } } ] }, "#
        + #"inner: { parameters: { label: { type: "string" } }, layers: [ { id: "t", type: "text", string: "$label" } ] }"#,
    ]
    for components in valid {
      expectEqual(Self.message(Self.template(components)), "", "\(components)")
    }
  }

  /// The probes share one template's caps: ten unused components of 301 layers each are 3,010
  /// layers, over a cap of 2,000 that each of them alone fits.
  @Test func theProbesTogetherExpandNoMoreThanOneTemplateMay() {
    let leaves = (0..<300).map { #"{ id: "l\#($0)", use: "leaf" }"# }.joined(separator: ", ")
    var components = #"leaf: { layers: [ { id: "x", size: [1, 1] } ] }, mid: { layers: [ \#(leaves) ] }"#
    for i in 0..<10 { components += #", c\#(i): { layers: [ { id: "m", use: "mid" } ] }"# }
    var limits = TemplateLimits()
    limits.maximumLayers = 2_000
    let m = Self.message(Self.template(components), limits: limits)
    #expect(m.contains("more than 2000 layers") && m.hasSuffix("which no layer uses)"), "\(m)")
    expectEqual(
      Self.message(
        Self.template(#"leaf: { layers: [ { id: "x" } ] }, mid: { layers: [ \#(leaves) ] }"#), limits: limits), "")
  }
}
