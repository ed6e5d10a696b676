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
    #expect(t.name == "hello")
    #expect(t.scene.size == Size(width: 640, height: 360))
    #expect(t.scene.fps == 30)
    #expect(t.scene.duration == 3)
    #expect(t.scene.frameCount == 90)
    #expect(t.scene.backgroundColor == Color(hex: "#0F172A"))
    let card = try #require(t.scene.renderTree(at: 0).layer(id: "card"))
    #expect(card.cornerRadius == 28)
    #expect(card.bounds.size == Size(width: 120, height: 120))
    #expect(card.position == Point(x: 160, y: 180))
  }

  @Test func omittedFromStartsAtTheValueWhenTheAnimationBegins() throws {
    let t = try Template.load(path: Self.templates.appendingPathComponent("hello.json5").path)
    // The card rests until 0.25 s, reaches 480 at 1.45 s, holds, then returns to 160 by 2.8 s.
    #expect(t.scene.renderTree(at: 0.2).layer(id: "card")?.position.x == 160)
    #expect(t.scene.renderTree(at: 0.85).layer(id: "card")?.position.x == 320)
    #expect(t.scene.renderTree(at: 1.6).layer(id: "card")?.position.x == 480)
    #expect(t.scene.renderTree(at: 2.9).layer(id: "card")?.position.x == 160)
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
    #expect(members.map(\.key) == ["unquoted", "q", "nested"])
    #expect(v["unquoted"]?.kind == .string("single"))
    guard case .array(let items)? = v["q"]?.kind else {
      Issue.record("q is not an array")
      return
    }
    let numbers = items.map { item -> Double in
      if case .number(let d) = item.kind { return d }
      return .nan
    }
    #expect(numbers == [1, 2, 0.5, 5, 31, -.infinity])
    #expect(v["nested"]?["b"]?.kind == .bool(true))
    #expect(v["q"]?.line == 2)
  }

  @Test func duplicateKeysAreRejected() {
    #expect(throws: JSON5SyntaxError(message: "duplicate key 'a'", line: 1, column: 9)) {
      _ = try JSON5Parser.parse("{ a: 1, a: 2 }")
    }
  }
}
