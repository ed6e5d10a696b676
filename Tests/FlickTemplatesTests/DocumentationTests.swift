import FlickExpectations
import FlickTemplates
import Foundation
import Testing

/// Every JSON5 example in `docs/templates.md` decodes, so the documentation cannot drift from
/// the decoder. An example is a whole template, members of one (`parameters: …`), timeline
/// entries, or members of an entry (`animate: …`); each is tried in those places inside a small
/// harness template with the layers the examples name.
@Suite struct DocumentationTests {
  static let doc = FixturePaths.root.appendingPathComponent("docs/templates.md")

  static let examples: [String] = {
    guard let text = try? String(contentsOf: doc, encoding: .utf8) else { return [] }
    var blocks: [String] = []
    var current: [Substring]?
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.hasPrefix("```json5") {
        current = []
      } else if line.hasPrefix("```"), let block = current {
        blocks.append(block.joined(separator: "\n"))
        current = nil
      } else {
        current?.append(line)
      }
    }
    return blocks
  }()

  static let canvas = "canvas: { width: 640, height: 360, duration: 5 }"
  static let layers =
    "layers: ["
    + ["card", "c1", "c2", "c3", "badge", "a", "b", "dot", "done", "ball", "circle"]
    .map { "{ id: \"\($0)\", size: [40, 40] }" }.joined(separator: ", ") + "]"
  static let accent = "parameters: { accent: { type: \"color\", default: \"#F97316\" } }"

  @Test func thereAreExamples() {
    expectGreaterOrEqual(Self.examples.count, 9)
  }

  @Test(arguments: examples)
  func exampleDecodes(_ example: String) {
    let wrappings = [
      example,
      "{ flick: 1, \(Self.canvas),\n\(example)\n}",
      "{ flick: 1, \(Self.accent), \(Self.canvas),\n\(example)\n}",
      "{ flick: 1, \(Self.canvas), \(Self.layers), timeline: [\n\(example)\n] }",
      "{ flick: 1, \(Self.canvas), \(Self.layers), timeline: [{ target: \"ball\",\n\(example)\n}] }",
    ]
    var problems: [String] = []
    for text in wrappings {
      do {
        _ = try Template.decode(text, file: "example", baseFolder: FixturePaths.templates.path)
        return
      } catch {
        problems.append(error.description)
      }
    }
    Issue.record(
      "this example from docs/templates.md does not decode anywhere:\n\(example)\n\(problems.joined(separator: "\n"))")
  }
}
