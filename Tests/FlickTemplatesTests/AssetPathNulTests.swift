import FlickExpectations
import Foundation
import Testing

@testable import FlickTemplates

/// A path holding a NUL character is refused where the template writes it: checked in full, it
/// was opened only up to the NUL ("img.png\u{0}.svg" read img.png as the SVG).
@Suite struct AssetPathNulTests {
  @Test(arguments: [
    "layers: [{ id: 'a', size: [16, 16], contents: 'img.png\\u0000.svg' }]",
    "layers: [{ id: 'a', size: [16, 16], path: { svg: 'img.png\\u0000.svg' } }]",
    "fonts: ['img.png\\u0000.ttf']",
  ])
  func aPathWithANulCharacterIsRefused(_ rest: String) throws {
    let folder = try AssetReadTests.paddedPNG(bytes: 4096)
    defer { try? FileManager.default.removeItem(at: folder) }
    // img.png exists: the path was checked in full and read up to the NUL, so it was read as the SVG.
    try FileManager.default.copyItem(
      at: folder.appendingPathComponent("big.png"), to: folder.appendingPathComponent("img.png"))
    let e = HostileInputTests.error("{ flick: 1, \(AssetReadTests.canvas), \(rest) }", baseFolder: folder.path)
    #expect(e?.message.contains("NUL character") == true, "\(rest): \(String(describing: e))")
    #expect((e?.line ?? 0) > 0, "located: \(String(describing: e))")
  }
}
