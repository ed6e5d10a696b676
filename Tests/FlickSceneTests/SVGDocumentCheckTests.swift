import FlickExpectations
import FlickScene
import Foundation
import Testing

/// ``SVGDocumentCheck``: an SVG picture that refers to anything outside itself, or expands into
/// unbounded work, is refused with its line and column before librsvg is given it.
@Suite struct SVGDocumentCheckTests {
  static func svg(_ body: String, prolog: String = "") -> Data {
    Data(
      (prolog + "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" "
        + "width=\"64\" height=\"64\">\n" + body + "\n</svg>").utf8)
  }

  static func problem(_ data: Data, maximumPixels: Int = 1 << 26) -> SVGDocumentCheck.Problem? {
    do {
      try SVGDocumentCheck.check(data, maximumPixels: maximumPixels)
      return nil
    } catch {
      return error
    }
  }

  /// A base64 PNG header claiming `w × h` pixels.
  static func pngHeader(_ w: UInt32, _ h: UInt32) -> String {
    func be(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 255), UInt8(v >> 8 & 255), UInt8(v & 255)] }
    let bytes: [UInt8] =
      [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + be(13) + Array("IHDR".utf8) + be(w) + be(h)
      + [8, 6, 0, 0, 0, 0, 0, 0, 0]
    return Data(bytes).base64EncodedString()
  }

  @Test func anOrdinaryPictureIsAccepted() {
    let body = """
      <defs><g id="dot"><circle cx="4" cy="4" r="3" fill="url(#grad)"/></g>
      <linearGradient id="grad"><stop offset="0" stop-color="#f00"/></linearGradient></defs>
      <use href="#dot" x="10"/><use xlink:href="#dot" x="20"/><a href="https://example.com"><rect width="5" height="5"/></a>
      <style><![CDATA[ rect { fill: url(#grad); } ]]></style>
      <image width="4" height="4" href="data:image/png;base64,\(Self.pngHeader(4, 4))"/>
      <path d="M0 0 L 10 10 Z" style="stroke: #000; marker-end: url(#dot)"/>
      """
    #expect(Self.problem(Self.svg(body)) == nil)
  }

  @Test(arguments: [
    #"<image href="../outside/victim.png" width="9" height="9"/>"#,
    #"<image xlink:href="/tmp/victim.png"/>"#,
    #"<image href="file:///tmp/victim.png"/>"#,
    #"<image href="&#x66;ile:///tmp/victim.png"/>"#,
    #"<use href="other.svg#a"/>"#,
    #"<feImage href="victim.png"/>"#,
    #"<rect fill="url(other.svg#p)" width="4" height="4"/>"#,
    #"<rect style="fill: url('file:///tmp/v.png')" width="4" height="4"/>"#,
    #"<rect style="fill: \75rl(x.png)" width="4" height="4"/>"#,
    #"<style>@import url("x.css");</style>"#,
    #"<style>r<!-- -->ect { fill: u<!-- x -->rl(x.svg#a) }</style>"#,
    #"<xi:include xmlns:xi="http://www.w3.org/2001/XInclude" href="/etc/passwd" parse="text"/>"#,
    #"<image href="data:image/svg+xml;base64,PHN2Zy8+"/>"#,
  ])
  func aReferenceToAnythingButItselfIsRefusedWhereItIs(body: String) throws {
    let problem = try #require(Self.problem(Self.svg(body)))
    expectEqual(problem.line, 2, "\(problem)")
    expectGreaterOrEqual(problem.column, 1)
  }

  @Test func stylesheetsAndEntityDeclarationsAreRefused() {
    let pi = Self.problem(Self.svg("<rect/>", prolog: "<?xml-stylesheet href=\"x.css\"?>"))
    expectEqual(pi?.message.contains("xml-stylesheet"), true)
    let entity = Self.problem(
      Self.svg("<text>&x;</text>", prolog: "<!DOCTYPE svg [<!ENTITY x SYSTEM \"/etc/passwd\">]>"))
    expectEqual(entity?.message.contains("DOCTYPE"), true)
  }

  @Test func anEmbeddedImageOverThePixelCapIsRefused() {
    let body = "<image href=\"data:image/png;base64,\(Self.pngHeader(20000, 20000))\"/>"
    let problem = Self.problem(Self.svg(body), maximumPixels: 1_000_000)
    expectEqual(
      problem?.message.contains("20000×20000 pixels, more than the cap of 1000000"), true,
      "\(String(describing: problem))")
  }

  @Test func useReferencesAreCountedAndCyclesRefused() {
    var body = "<g id=\"m0\"><rect width=\"1\" height=\"1\"/></g>"
    for k in 1...5 { body += "<g id=\"m\(k)\">" + String(repeating: "<use href=\"#m\(k - 1)\"/>", count: 10) + "</g>" }
    let many = Self.problem(Self.svg(body))
    expectEqual(many?.message.contains("more than 10000 elements"), true, "\(String(describing: many))")
    let cycle = Self.problem(Self.svg("<g id=\"a\"><use href=\"#b\"/></g><g id=\"b\"><use href=\"#a\"/></g>"))
    expectEqual(cycle?.message.contains("uses itself"), true, "\(String(describing: cycle))")
    let selfUse = Self.problem(Self.svg("<use id=\"u\" href=\"#u\"/>"))
    expectEqual(selfUse?.message.contains("uses itself"), true)
  }

  @Test func sizeElementsAndPathDataAreCapped() {
    let big = Data(repeating: 0x20, count: SVGDocumentCheck.maximumFileSize + 1)
    expectEqual(Self.problem(big)?.message.contains("larger than 4 MiB"), true)
    let elements = Self.problem(Self.svg(String(repeating: "<rect/>", count: 10_001)))
    expectEqual(elements?.message.contains("more than 10000 elements"), true)
    let points = (0..<300_000).map { " L\($0 % 64) \($0 % 32)" }.joined()
    let path = Self.problem(Self.svg("<path d=\"M0 0\(points)\"/>"))
    expectEqual(
      path?.message.contains("more than \(SVGDocumentCheck.maximumPathNumbers) numbers"), true,
      "\(String(describing: path))")
    // A marker multiplies by the vertices it is drawn at.
    let markers =
      "<marker id=\"m\"><path d=\"" + (0..<200).map { "M\($0) 0 L1 1 " }.joined() + "\"/></marker>"
      + "<path marker-mid=\"url(#m)\" d=\"M0 0" + (0..<2000).map { " L\($0) 1" }.joined() + "\"/>"
    #expect(Self.problem(Self.svg(markers)) != nil)
    let deep = String(repeating: "<g>", count: 70) + String(repeating: "</g>", count: 70)
    expectEqual(Self.problem(Self.svg(deep))?.message.contains("nested deeper than 64"), true)
  }
}

/// Filter primitives whose work librsvg does not bound, or that crash it: refused where they are,
/// with the ordinary sizes accepted.
@Suite struct SVGFilterLimitTests {
  static func filter(_ primitive: String) -> Data {
    SVGDocumentCheckTests.svg(
      "<filter id=\"f\">\(primitive)</filter>\n<rect width=\"64\" height=\"64\" filter=\"url(#f)\"/>")
  }

  static func kernel(_ count: Int) -> String { Array(repeating: "1", count: count).joined(separator: " ") }

  @Test(arguments: [
    "<feConvolveMatrix order=\"3\" kernelMatrix=\"\(kernel(9))\"/>",
    "<feConvolveMatrix order=\"16 16\" kernelMatrix=\"\(kernel(256))\"/>",
    "<feConvolveMatrix order=\"5,3\" kernelMatrix=\"\(kernel(15))\"/>",
    "<feTurbulence baseFrequency=\"0.05\" numOctaves=\"4\"/>",
    "<feTurbulence baseFrequency=\"0.05\" numOctaves=\" 10 \"/>",
    "<feMorphology operator=\"dilate\" radius=\"10\"/>",
    "<feMorphology radius=\"2 0.5\"/>",
    "<feDiffuseLighting kernelUnitLength=\"1\"><feDistantLight/></feDiffuseLighting>",
    "<feSpecularLighting kernelUnitLength=\"2 3\"><fePointLight/></feSpecularLighting>",
  ])
  func ordinaryPrimitivesAreAccepted(primitive: String) {
    #expect(SVGDocumentCheckTests.problem(Self.filter(primitive)) == nil)
  }

  @Test(arguments: [
    // librsvg aborts the process on more than 400 kernel numbers, whatever the order says.
    ("<feConvolveMatrix order=\"21\" kernelMatrix=\"\(kernel(441))\"/>", "expected one or two numbers from 1 to 16"),
    ("<feConvolveMatrix order=\"3\" kernelMatrix=\"\(kernel(441))\"/>", "441 numbers, more than the 256"),
    ("<feConvolveMatrix order=\"17 2\" kernelMatrix=\"\(kernel(34))\"/>", "expected one or two numbers from 1 to 16"),
    ("<feConvolveMatrix order=\"1e9\" kernelMatrix=\"1\"/>", "expected one or two numbers from 1 to 16"),
    ("<feConvolveMatrix order=\"3 3 3\" kernelMatrix=\"\(kernel(9))\"/>", "expected one or two numbers"),
    ("<feTurbulence baseFrequency=\"0.1\" numOctaves=\"1000000000\"/>", "expected a number from 0 to 10"),
    ("<feTurbulence numOctaves=\"11\"/>", "expected a number from 0 to 10"),
    ("<feTurbulence numOctaves=\"4px\"/>", "expected a number from 0 to 10"),
    // librsvg's time grows with the radius: 30 on twenty 400-point squares took 30 s.
    (
      "<feMorphology operator=\"dilate\" radius=\"30\"/>",
      "<feMorphology radius=\"30\">: expected one or two numbers from 0 to 10"
    ),
    ("<feMorphology radius=\"1 30\"/>", "expected one or two numbers from 0 to 10"),
    ("<feMorphology radius=\"-1\"/>", "expected one or two numbers from 0 to 10"),
    // Below 1 the light is drawn on a copy scaled up by its inverse: 0.05 took 540 MB.
    ("<feDiffuseLighting kernelUnitLength=\"0.05\"><feDistantLight/></feDiffuseLighting>", "of 1 or more"),
    ("<feSpecularLighting kernelUnitLength=\"1 0.001\"><fePointLight/></feSpecularLighting>", "of 1 or more"),
  ])
  func unboundedPrimitivesAreRefusedWhereTheyAre(primitive: String, message: String) throws {
    let problem = try #require(SVGDocumentCheckTests.problem(Self.filter(primitive)))
    #expect(problem.message.contains(message), "\(problem.message)")
    expectEqual(problem.line, 2)
    #expect(problem.column > 20, "the attribute's column, not the element's: \(problem.column)")
  }

  /// In a filter whose primitive units are the element's bounding box a radius is a fraction of
  /// the element (0.2 of a 400-point square is 80 points: 33 s for five), so only 0 is accepted.
  @Test func boundingBoxRadiiAreRefused() throws {
    let svg = SVGDocumentCheckTests.svg(
      "<filter id=\"f\" primitiveUnits=\"objectBoundingBox\"><feMorphology radius=\"0.2\"/></filter>"
        + "<rect width=\"64\" height=\"64\" filter=\"url(#f)\"/>")
    let problem = try #require(SVGDocumentCheckTests.problem(svg))
    #expect(problem.message.contains("from 0 to 0 in a filter with primitiveUnits"), "\(problem.message)")
    let lighting = SVGDocumentCheckTests.svg(
      "<filter id=\"f\" primitiveUnits=\"objectBoundingBox\"><feDiffuseLighting kernelUnitLength=\"2\">"
        + "<feDistantLight/></feDiffuseLighting></filter><rect width=\"64\" height=\"64\" filter=\"url(#f)\"/>")
    #expect(SVGDocumentCheckTests.problem(lighting)?.message.contains("not accepted in a filter") == true)
    let none = SVGDocumentCheckTests.svg(
      "<filter id=\"f\" primitiveUnits=\"objectBoundingBox\"><feMorphology radius=\"0\"/></filter>")
    #expect(SVGDocumentCheckTests.problem(none) == nil)
  }
}
