import FlickExpectations
import Testing

@testable import FlickTemplates

/// A template has at most ``TemplateLimits/maximumLayers`` layers once its components are
/// expanded, counted while they are expanded: a 30 KB template with a component of 1,000 layers
/// used 1,000 times asked for a 2 GB array and died, and 400,000 plain layers took 2.6 GB. The
/// cap is lowered here so the tests stay quick.
@Suite struct LayerCapTests {
  static func load(_ text: String, layers: Int) throws -> Template {
    var options = TemplateOptions()
    options.limits.maximumLayers = layers
    return try Template.decode(text, file: "t.json5", options: options)
  }

  static func error(_ text: String, layers: Int) -> TemplateError? {
    do {
      _ = try load(text, layers: layers)
      return nil
    } catch {
      return error as? TemplateError
    }
  }

  /// A component of three layers (a root and two sublayers) used `uses` times.
  static func components(_ uses: Int) -> String {
    let instances = (0..<uses).map { "{ id: \"i\($0)\", use: \"row\" }" }.joined(separator: ",\n    ")
    return """
      { flick: 1, canvas: { width: 64, height: 64, duration: 1 },
        components: { row: { layer: { size: [10, 10], sublayers: [ { id: "x" }, { id: "y", mask: { id: "m" } } ] } } },
        layers: [
          \(instances)
        ] }
      """
  }

  @Test func theExpandedLayersAreCountedAsTheyAreMade() throws {
    // Each instance is four layers: its root, x, y and y's mask.
    let fits = try Self.load(Self.components(3), layers: 12)
    expectEqual(fits.componentInstances.count, 3)
    let e = try #require(Self.error(Self.components(3), layers: 11))
    // Refused at the eleventh-plus-one layer, inside the third instance's definition: counted
    // while expanding, not after.
    expectEqual(e.file, "t.json5")
    expectEqual(e.path, #"layers[2] (use "row") → components.row.layer.sublayers[1].mask"#)
    expectGreater(e.line, 1)
    #expect(
      e.message.hasPrefix(
        "the template has more than 11 layers (counting sublayers, masks and every layer of every component instance)"
      ), "\(e.message)")
  }

  @Test func plainLayersCountToo() throws {
    let layers = (0..<5).map { "{ id: \"l\($0)\" }" }.joined(separator: ", ")
    let text = "{ flick: 1, canvas: { width: 64, height: 64, duration: 1 }, layers: [\(layers)] }"
    expectEqual(try Self.load(text, layers: 5).scene.layers.count, 5)
    let e = try #require(Self.error(text, layers: 4))
    expectEqual(e.path, "layers[4]")
    expectEqual(e.line, 1)
  }

  @Test func theDefaultCapIsAHundredThousand() {
    expectEqual(TemplateLimits().maximumLayers, 100_000)
  }
}
