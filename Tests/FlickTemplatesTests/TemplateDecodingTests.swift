import FlickExpectations
import FlickMotion
import FlickScene
import FlickTemplates
import Foundation
import Testing

@Suite struct TemplateDecodingTests {
  static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Fixtures")
  static let templates = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Templates")

  @Test func decodesHello() throws {
    let t = try Template.load(path: Self.templates.appendingPathComponent("hello.json5").path)
    expectEqual(t.name, "hello")
    expectEqual(t.scene.size, Size(width: 640, height: 360))
    expectEqual(t.scene.fps, 30)
    expectEqual(t.scene.duration, 3)
    expectEqual(t.scene.frameCount, 90)
    expectEqual(t.scene.backgroundColor, Color(hex: "#0F172A"))
    let card = try #require(t.scene.renderTree(at: 0).layer(id: "card"))
    expectEqual(card.cornerRadius, 28)
    expectEqual(card.bounds.size, Size(width: 120, height: 120))
    expectEqual(card.position, Point(x: 160, y: 180))
  }

  @Test func omittedFromStartsAtTheValueWhenTheAnimationBegins() throws {
    let t = try Template.load(path: Self.templates.appendingPathComponent("hello.json5").path)
    // The card rests until 0.25 s, reaches 480 at 1.45 s, holds, then returns to 160 by 2.8 s.
    expectEqual(t.scene.renderTree(at: 0.2).layer(id: "card")?.position.x, 160)
    expectEqual(t.scene.renderTree(at: 0.85).layer(id: "card")?.position.x, 320)
    expectEqual(t.scene.renderTree(at: 1.6).layer(id: "card")?.position.x, 480)
    expectEqual(t.scene.renderTree(at: 2.9).layer(id: "card")?.position.x, 160)
  }

  @Test func missingFileIsAClearError() {
    #expect(throws: TemplateError(file: "/nonexistent.json5", path: "", message: "no such file")) {
      _ = try Template.load(path: "/nonexistent.json5")
    }
  }

  @Test func json5Syntax() throws {
    let v = try JSON5Parser.parse(
      """
      // comment
      { unquoted: 'single', "q": [1, +2, .5, 5., 0x1F, -Infinity,], /* block */ nested: { a: null, b: true }, }
      """)
    guard case .object(let members) = v.kind else {
      Issue.record("not an object")
      return
    }
    expectEqual(members.map(\.key), ["unquoted", "q", "nested"])
    expectEqual(v["unquoted"]?.kind, .string("single"))
    guard case .array(let items)? = v["q"]?.kind else {
      Issue.record("q is not an array")
      return
    }
    let numbers = items.map { item -> Double in
      if case .number(let d) = item.kind { return d }
      return .nan
    }
    expectEqual(numbers, [1, 2, 0.5, 5, 31, -.infinity])
    expectEqual(v["nested"]?["b"]?.kind, .bool(true))
    expectEqual(v["q"]?.line, 2)
  }

  @Test func duplicateKeysAreRejected() {
    #expect(throws: JSON5SyntaxError(message: "a: duplicate key 'a'", line: 1, column: 9)) {
      _ = try JSON5Parser.parse("{ a: 1, a: 2 }")
    }
    // The message names the member's JSON path; the plain message (for files not to be shown) does not.
    #expect(throws: JSON5SyntaxError(message: "b[1].c: duplicate key 'c'", line: 1, column: 19)) {
      _ = try JSON5Parser.parse("{ b: [{}, { c: 1, c: 2 }] }")
    }
  }
}
