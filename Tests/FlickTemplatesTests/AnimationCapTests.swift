import FlickExpectations
import Testing

@testable import FlickTemplates

/// A template's timeline compiles to at most ``TemplateLimits/maximumAnimations`` animations,
/// however they arise: repeats were capped, but 10,000 component instances with 100 entries
/// each (a 40 KB file) were a million animations. The cap is lowered here so the tests stay quick.
@Suite struct AnimationCapTests {
  static func error(_ text: String, animations: Int) -> TemplateError? {
    var options = TemplateOptions()
    options.limits.maximumAnimations = animations
    do {
      _ = try Template.decode(text, file: "t.json5", options: options)
      return nil
    } catch {
      return error as? TemplateError
    }
  }

  /// `uses` instances of a component whose timeline has two entries.
  static func components(_ uses: Int) -> String {
    let instances = (0..<uses).map { "{ id: \"i\($0)\", use: \"dot\" }" }.joined(separator: ", ")
    return """
      { flick: 1, canvas: { width: 64, height: 64, duration: 1 },
        components: { dot: { layer: { size: [4, 4], sublayers: [ { id: "d", size: [2, 2] } ] },
          timeline: [ { target: "d", animate: { opacity: 0 }, duration: 0.1 },
                      { target: "d", animate: { opacity: 1 }, duration: 0.1, at: 0.2 } ] } },
        layers: [ \(instances) ] }
      """
  }

  @Test func componentInstancesPastTheCapAreRefusedAtTheEntry() {
    expectEqual(Self.error(Self.components(25), animations: 50).map(\.description), nil)
    let error = Self.error(Self.components(26), animations: 50)
    expectEqual(
      error?.description.contains("the timeline compiles to more than 50 animations"), true,
      "\(String(describing: error))")
    expectEqual(error?.description.contains("t.json5:"), true, "\(String(describing: error))")
  }

  @Test func plainEntriesCountToo() {
    let entries = (0..<6).map { "{ target: \"a\", animate: { opacity: 0.\($0) }, duration: 0.1, at: 0.\($0) }" }
    let text = """
      { flick: 1, canvas: { width: 64, height: 64, duration: 1 }, layers: [ { id: "a", size: [4, 4] } ],
        timeline: [ \(entries.joined(separator: ", ")) ] }
      """
    expectEqual(Self.error(text, animations: 6).map(\.description), nil)
    let error = Self.error(text, animations: 5)
    expectEqual(error?.description.contains("timeline[5]"), true, "\(String(describing: error))")
  }

  @Test func theDefaultCap() {
    expectEqual(TemplateLimits().maximumAnimations, 200_000)
  }
}
