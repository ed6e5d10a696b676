import FlickMotion
import FlickScene
@testable import FlickTemplates
import FlickExpectations
import Foundation
import Testing

/// Templates written by an attacker: each case once crashed, probed the file system or printed
/// raw terminal controls. Each must now be a located error (exit 2 on the command line).
@Suite struct HostileInputTests {
  static let canvas = "canvas: { width: 100, height: 100, duration: 1 }"

  /// The error decoding `text` gives, or nil when it loads.
  static func error(_ text: String, baseFolder: String? = nil) -> TemplateError? {
    do {
      _ = try Template.decode(text, file: "t.json5", baseFolder: baseFolder)
      return nil
    } catch {
      return error
    }
  }

  // MARK: - Recursion depth

  @Test func deepExpressionParenthesesAreALocatedError() throws {
    for depth in [65, 10_000, 200_000] {
      let text =
        "{ flick: 1, parameters: { w: { type: 'number', default: 1 } }, \(Self.canvas), "
        + "layers: [{ id: 'a', opacity: \"$(\(String(repeating: "(", count: depth))w\(String(repeating: ")", count: depth)))\" }] }"
      let e = try #require(Self.error(text))
      expectEqual(e.path, "layers[0].opacity", "\(e)")
      expectEqual(e.line, 1)
      expectGreater(e.column, 0)
      #expect(e.message.contains("deeper than 64") || e.message.contains("longer than 4096"), "\(e.message)")
    }
  }

  @Test func deepUnaryChainsAreALocatedError() throws {
    let text =
      "{ flick: 1, parameters: { w: { type: 'number', default: 1 } }, \(Self.canvas), "
      + "layers: [{ id: 'a', opacity: \"$(\(String(repeating: "-", count: 3000))w)\" }] }"
    let e = try #require(Self.error(text))
    #expect(e.message.contains("nests deeper than 64 levels"), "\(e.message)")
  }

  @Test func expressionsWithinTheDepthLimitStillEvaluate() throws {
    let nested = String(repeating: "(", count: 30) + "w" + String(repeating: ")", count: 30)
    let text =
      "{ flick: 1, parameters: { w: { type: 'number', default: 0.5 } }, \(Self.canvas), "
      + "layers: [{ id: 'a', opacity: \"$(\(nested) * --1)\" }] }"
    let t = try Template.decode(text, file: "t.json5")
    expectEqual(t.scene.layers[0].opacity, 0.5)
  }

  @Test func deepSpecsAreAnError() {
    let deep = String(repeating: "[", count: 5000) + String(repeating: "]", count: 5000)
    #expect(throws: MotionError.self) { _ = try SpecExpression.parse(deep) }
    let calls = String(repeating: "spring(", count: 5000)
    #expect(throws: MotionError.self) { _ = try SpecExpression.parse(calls) }
  }

  @Test func deepJSONIsAnError() throws {
    let text = String(repeating: "[", count: 100_000)
    let e = try #require(Self.error(text))
    #expect(e.message.contains("nesting deeper than"), "\(e.message)")
  }

  @Test func deepLayerTreesAreALocatedError() throws {
    var layer = "{ id: 'leaf' }"
    for i in 0..<Template.maximumLayerDepth + 1 { layer = "{ id: 'l\(i)', sublayers: [\(layer)] }" }
    let e = try #require(Self.error("{ flick: 1, \(Self.canvas), layers: [\(layer)] }"))
    #expect(e.message.contains("nested deeper than \(Template.maximumLayerDepth)"), "\(e.message)")
    #expect(e.path.hasPrefix("layers[0].sublayers[0]"))
    var mask = "{ id: 'leaf' }"
    for i in 0..<Template.maximumLayerDepth + 1 { mask = "{ id: 'm\(i)', mask: \(mask) }" }
    expectEqual(Self.error("{ flick: 1, \(Self.canvas), layers: [\(mask)] }")?.message.contains("nested deeper"), true)
  }

  // MARK: - Integer conversions

  @Test func hugeWholeNumbersAreRangeErrorsNotTraps() throws {
    for v in ["9223372036854775807", "9223372036854775808", "1e300", "-9223372036854775809", "18446744073709551616"] {
      let e = try #require(Self.error("{ flick: \(v), \(Self.canvas) }"), "\(v)")
      expectEqual(e.path, "flick", "\(v): \(e)")
      let w = try #require(Self.error("{ flick: 1, canvas: { width: \(v), height: 10, duration: 1 } }"))
      expectEqual(w.path, "canvas.width", "\(w)")
      #expect(w.message.contains("whole number"), "\(w)")
    }
  }

  @Test func arcsWithExtremeAnglesOrTinyRadiiDecodeAndBuildPaths() throws {
    let shapes = [
      "{ arc: { center: [50, 50], radius: 10, startAngle: -1e308, endAngle: 1e308 } }",
      "{ arc: { center: [50, 50], radius: 10, startAngle: 1e308, endAngle: -1e308, clockwise: false } }",
      "{ arc: { center: [50, 50], radius: 1e-320, startAngle: 0, endAngle: 1e300 } }",
      "'M 0 0 A 1e-300 1e-300 0 1 1 50 50'",
      "'M 0 0 A 1e-300 10 45 0 1 50 50 a 1e300 1e-300 0 1 0 -3 7'",
      "'M 0 0 A 1e308 1e308 1e308 1 1 1e308 -1e308'",
    ]
    for shape in shapes {
      let text = "{ flick: 1, \(Self.canvas), layers: [{ id: 's', path: \(shape), fillColor: '#000' }] }"
      do {
        let t = try Template.decode(text, file: "t.json5")
        guard case .shape(let s) = t.scene.layers[0].content else {
          Issue.record("not a shape")
          continue
        }
        expectLess(s.path.elements.count, 20, "\(shape): \(s.path.elements.count) elements")
      } catch {
        expectGreater(error.line, 0, "\(shape): \(error)")
      }
    }
  }

  @Test func addArcBoundsItsSegmentsWhateverTheAngles() {
    for (a0, a1) in [(-1e308, 1e308), (1e308, -1e308), (0, .infinity), (.nan, 1), (0, 1e-300), (1e300, 1e300 + 1e290)] {
      for clockwise in [true, false] {
        var p = ShapePath()
        p.addArc(center: Point(x: 0, y: 0), radius: 5, startAngle: a0, endAngle: a1, clockwise: clockwise)
        expectLessOrEqual(p.elements.count, 5, "\(a0) \(a1) \(clockwise)")
      }
    }
  }

  /// The text cap counts Unicode scalars: a letter with 10,001 combining marks is one Character,
  /// and shaping 100,000 of them took minutes. The same in a timeline's `string` writes.
  @Test func combiningMarksCountTowardsTheTextCap() throws {
    let marks = "a" + String(repeating: "\u{301}", count: 10_001)
    let layer = Self.error("{ flick: 1, \(Self.canvas), layers: [{ id: 't', string: '\(marks)' }] }")
    #expect(layer?.message.contains("the text is 10002 characters") == true, "\(String(describing: layer))")
    let written = Self.error(
      "{ flick: 1, \(Self.canvas), layers: [{ id: 't', string: 'x' }], "
        + "timeline: [{ target: 't', at: 0, set: { string: '\(marks)' } }] }")
    #expect(written?.message.contains("the text is 10002 characters") == true, "\(String(describing: written))")
    #expect(Self.error("{ flick: 1, \(Self.canvas), layers: [{ id: 't', string: 'e\u{301}' }] }") == nil)
  }

  // MARK: - Paths read from the template

  @Test func outsideTheFolderGivesTheSameErrorWhetherOrNotTheFileExists() throws {
    let root = try FixturePaths.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    let folder = root.appendingPathComponent("template")
    let outside = root.appendingPathComponent("outside")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
    try Data([1, 2, 3]).write(to: outside.appendingPathComponent("secret.png"))
    try FileManager.default.createSymbolicLink(
      atPath: folder.appendingPathComponent("link").path, withDestinationPath: outside.path)
    try FileManager.default.createSymbolicLink(
      atPath: folder.appendingPathComponent("dangling.png").path,
      withDestinationPath: outside.appendingPathComponent("none.png").path)
    func message(_ path: String, key: String = "contents") -> String {
      let e = Self.error(
        "{ flick: 1, \(Self.canvas), layers: [{ id: 'a', \(key): \"\(path)\" }] }", baseFolder: folder.path)
      // The message names the resolved path; replace it to compare the rest.
      return (e?.message ?? "loaded").replacingOccurrences(of: TemplateContext.resolve(outside.path).path, with: "OUT")
        .replacingOccurrences(of: "secret.png", with: "X").replacingOccurrences(of: "none.png", with: "X")
    }
    let pairs = [
      ("../outside/secret.png", "../outside/none.png"),
      (outside.path + "/secret.png", outside.path + "/none.png"),
      ("link/secret.png", "link/none.png"),
      ("link/../outside/secret.png", "link/../outside/none.png"),
      // "/" and a combining mark after it are one Character: `..` hidden from a Character split.
      ("../\u{301}x/secret.png", "../\u{301}x/none.png"),
    ]
    let hidden = root.appendingPathComponent("\u{301}x")
    try FileManager.default.createDirectory(at: hidden, withIntermediateDirectories: true)
    try Data([1, 2, 3]).write(to: hidden.appendingPathComponent("secret.png"))
    for (existing, missing) in pairs {
      let a = message(existing), b = message(missing)
      #expect(a.contains("outside the template's folder"), "\(existing): \(a)")
      expectEqual(a, b, "\(existing) vs \(missing): \(a) | \(b)")
    }
    #expect(message("dangling.png").contains("outside the template's folder"))
    // Fonts go through the same resolution.
    let font = Self.error("{ flick: 1, fonts: ['link/x.ttf'], \(Self.canvas) }", baseFolder: folder.path)
    expectEqual(font?.message.contains("outside the template's folder"), true, "\(String(describing: font))")
  }

  /// "café" and "cafe\u{301}" are equal Swift Strings and two folders to the file system: a
  /// sibling folder spelt the other way is outside.
  @Test func aCanonicallyEquivalentSiblingIsOutside() throws {
    let root = try FixturePaths.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    let folder = root.appendingPathComponent("caf\u{E9}")
    let sibling = root.appendingPathComponent("cafe\u{301}")
    for f in [folder, sibling] { try FileManager.default.createDirectory(at: f, withIntermediateDirectories: true) }
    try Data([1, 2, 3]).write(to: sibling.appendingPathComponent("secret.png"))
    let e = Self.error(
      "{ flick: 1, \(Self.canvas), layers: [{ id: 'a', contents: '../cafe\u{301}/secret.png' }] }",
      baseFolder: folder.path)
    #expect(e?.message.contains("outside the template's folder") == true, "\(String(describing: e))")
  }

  @Test func resolveFollowsLinksThroughMissingComponents() throws {
    let root = try FixturePaths.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    let real = TemplateContext.resolve(root.path)
    #expect(real.exists)
    try FileManager.default.createSymbolicLink(
      atPath: root.appendingPathComponent("up").path, withDestinationPath: "..")
    let r = TemplateContext.resolve(root.path + "/up/a/b/../c")
    #expect(!r.exists)
    expectEqual(r.path, URL(fileURLWithPath: real.path).deletingLastPathComponent().path + "/a/c")
    try FileManager.default.createSymbolicLink(
      atPath: root.appendingPathComponent("loop").path, withDestinationPath: "loop")
    #expect(!TemplateContext.resolve(root.path + "/loop/x").exists)
  }

  // MARK: - Echoed text

  @Test func templateTextInMessagesCannotSplitOrColourTheLine() throws {
    let hostile = "x\\n::error file=a.swift::forged\\u001B[31m\\r\\u202Eevil\\u0085"
    for text in [
      "{ flick: 1, \(Self.canvas), \"\(hostile)\": 1 }",
      "{ flick: 1, \(Self.canvas), layers: [{ id: 'a', opacity: \"\(hostile)\" }] }",
      "{ flick: 1, \(Self.canvas), layers: [{ id: 'a', style: \"\(hostile)\" }] }",
      "{ flick: 1, \(Self.canvas), layers: [{ id: 'a', contents: \"\(hostile).png\" }] }",
      "{ flick: 1, \(Self.canvas), layers: [{ id: 'a', contentsGravity: \"\(hostile)\" }] }",
    ] {
      let d = try #require(Self.error(text)).description
      #expect(
        !d.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || $0 == "\u{202E}" }, "\(d)")
      #expect(d.contains("\\n::error"), "\(d)")
    }
    expectEqual(TemplateText.escaped("héllo ✓ 日本 👩‍💻"), "héllo ✓ 日本 👩‍💻")
    expectEqual(TemplateText.escaped("a\u{1B}[2Jb"), "a\\u{1B}[2Jb")
    expectEqual(TemplateText.escaped(TemplateText.escaped("a\nb")), "a\\nb")
  }

  // MARK: - Super-linear cost

  @Test func manyStyleKeysMergeLastOneWinning() throws {
    let keys = (0..<20_000).map { "k\($0): 1" }.joined(separator: ", ")
    let members = (0..<20_000).map {
      JSON5Value.Member(key: "k\($0 % 7)", value: JSON5Value(.number(Double($0))), line: 1, column: 1)
    }
    let merged = Template.lastOfEachKey(members)
    expectEqual(
      merged.map(\.key),
      (0..<7).map { "k\((20_000 - 7 + $0) % 7)" }.sorted { a, b in
        merged.firstIndex { $0.key == a }! < merged.firstIndex { $0.key == b }!
      })
    expectEqual(merged.count, 7)
    #expect(merged.allSatisfy { if case .number(let v) = $0.value.kind { return v >= 19_993 } else { return false } })
    // 20,000 keys in one style: an unknown-key error, found without a quadratic merge.
    let text = "{ flick: 1, \(Self.canvas), styles: { s: { \(keys) } }, layers: [{ id: 'a', style: 's' }] }"
    expectEqual(Self.error(text)?.message.contains("unknown key"), true)
  }

  @Test func suggestionsAreBoundedForHugeCandidateListsAndWords() {
    let ids = (0..<30_000).map { "layer-\($0)-" + String(repeating: "x", count: 200) }
    #expect(Suggestion.closest(to: String(repeating: "y", count: 30_000), in: ids) == nil)
    expectEqual(Suggestion.closest(to: "layr-7", in: ids + ["layer-7"]), "layer-7")
    expectLess(TemplateText.list((0..<30_000).map(String.init)).count, 200)
  }
}
