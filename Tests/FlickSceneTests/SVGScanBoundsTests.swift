import FlickExpectations
import FlickScene
import Foundation
import Testing

/// ``SVGDocumentCheck`` reads a picture in one pass whose work is linear in its size: the counts
/// a picture may hold without limit in the format (attributes on one element, numbers in a
/// filter's list, numbers in one path) are capped, and refused where they are, with the
/// attribute's line and column, before the rest of the file is read.
@Suite struct SVGScanBoundsTests {
  static func problem(_ body: String) -> SVGDocumentCheck.Problem? {
    SVGDocumentCheckTests.problem(SVGDocumentCheckTests.svg(body))
  }

  static func numbers(_ count: Int, separator: String = " ") -> String {
    (0..<count).map { "\(Double($0 % 10) / 10)" }.joined(separator: separator)
  }

  /// The 1-based column of the first `needle` on line 2 of the picture made from `body`.
  static func column(of needle: String, in body: String) throws -> Int {
    let line = try #require(body.components(separatedBy: "\n").first)
    let range = try #require(line.range(of: needle))
    return line.utf8.distance(from: line.startIndex, to: range.lowerBound) + 1
  }

  @Test func anElementOfMoreAttributesThanTheCapIsRefusedAtTheFirstOneOver() throws {
    let cap = SVGDocumentCheck.maximumAttributes
    let accepted = "<rect " + (0..<cap).map { "a\($0)=\"1\"" }.joined(separator: " ") + "/>"
    #expect(Self.problem(accepted) == nil)
    let body = "<rect " + (0..<(cap + 500)).map { "a\($0)=\"1\"" }.joined(separator: " ") + "/>"
    let problem = try #require(Self.problem(body))
    expectEqual(problem.message, "<rect> has more than 1000 attributes")
    expectEqual(problem.line, 2)
    let column = try Self.column(of: "a\(cap)=", in: body)
    expectEqual(problem.column, column)
  }

  @Test func aDuplicateAttributeAmongManyIsStillRefused() throws {
    let body = "<rect " + (0..<500).map { "a\($0)=\"1\"" }.joined(separator: " ") + " a3=\"2\"/>"
    let problem = try #require(Self.problem(body))
    #expect(problem.message.contains("the attribute a3 is given twice"), "\(problem.message)")
  }

  @Test(arguments: [
    ("feFuncR", "tableValues", SVGDocumentCheck.maximumTableValues),
    ("feFuncA", "tableValues", SVGDocumentCheck.maximumTableValues),
    ("feColorMatrix", "values", 20),
    ("feGaussianBlur", "stdDeviation", 2),
    ("feDropShadow", "stdDeviation", 2),
    ("feTurbulence", "baseFrequency", 2),
  ])
  func aFilterListOverItsCapIsRefusedAtItsAttribute(element: String, attribute: String, cap: Int) throws {
    func body(_ count: Int) -> String {
      let primitive =
        element.hasPrefix("feFunc")
        ? "<feComponentTransfer><\(element) type=\"table\" \(attribute)=\"\(Self.numbers(count))\"/></feComponentTransfer>"
        : "<\(element) \(attribute)=\"\(Self.numbers(count, separator: ","))\"/>"
      return "<filter id=\"f\">\(primitive)</filter><rect width=\"9\" height=\"9\" filter=\"url(#f)\"/>"
    }
    #expect(Self.problem(body(cap)) == nil, "\(cap) numbers are accepted")
    let over = body(cap * 400 + 1)
    let problem = try #require(Self.problem(over))
    expectEqual(
      problem.message.hasPrefix("<\(element) \(attribute)>: \(cap * 400 + 1) numbers, more than the \(cap) "),
      true, "\(problem.message)")
    expectEqual(problem.line, 2)
    let column = try Self.column(of: "\(attribute)=", in: over)
    expectEqual(problem.column, column)
  }

  @Test func aTableOfAnOrdinarySizeIsAccepted() {
    let body =
      "<filter id=\"f\"><feComponentTransfer><feFuncR type=\"table\" tableValues=\"0 0.5 1\"/>"
      + "<feFuncG type=\"discrete\" tableValues=\"\(Self.numbers(256))\"/></feComponentTransfer>"
      + "<feColorMatrix type=\"saturate\" values=\"0.5\"/><feGaussianBlur stdDeviation=\"2 3\"/></filter>"
    #expect(Self.problem(body) == nil)
  }

  /// A path over the cap is refused at its `d` while it is read: the file's later syntax error
  /// is never reached.
  @Test func aPathOverTheCapIsRefusedBeforeTheRestOfTheFileIsRead() throws {
    let points = (0..<(SVGDocumentCheck.maximumPathNumbers * 20)).map { " L\($0 % 64) \($0 % 32)" }.joined()
    let body = "<path d=\"M0 0\(points)\"/><g><rect></g>"
    let problem = try #require(Self.problem(body))
    expectEqual(problem.message, "<path d>: more than 10000 numbers (about 5000 points)")
    let column = try Self.column(of: "d=", in: body)
    expectEqual(problem.column, column)
    let polyline = "<polyline points=\"\(Self.numbers(SVGDocumentCheck.maximumPathNumbers + 1))\"/><g>"
    expectEqual(Self.problem(polyline)?.message, "<polyline points>: more than 10000 numbers (about 5000 points)")
  }

  /// The CSS of a `style` attribute or sheet is read once for its references: markers still
  /// count once per vertex, and a `url()` anywhere in a `style` attribute must be `#id`.
  @Test func cssReferencesAreReadInOnePass() throws {
    let marker = "<marker id=\"m\"><path d=\"" + (0..<200).map { "M\($0) 0 L1 1 " }.joined() + "\"/></marker>"
    let path = "d=\"M0 0" + (0..<2000).map { " L\($0) 1" }.joined() + "\""
    for body in [
      marker + "<path style=\"fill: red; marker-mid : url( '#m' )\" \(path)/>",
      marker + "<style>path { stroke: red } path { marker-mid: url(#m) }</style><path \(path)/>",
    ] {
      let problem = try #require(Self.problem(body))
      #expect(problem.message.contains("more than 10000 numbers"), "\(problem.message)")
    }
    let many = String(repeating: "fill: url(#g); stroke:blue;", count: 4_000)
    #expect(Self.problem("<linearGradient id=\"g\"/><rect style=\"\(many)\" width=\"1\" height=\"1\"/>") == nil)
    let foreign = try #require(Self.problem("<rect style=\"url(x.png): red\" width=\"1\"/>"))
    #expect(foreign.message.hasPrefix("url(x.png): an SVG picture may only refer"), "\(foreign.message)")
    #expect(Self.problem("<rect style=\"fill: url(#g\" width=\"1\"/>")?.message == "a CSS url( is not closed")
    #expect(Self.problem("<rect aria-label=\"@import\" width=\"1\"/>") == nil)
    #expect(Self.problem("<rect fill=\"@import url(#g)\"/>")?.message == "a CSS @import (another file) is not read")
  }

  /// A template checks its pictures when it loads and the renderer checks the bytes again: the
  /// second check of the same bytes under the same or a larger pixel cap is not a second scan.
  @Test func acceptedBytesAreRememberedUnderTheirPixelCap() {
    let data = SVGDocumentCheckTests.svg("<rect id=\"r\(UUID().uuidString)\" width=\"1\" height=\"1\"/>")
    #expect(!SVGDocumentCheck.wasAccepted(data, maximumPixels: 1_000))
    #expect(SVGDocumentCheckTests.problem(data, maximumPixels: 1_000) == nil)
    #expect(SVGDocumentCheck.wasAccepted(data, maximumPixels: 1_000))
    #expect(SVGDocumentCheck.wasAccepted(data, maximumPixels: 2_000))
    #expect(!SVGDocumentCheck.wasAccepted(data, maximumPixels: 999))
    var changed = data
    changed[changed.count - 2] = 0x20
    #expect(!SVGDocumentCheck.wasAccepted(changed, maximumPixels: 1_000))
    let refused = SVGDocumentCheckTests.svg("<image href=\"x.png\"/><!-- \(UUID().uuidString) -->")
    #expect(SVGDocumentCheckTests.problem(refused) != nil)
    #expect(!SVGDocumentCheck.wasAccepted(refused, maximumPixels: 1 << 26))
  }

  /// Text is laid out by Pango inside librsvg, in time and memory that grow with it (4 million
  /// characters took 14 s and 1.5 GB): the characters inside `<text>` are capped, counted where
  /// they are and again wherever a reference draws them; other character data is not text drawn.
  @Test func textOverTheCapIsRefusedWhereItPassesItOrWhereAReferenceMultipliesIt() throws {
    let cap = SVGDocumentCheck.maximumTextCharacters
    let letters = { (count: Int) in String(repeating: "é", count: count) }
    #expect(Self.problem("<text x=\"1\" y=\"9\">\(letters(cap))</text>") == nil, "\(cap) characters are accepted")
    let over = "<text x=\"1\" y=\"9\"><tspan>\(letters(cap / 2))</tspan><tspan>\(letters(cap / 2 + 1))</tspan></text>"
    let problem = try #require(Self.problem(over))
    expectEqual(problem.message, "more than 100000 characters of text")
    expectEqual(problem.line, 2)
    let used =
      "<defs><text id=\"t\">\(letters(cap / 5))</text></defs>"
      + (0..<5).map { _ in "<use href=\"#t\"/>" }.joined()
    let multiplied = try #require(Self.problem(used))
    #expect(
      multiplied.message.contains("makes the picture's text more than 100000 characters"), "\(multiplied.message)")
    #expect(Self.problem("<desc>\(letters(cap * 2))</desc><title>\(letters(10))</title>") == nil, "not drawn text")
  }
}
