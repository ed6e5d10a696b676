import FlickExpectations
import FlickMotion
import FlickScene
import FlickTemplates
import Testing

/// Arithmetic on number parameters: `"$(…)"` as a whole value, `"${…}"` inside text.
@Suite struct ExpressionTests {
  static func template(
    _ layer: String,
    parameters: String =
      "w: { type: 'number', default: 200 }, h: { type: 'number', default: 100 }, count: { type: 'integer', default: 4 }, title: { type: 'string', default: 'Hi' }"
  ) throws -> Template {
    try Template.decode(
      """
      { flick: 1, parameters: { \(parameters) },
        canvas: { width: 400, height: 300, duration: 1 },
        layers: [ \(layer) ] }
      """, file: "e.json5")
  }

  static func message(_ layer: String) -> String {
    do {
      _ = try template(layer)
      return ""
    } catch {
      return "\(error)"
    }
  }

  @Test func wholeValuesComputeNumbers() throws {
    let t = try Self.template(
      "{ id: 'a', size: ['$(w / 2)', '$(h - 10)'], position: ['$(w + w * 0.5)', '$( -(h + 20) / 4 )'], cornerRadius: '$(min(w, h) % 30)', opacity: '$(clamp(count / 10, 0, 1))' }"
    )
    let a = try #require(t.scene.layers.first)
    expectEqual(a.bounds.size, Size(width: 100, height: 90))
    expectEqual(a.position, Point(x: 300, y: -30))
    expectEqual(a.cornerRadius, 10)
    expectEqual(a.opacity, 0.4)
  }

  @Test func functionsAndPrecedence() throws {
    let cases: [(String, Double)] = [
      ("2 + 3 * 4", 14), ("(2 + 3) * 4", 20), ("-2 * -3", 6), ("10 - 4 - 3", 3), ("12 / 3 / 2", 2), ("7 % 4", 3),
      ("max(1, w, 3)", 200), ("min(w, h)", 100), ("abs(-h)", 100), ("round(2.5)", 3), ("floor(-1.5)", -2),
      ("ceil(1.2)", 2),
      ("sqrt(16)", 4), ("$w / $h", 2), ("1.5e2", 150), ("round(pi * 100)", 314),
    ]
    for (text, expected) in cases {
      let t = try Self.template("{ id: 'a', size: [10, 10], position: ['$(\(text))', 0] }")
      expectEqual(t.scene.layers.first?.position.x, expected, "\(text)")
    }
  }

  @Test func textInterpolationComputesToo() throws {
    let t = try Self.template("{ id: 't', type: 'text', size: [200, 40], string: '${count * 2} of ${w} for ${title}' }")
    guard case .text(let text)? = t.scene.layers.first?.content else {
      Issue.record("not a text layer")
      return
    }
    expectEqual(text.string, "8 of 200 for Hi")
  }

  @Test func mistakesAreErrorsAtTheReference() {
    #expect(
      Self.message("{ id: 'a', position: ['$(cont / 2)', 0] }").contains(
        "unknown parameter 'cont'; did you mean 'count'?"))
    #expect(
      Self.message("{ id: 'a', position: ['$(wdth / 2)', 0] }").contains(
        "unknown parameter 'wdth' (parameters: count, h, title, w)"))
    #expect(
      Self.message("{ id: 'a', position: ['$(title * 2)', 0] }").contains(
        "parameter 'title' is a string; arithmetic needs number parameters"))
    #expect(Self.message("{ id: 'a', position: ['$(w / (h - 100))', 0] }").contains("division by zero"))
    #expect(Self.message("{ id: 'a', position: ['$(w +)', 0] }").contains("the expression ends too early"))
    #expect(Self.message("{ id: 'a', position: ['$(w h)', 0] }").contains("unexpected 'h'"))
    #expect(
      Self.message("{ id: 'a', position: ['$(mx(w, 1))', 0] }").contains("unknown function 'mx'; did you mean 'max'?"))
    #expect(Self.message("{ id: 'a', position: ['$(sqrt(-1))', 0] }").contains("sqrt of a negative number"))
    #expect(Self.message("{ id: 'a', position: ['$()', 0] }").contains("ends too early"))
    // The error names the file, line, column and JSON path.
    #expect(Self.message("{ id: 'a', position: ['$(w / 0)', 0] }").hasPrefix("e.json5:3:"))
    #expect(Self.message("{ id: 'a', position: ['$(w / 0)', 0] }").contains("layers[0].position[0]: in \"$(w / 0)\""))
    // A computed number where text is expected is a type error naming the expression.
    #expect(Self.message("{ id: 't', type: 'text', string: '$(w)' }").contains("expression $(w)"))
    // $$ still escapes: the text "$(w)".
    expectEqual(Self.message("{ id: 't', type: 'text', string: '$$(w)' }"), "")
  }
}
