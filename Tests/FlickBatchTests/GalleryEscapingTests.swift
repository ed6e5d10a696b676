import FlickExpectations
import Foundation
import Testing

/// The gallery (`flick status --html`) shows text and links that come from a manifest in a pull
/// request: no name, value or folder of it can add markup to the page or a link that runs script.
@Suite struct GalleryEscapingTests {
  typealias F = BatchFixtures

  /// U+0D4E joins the scalar after it into one `Character`: an escaping that went by `Character`
  /// let the `<` through.
  static let joined = "\u{D4E}<img src=x onerror=alert(1)>"

  @Test func namesAndFoldersFromTheManifestStayText() throws {
    let dir = try F.workspace()
    defer { try? FileManager.default.removeItem(at: dir) }
    let manifest = Self.joined + ".json5"
    let text = """
      { flick: 1, output: "javascript:alert(1)", renders: [ { template: "slide.json5", name: "clip",
        variants: [ { distance: 10 } ], frames: [0, 1], formats: ["png"] } ] }
      """
    try text.write(to: dir.appendingPathComponent(manifest), atomically: true, encoding: .utf8)
    let planned = try F.flick(["plan", manifest, "-o", "plan.json"], in: dir)
    expectEqual(planned.status, 0, "\(planned.stderr)")
    let page = dir.appendingPathComponent("index.html")
    let status = try F.flick(["status", "plan.json", "--html", page.path], in: dir, environment: F.cleanEnvironment)
    #expect(status.status != 0, "nothing has run yet")
    let html = try String(contentsOf: page, encoding: .utf8)
    #expect(html.contains("\u{D4E}&lt;img src=x onerror=alert(1)&gt;"), "\(html)")
    #expect(!html.contains("<img src=x"))
    // The output folder's `javascript:` is encoded: the link stays a relative path.
    #expect(!html.contains("href=\"javascript:"), "\(html)")
    #expect(html.contains("javascript%3Aalert(1)/"), "\(html)")
  }
}
