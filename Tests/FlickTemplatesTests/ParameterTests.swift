import FlickMotion
import FlickScene
@testable import FlickTemplates
import FlickExpectations
import Foundation
import Testing

@Suite struct ParameterTests {
  static let card = FixturePaths.fixtures.appendingPathComponent("params/card.json5").path

  static func load(_ sets: [String] = [], params: String? = nil, options: TemplateOptions = TemplateOptions())
    throws -> Template
  {
    var values = ParameterValues()
    if let params {
      try values.load(text: params, file: FixturePaths.fixtures.appendingPathComponent("params/p.json5").path)
    }
    for s in sets { try values.set(s) }
    return try Template.load(path: card, parameters: values, options: options)
  }

  static func message(_ body: () throws -> Void) -> String {
    do {
      try body()
      return ""
    } catch {
      return "\(error)"
    }
  }

  @Test func defaultsAreSubstitutedEverywhere() throws {
    let t = try Self.load()
    expectEqual(t.name, "card for World")
    expectEqual(t.scene.backgroundColor, Color(hex: "#F97316"))
    let card = try #require(t.scene.layers.first)
    expectEqual(card.backgroundColor, Color(hex: "#F97316"))
    expectEqual(card.cornerRadius, 12)
    expectEqual(
      t.parameters.map(\.name),
      [
        "accent", "who", "size", "count", "visible", "side", "names", "cover", "font", "radius",
      ])
    expectEqual(t.parameters[3].typeDescription, "integer 1…6")
    expectEqual(t.parameters[5].typeDescription, "enum (left|right)")
    expectEqual(t.parameters[6].typeDescription, "list of string, at most 4 items")
    // An image default resolves against the template's folder.
    guard case .string(let cover)? = t.parameterValues["cover"]?.kind else {
      Issue.record("cover is not a string")
      return
    }
    #expect(cover.hasSuffix("/Fixtures/params/assets/cover.png"))
    #expect(cover.hasPrefix("/"))
  }

  @Test func setValuesAreTypedByTheirDeclaration() throws {
    let t = try Self.load([
      "accent=#22C55E", "who=Ada Lovelace", "size=200.5", "count=6", "visible=false", "side=right",
      "names=x, y ,z", "radius=0",
    ])
    expectEqual(t.name, "card for Ada Lovelace")
    expectEqual(t.scene.layers.first?.backgroundColor, Color(hex: "#22C55E"))
    expectEqual(t.scene.layers.first?.cornerRadius, 0)
    expectEqual(t.parameterValues["size"]?.kind, .number(200.5))
    expectEqual(t.parameterValues["count"]?.kind, .number(6))
    expectEqual(t.parameterValues["visible"]?.kind, .bool(false))
    expectEqual(t.parameterValues["side"]?.kind, .string("right"))
    let names = t.parameterValues["names"].map { TemplateParameter.text(of: $0) }
    expectEqual(names, "x, y, z")
    let json = try Self.load(["names=[\"p\", 'q']"])
    expectEqual(json.parameterValues["names"].map { TemplateParameter.text(of: $0) }, "p, q")
  }

  @Test func laterValuesWinAndSetWinsOverParamsFiles() throws {
    let t = try Self.load(["who=B", "who=C"], params: "{ who: 'A', count: 2 }")
    expectEqual(t.name, "card for C")
    expectEqual(t.parameterValues["count"]?.kind, .number(2))
  }

  @Test(arguments: [
    ("acent=#000000", "--set acent=#000000: unknown parameter 'acent'; did you mean 'accent'?"),
    (
      "accent=red",
      "--set accent=red: parameter 'accent' (color): expected a colour like \"#FF5A5F\" or \"#FF5A5F80\", found \"red\""
    ),
    ("count=7", "--set count=7: parameter 'count' (integer 1…6): expected a number ≤ 6, found 7"),
    ("count=2.5", "--set count=2.5: parameter 'count' (integer 1…6): expected a whole number, found 2.5"),
    ("count=many", "--set count=many: parameter 'count' (integer 1…6): expected a number, found a string \"many\""),
    ("size=5", "--set size=5: parameter 'size' (number 10…400): expected a number ≥ 10, found 5"),
    ("visible=yes", "--set visible=yes: parameter 'visible' (boolean): expected true or false, found a string \"yes\""),
    ("side=middle", "--set side=middle: parameter 'side' (enum (left|right)): unknown value 'middle'"),
    (
      "names=a,b,c,d,e",
      "--set names=a,b,c,d,e: parameter 'names' (list of string, at most 4 items): expected at most 4 items, found 5"
    ),
    // A list that opens with '[' is JSON5 or an error, not comma-separated text with a '[a' item.
    ("names=[\"a\", \"b\"", "--set names=[\"a\", \"b\": parameter 'names': the list is not closed"),
    ("novalue", "--set novalue: expected NAME=VALUE"),
    ("=3", "--set =3: the parameter name before '=' is empty"),
  ])
  func badSetValuesNameTheParameterTypeAndValue(assignment: String, expected: String) {
    let message = Self.message { _ = try Self.load([assignment]) }
    #expect(message.hasPrefix(expected), "got: \(message)")
  }

  /// A whole number beyond 2⁵³ − 1 is not held exactly (99999999999999999999 reads as 1e20):
  /// refused for an integer parameter without a maximum, from --set and from a params file.
  @Test func integersThatAreNotExactAreRefused() {
    let text =
      "{ flick: 1, parameters: { n: { type: 'integer', default: 1 } }, canvas: { width: 9, height: 9, duration: 1 }, layers: [] }"
    var set = ParameterValues()
    set.set("n", text: "99999999999999999999")
    let fromSet = Self.message { _ = try Template.decode(text, file: "t.json5", parameters: set) }
    #expect(
      fromSet.hasPrefix(
        "--set n=99999999999999999999: parameter 'n' (integer): expected a whole number in "
          + "−9007199254740991…9007199254740991"), "got: \(fromSet)")
    var file = ParameterValues()
    let fromFile = Self.message {
      try file.load(text: "{ n: 9007199254740993 }", file: "p.json5")
      _ = try Template.decode(text, file: "t.json5", parameters: file)
    }
    #expect(
      fromFile.hasPrefix("p.json5:1:6: n: parameter 'n' (integer): expected a whole number in"), "got: \(fromFile)")
    var fine = ParameterValues()
    fine.set("n", text: "9007199254740991")
    #expect(throws: Never.self) { _ = try Template.decode(text, file: "t.json5", parameters: fine) }
  }

  @Test func paramsFileErrorsPointIntoTheFile() {
    let message = Self.message { _ = try Self.load(params: "{\n  count: 'three',\n}") }
    #expect(
      message.hasSuffix(
        "p.json5:2:10: count: parameter 'count' (integer 1…6): expected a number, found a string \"three\""),
      "got: \(message)")
    let unknown = Self.message { _ = try Self.load(params: "{ cont: 1 }") }
    #expect(unknown.contains("p.json5:1:3: cont: unknown parameter 'cont'; did you mean 'count'?"), "got: \(unknown)")
    let notObject = Self.message { _ = try Self.load(params: "[1]") }
    #expect(notObject.contains("p.json5:1:1: expected an object of parameter values"), "got: \(notObject)")
  }

  @Test func imageParametersFollowTheAssetPolicy() throws {
    // A --set path is relative to the current directory; outside the template's folder it is refused…
    let outside = FixturePaths.fixtures.appendingPathComponent("broken/syntax.json5").path
    let refused = Self.message { _ = try Self.load(["cover=\(outside)"]) }
    #expect(refused.contains("is outside the template's folder"), "got: \(refused)")
    #expect(refused.contains("--allow-outside-assets"))
    // …unless allowed.
    let t = try Self.load(["cover=\(outside)"], options: TemplateOptions(allowOutsideAssets: true))
    expectEqual(t.parameterValues["cover"]?.kind, .string(URL(fileURLWithPath: outside).resolvingSymlinksInPath().path))
    // A missing file is named.
    let none = FixturePaths.fixtures.appendingPathComponent("params/assets/none.png").path
    let missing = Self.message { _ = try Self.load(["cover=\(none)"]) }
    #expect(missing.contains("image \"\(none)\": no such file"), "got: \(missing)")
    // In a params file, a relative path is relative to that file.
    let fromFile = try Self.load(params: "{ cover: 'assets/cover.png' }")
    expectEqual(fromFile.parameterValues["cover"], fromFile.parameterValues["cover"])
  }

  @Test func interpolationAndEscapes() throws {
    let t = try Template.decode(
      """
      { flick: 1, parameters: { n: { type: "integer", default: 3 }, w: { type: "string", default: "x" } },
        name: "${n} cards for ${w}, $$5 each, $w stays, $${w} too",
        canvas: { width: 10, height: 10, duration: 1 } }
      """)
    expectEqual(t.name, "3 cards for x, $5 each, $w stays, ${w} too")
  }

  @Test func requiredParameterWithoutDefault() {
    let text = "{ flick: 1, parameters: { title: { type: 'string' } }, canvas: { width: 10, height: 10, duration: 1 } }"
    let missing = Self.message { _ = try Template.decode(text, file: "t.json5") }
    expectEqual(
      missing,
      "t.json5: parameters.title: parameter 'title' has no default: give a value with --set title=VALUE or --params FILE"
    )
    var values = ParameterValues()
    values.set("title", text: "Hi")
    #expect(throws: Never.self) { _ = try Template.decode(text, parameters: values) }
  }

  @Test func referencesReplaceWholeValuesOfAnyType() throws {
    let t = try Template.decode(
      """
      { flick: 1, parameters: { at: { type: "list", items: "number", default: [30, 40], minItems: 2, maxItems: 2 } },
        canvas: { width: 100, height: 100, duration: 1 }, layers: [{ id: "a", position: "$at" }] }
      """)
    expectEqual(t.scene.layers.first?.position, Point(x: 30, y: 40))
  }

  /// A file that is not UTF-8 says where its first bad byte is (after a CR LF line end and a
  /// two-byte character), and a params file is not blamed for being unreadable.
  @Test func bytesThatAreNotUTF8AreLocated() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("flick-utf8-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let bytes = Array("{ flick: 1,\r\n  name: \"é".utf8) + [0xFF] + Array("\" }".utf8)
    let template = folder.appendingPathComponent("t.json5"), params = folder.appendingPathComponent("p.json5")
    try Data(bytes).write(to: template)
    try Data(bytes).write(to: params)
    let t = Self.message { _ = try Template.load(path: template.path, parameters: ParameterValues()) }
    #expect(t.hasPrefix(template.path + ":2:11: the file is not UTF-8 text"), "got: \(t)")
    var values = ParameterValues()
    let p = Self.message { try values.load(file: params.path) }
    #expect(p.hasPrefix(params.path + ":2:11: the params file is not UTF-8 text"), "got: \(p)")
  }
}
