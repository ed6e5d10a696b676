import FlickMotion
import FlickRaster
import FlickScene
@testable import FlickTemplates
import FlickExpectations
import FlickTestSupport
import Foundation
import Testing

/// The `svg` shape source (`path: { svg: "glyph.svg" }`) and `contentsTint` in templates. The
/// fixtures in `Fixtures/svg-shape` are made by hand for Flick (same licence as the repository).
@Suite struct SVGShapeSourceTests {
  static let folder = FixturePaths.fixtures.appendingPathComponent("svg-shape")

  static func template(_ layers: String, folder: URL = folder) throws(TemplateError) -> Template {
    try Template.decode(
      "{ flick: 1, canvas: { width: 48, height: 48, fps: 30, duration: 1, background: \"#00000000\" }, layers: [ \(layers) ] }",
      file: "t.json5", baseFolder: folder.path)
  }

  static func outline(_ t: Template) -> ShapePath? {
    if case .shape(let s) = t.scene.layers.first?.content { return s.path }
    return nil
  }

  @Test(arguments: [1.0, 2.0, 3.0])
  func theOutlineFilledIsLibrsvgsRenderingOfTheSameFile(scale: Double) throws {
    // The glyph's every element is filled #2563EB: the shape layer filling the outline with that
    // colour draws what librsvg draws for the file as `contents`, at every device scale.
    let shape = try Self.template(
      ##"{ id: "s", size: [48, 48], position: [24, 24], path: { svg: "glyph.svg" }, fillColor: "#2563EB" }"##)
    let picture = try Self.template(#"{ id: "p", size: [48, 48], position: [24, 24], contents: "glyph.svg" }"#)
    let a = try Renderer(scale: scale).render(shape.scene.renderTree(at: 0)).packedPixels
    let b = try Renderer(scale: scale).render(picture.scene.renderTree(at: 0)).packedPixels
    expectEqual(a.count, b.count)
    expectEqual(a.count, Int(48 * scale) * Int(48 * scale) * 4)
    var worst = 0
    var differing = 0
    var ink = 0
    for p in stride(from: 0, to: min(a.count, b.count), by: 4) {
      let d: Int = (0..<4).map { (c: Int) -> Int in abs(Int(a[p + c]) - Int(b[p + c])) }.max() ?? 0
      worst = max(worst, d)
      if d > 0 { differing += 1 }
      if b[p + 3] > 0 { ink += 1 }
    }
    expectGreater(ink, Int(300 * scale * scale))  // something is drawn
    // Arcs and circles become Béziers in two different ways (librsvg's and ShapePath's): a
    // few edge pixels differ by a few levels, nothing more.
    expectLessOrEqual(worst, 24, "scale \(scale): worst channel difference \(worst)")
    expectLess(differing * 20, ink, "scale \(scale): \(differing) pixels differ, \(ink) pixels inked")
  }

  @Test func itTakesGeometryUnderTransformsAndSkipsWhatDrawsNothing() throws {
    let t = try Self.template(#"{ id: "s", path: { svg: "glyph.svg" } }"#)
    let path = try #require(Self.outline(t))
    let bounds = path.controlPointBounds
    // In document units (viewBox 24 → 48): the full-size `fill="none"` square, the hidden group
    // and the clip path's rectangle are skipped; the first path starts at (1+1, 1+1) × 2.
    expectLess(abs(bounds.minX - 4), 1e-9, "\(bounds)")
    expectLess(abs(bounds.minY - 4), 1e-9, "\(bounds)")
    expectLessOrEqual(bounds.maxX, 48, "\(bounds)")
    expectLessOrEqual(bounds.maxY, 48, "\(bounds)")
    expectGreater(bounds.maxX, 46, "\(bounds)")
    expectEqual(path.elements.first, .move(to: Point(x: 4, y: 4)))
    // `frame` stretches the document's box into a rectangle.
    let framed = try Self.template(#"{ id: "s", path: { svg: "glyph.svg", frame: [10, 20, 24, 96] } }"#)
    let f = try #require(Self.outline(framed))
    expectEqual(f.elements.first, .move(to: Point(x: 10 + 4 * 0.5, y: 20 + 4 * 2)))
  }

  @Test func aShadowPathCanComeFromAnSVGToo() throws {
    let t = try Self.template(#"{ id: "l", size: [48, 48], shadowPath: { svg: "glyph.svg" }, shadowOpacity: 1 }"#)
    expectEqual(t.scene.layers.first?.shadowPath?.isEmpty, false)
  }

  @Test(arguments: [
    ("text.svg", "<text> is not taken by the svg shape source"),
    ("entities.svg", "a DOCTYPE with declarations (entities) is not read"),
    ("unclosed.svg", "</svg> closes nothing open (<g> is)"),
    ("deep.svg", "nested deeper than 64 levels"),
    ("missing.svg", "no such file"),
    ("../layers/checker.png", "expected a .svg file"),
  ])
  func whatItCannotTakeIsAnErrorNamingTheFile(file: String, message: String) throws {
    #expect {
      _ = try Self.template(#"{ id: "s", path: { svg: "\#(file)" } }"#)
    } throws: { error in
      let text = String(describing: error)
      return text.contains("layers[0].path.svg") && text.contains(message) && text.contains(file)
    }
  }

  @Test func theFileIsConfinedToTheTemplatesFolderAndBounded() throws {
    let dir = try FixturePaths.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: dir) }
    let inside = dir.appendingPathComponent("t")
    try FileManager.default.createDirectory(at: inside, withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      at: Self.folder.appendingPathComponent("glyph.svg"), to: dir.appendingPathComponent("glyph.svg"))
    #expect {
      _ = try Self.template(#"{ id: "s", path: { svg: "../glyph.svg" } }"#, folder: inside)
    } throws: { String(describing: $0).contains("outside the template's folder") }
    // A file larger than the bound is refused before it is parsed.
    let big =
      "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 1 1\">"
      + String(repeating: "<!-- padding -->", count: 70_000) + "</svg>"
    try Data(big.utf8).write(to: inside.appendingPathComponent("big.svg"))
    #expect {
      _ = try Self.template(#"{ id: "s", path: { svg: "big.svg" } }"#, folder: inside)
    } throws: { String(describing: $0).contains("larger than 1024 KiB") }
    // Too many elements.
    let many =
      "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 1 1\">" + String(repeating: "<g/>", count: 10_001)
      + "</svg>"
    #expect(throws: SVGShapeSource.Failure.self) { _ = try SVGShapeSource(data: Data(many.utf8)) }
  }

  @Test func theScannerReadsTransformsAndRejectsNonsense() throws {
    let svg = """
      <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">
        <path d="M1 0 L2 0" transform="matrix(1 0 0 1 3 4) scale(2) rotate(90)"/>
      </svg>
      """
    let source = try SVGShapeSource(data: Data(svg.utf8))
    let first = try #require(source.path.elements.first)
    guard case .move(let p) = first else { Issue.record("expected a move"); return }
    // rotate(90): (1, 0) → (0, 1); scale(2) → (0, 2); translate(3, 4) → (3, 6).
    expectLess(abs(p.x - 3), 1e-9, "\(p)")
    expectLess(abs(p.y - 6), 1e-9, "\(p)")
    for bad in [
      #"<svg viewBox="0 0 1 1"><path d="M0 0 L1 1" transform="perspective(2)"/></svg>"#,
      #"<svg viewBox="0 0 1 1"><rect width="50%" height="1"/></svg>"#,
      #"<svg viewBox="0 0 1 1"><path d="M0 0 X"/></svg>"#,
      #"<svg viewBox="0 0 1 1"><path d="&bogus;"/></svg>"#,
      #"<html/>"#,
    ] {
      #expect(throws: SVGShapeSource.Failure.self, "\(bad)") { _ = try SVGShapeSource(data: Data(bad.utf8)) }
    }
  }

  /// The file is read once through the bounded reader: a FIFO named `x.svg` is refused as what
  /// it is, not waited on, and a sparse file far over the cap is refused from its size alone.
  @Test func aFIFOOrAHugeFileInPlaceOfTheSVGIsRefusedNotRead() throws {
    let inside = try FixturePaths.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: inside) }
    try FIFOGuard.make(inside.appendingPathComponent("pipe.svg").path)
    try FIFOGuard.sparseFile(inside.appendingPathComponent("huge.svg").path, bytes: 3 << 30)
    let run = FIFOGuard.ends(fifo: inside.appendingPathComponent("pipe.svg").path) {
      _ = try Self.template(#"{ id: "s", path: { svg: "pipe.svg" } }"#, folder: inside)
    }
    #expect(run.ended && run.threw, "the FIFO was refused, not waited on")
    #expect {
      _ = try Self.template(#"{ id: "s", path: { svg: "pipe.svg" } }"#, folder: inside)
    } throws: { String(describing: $0).hasSuffix("is not a regular file (a FIFO or a device), not an SVG file") }
    #expect {
      _ = try Self.template(#"{ id: "s", path: { svg: "huge.svg" } }"#, folder: inside)
    } throws: { String(describing: $0).contains("larger than 1024 KiB") }
  }

  @Test func contentsTintNeedsContentsAndTintsIt() throws {
    let t = try Self.template(##"{ id: "p", size: [48, 48], contents: "glyph.svg", contentsTint: "#FF000080" }"##)
    expectEqual(t.scene.layers.first?.contents?.tint, Color(hex: "#FF000080"))
    #expect {
      _ = try Self.template(##"{ id: "p", contentsTint: "#FF0000" }"##)
    } throws: { String(describing: $0).contains("'contentsTint' tints the 'contents' picture") }
  }
}
