import FlickExpectations
import FlickRaster
import FlickScene
import Testing

@testable import FlickTemplates

/// A layer used as another layer's `mask` (or inside one, or inside a component) is a layer like
/// any other for the timeline: every entry that writes a property of a top-level layer writes it
/// on a mask, from the value the mask is written with, and `string` and `transition` change a
/// text mask as they change a text layer.
@Suite struct MaskTimelineTests {
  /// Where the layer `a` of a generated template sits.
  enum Placement: String, CaseIterable {
    case topLevel, mask, maskSublayer, componentMask

    /// The template with `a` (its JSON text) here and the timeline `entry` (targeting "a").
    func template(_ a: String, entry: String) -> String {
      let canvas = "flick: 1, canvas: { width: 100, height: 100, fps: 30, duration: 1 }"
      switch self {
      case .topLevel:
        return "{ \(canvas), layers: [\(a)], timeline: [\(entry)] }"
      case .mask:
        return "{ \(canvas), layers: [{ id: \"host\", size: [100, 100], mask: \(a) }], timeline: [\(entry)] }"
      case .maskSublayer:
        return """
          { \(canvas), layers: [{ id: "host", size: [100, 100],
            mask: { id: "m", size: [100, 100], sublayers: [\(a)] } }], timeline: [\(entry)] }
          """
      case .componentMask:
        return """
          { \(canvas), components: { c: { layer: { size: [100, 100], mask: \(a) }, timeline: [\(entry)] } },
            layers: [{ id: "i", use: "c" }] }
          """
      }
    }

    /// The id `a` has in the decoded scene.
    var id: String { self == .componentMask ? "i/a" : "a" }
  }

  /// The layer `id` of `t` at `time`, wherever it is in the tree (masks included).
  static func layer(_ id: String, of t: Template, at time: Double) -> Layer? {
    LayersInTreeOrder(t.scene.renderTree(at: time).layers).first { $0.id == id }
  }

  /// Decodes `text`: the template, or the decoder's message.
  static func decode(_ text: String) -> Result<Template, TemplateError> {
    do {
      return .success(try Template.decode(text, file: "t.json5", baseFolder: FixturePaths.templates.path))
    } catch {
      return .failure(error)
    }
  }

  /// Every timeline place that can write a catalogued property writes it on a mask, on a mask's
  /// sublayer and on a component's mask as on a top-level layer: the same verdict, and the same
  /// layer at every instant (an animation starts from the mask's written value).
  @Test(arguments: LayerPropertyDescriptor.catalogue.map(\.name))
  func everyPropertyIsWrittenOnMasksAsOnLayers(_ name: String) throws {
    let d = try #require(LayerPropertyDescriptor.named(name))
    let value = PropertyRangeTests.literal(d, PropertyRangeTests.samples(d).inside.last ?? 1)
    let a = PropertyRangeTests.layer(d)
    for place in PropertyRangeTests.Place.allCases where place != .layerKey {
      guard let written = PropertyRangeTests.template(d, value, at: place),
        let start = written.range(of: "timeline: ["), let end = written.range(of: "] }", options: .backwards)
      else { continue }
      let entry = String(written[start.upperBound..<end.lowerBound])
      let reference = Self.decode(Placement.topLevel.template(a, entry: entry))
      for placement in Placement.allCases where placement != .topLevel {
        let what = "\(name) at \(place.rawValue), a \(placement.rawValue)"
        switch (reference, Self.decode(placement.template(a, entry: entry))) {
        case (.success(let want), .success(let got)):
          for t in [0, 0.1, 0.25, 0.5, 0.75, 1.0] {
            var layer = try #require(Self.layer(placement.id, of: got, at: t), "\(what)")
            layer.id = "a"
            expectEqual(layer, Self.layer("a", of: want, at: t), "\(what) at \(t)")
          }
        case (.failure, .failure): break
        case (.success, .failure(let e)): Issue.record("\(what): refused: \(e)")
        case (.failure(let e), .success): Issue.record("\(what): taken, but refused on a top-level layer: \(e)")
        }
      }
    }
  }

  /// A text mask's `string` and `number`, set, keyframed and with a `transition`.
  @Test(arguments: [
    #"{ at: 0.5, target: "a", set: { string: "Bye" } }"#,
    #"{ at: 0.5, target: "a", set: { string: "Bye" }, transition: { kind: "roll", duration: 0.3 } }"#,
    #"{ at: 0.2, target: "a", animate: { string: { keyframes: ["Hey", "Bye"], duration: 0.6 } } }"#,
    #"{ at: 0.5, target: "a", animate: { string: "Bye" } }"#,
  ])
  func aTextMasksStringIsWrittenAsALayers(_ entry: String) throws {
    let a = #"{ id: "a", size: [100, 100], string: "Hello", fontSize: 30 }"#
    let want = try Self.decode(Placement.topLevel.template(a, entry: entry)).get()
    for placement in Placement.allCases where placement != .topLevel {
      let got = try Self.decode(placement.template(a, entry: entry)).get()
      for t in [0, 0.3, 0.5, 0.6, 0.7, 1.0] {
        var layer = try #require(Self.layer(placement.id, of: got, at: t))
        layer.id = "a"
        expectEqual(layer, Self.layer("a", of: want, at: t), "\(placement.rawValue) at \(t)")
      }
    }
    let number = #"{ id: "a", size: [100, 100], number: 5, fontSize: 30 }"#
    let count = #"{ at: 0.5, target: "a", set: { number: 9 }, transition: { kind: "fade", duration: 0.3 } }"#
    let counted = try Self.decode(Placement.topLevel.template(number, entry: count)).get()
    let masked = try Self.decode(Placement.mask.template(number, entry: count)).get()
    for t in [0.4, 0.6, 0.9] {
      expectEqual(Self.layer("a", of: masked, at: t), Self.layer("a", of: counted, at: t))
    }
  }

  /// A Lottie layer plays by itself as a mask, inside one and as a component's mask, as it does
  /// as a layer.
  @Test func aLottieMaskPlaysByItself() throws {
    let a = #"{ id: "a", type: "lottie", source: "lottie/success-badge.json", size: [100, 100] }"#
    let want = try Self.decode(Placement.topLevel.template(a, entry: "")).get()
    expectNotEqual(Self.layer("a", of: want, at: 0), Self.layer("a", of: want, at: 0.5))
    for placement in Placement.allCases where placement != .topLevel {
      let got = try Self.decode(placement.template(a, entry: "")).get()
      for t in [0, 0.25, 0.5, 1.0] {
        var layer = try #require(Self.layer(placement.id, of: got, at: t))
        layer.id = "a"
        expectEqual(layer, Self.layer("a", of: want, at: t), "\(placement.rawValue) at \(t)")
      }
    }
  }

  /// The review's case: a red box masked by a text layer whose string is set at 0.5 s. Before
  /// the set it draws "Hello" and after it "Bye", as the same box masked by each string written.
  @Test func aTextMasksSetStringChangesThePixelsAtItsTime() throws {
    func template(_ mask: String, _ timeline: String = "") throws -> Template {
      try Template.decode(
        """
        { flick: 1, canvas: { width: 200, height: 100, fps: 10, duration: 1, background: "#000000" },
          layers: [{ id: "box", size: [200, 100], position: [100, 50], backgroundColor: "#FF0000",
                     mask: { id: "m", size: [200, 100], position: [100, 50], string: "\(mask)",
                             fontFamily: "DejaVu Sans", fontSize: 40 } }],
          timeline: [\(timeline)] }
        """, file: "masktext.json5")
    }
    let animated = try template("Hello", #"{ at: 0.5, target: "m", set: { string: "Bye" } }"#)
    let hello = try Renderer().render(template("Hello").scene.renderTree(at: 0))
    let bye = try Renderer().render(template("Bye").scene.renderTree(at: 0))
    expectNotEqual(hello, bye)
    for frame in 0..<10 {
      let t = Double(frame) / 10
      let got = try Renderer().render(animated.scene.renderTree(at: t))
      expectEqual(got, t < 0.5 ? hello : bye, "frame \(frame)")
    }
  }
}
