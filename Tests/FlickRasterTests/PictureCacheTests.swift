import FlickExpectations
import FlickRaster
import FlickTemplates
import FlickTestSupport
import Foundation
import Testing

/// The process-wide picture caches decode a file again once it changed on disk: a long-lived
/// process (`flick studio`) draws an edited picture as it is now, not as it was first read.
@Suite struct PictureCacheTests {
  static func svg(_ colour: String) -> Data {
    Data(
      """
      <svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><rect width="8" height="8" fill="\(colour)"/></svg>
      """.utf8)
  }

  /// Writes `data` over `url` as editors save: a new file renamed over the old one.
  static func save(_ data: Data, to url: URL) throws {
    let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).tmp")
    try data.write(to: temporary)
    expectEqual(rename(temporary.path, url.path), 0)
  }

  @Test(arguments: ["pic.png", "icon.svg"])
  func anEditedPictureIsDrawnAsItIsNow(_ name: String) throws {
    let folder = try ProcessRunner.temporaryDirectory(prefix: "flick-picture-cache")
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent(name)
    let red = name.hasSuffix(".svg") ? Self.svg("#FF0000") : Data(TinyPNG.solid(width: 8, height: 8, rgb: (255, 0, 0)))
    let blue = name.hasSuffix(".svg") ? Self.svg("#0000FF") : Data(TinyPNG.solid(width: 8, height: 8, rgb: (0, 0, 255)))
    try red.write(to: file)
    let source = """
      { flick: 1, canvas: { width: 16, height: 16, fps: 1, duration: 1 },
        layers: [{ id: "p", size: [16, 16], position: [8, 8], contents: "\(name)" }] }
      """
    let path = folder.appendingPathComponent("t.json5")
    try Data(source.utf8).write(to: path)
    func centre() throws -> (UInt8, UInt8, UInt8) {
      let template = try Template.load(path: path.path)
      let frame = try Renderer().render(template.scene.renderTree(at: 0))
      let p = frame.rgba(x: 8, y: 8)
      return (p.r, p.g, p.b)
    }
    #expect(try centre() == (255, 0, 0))
    try Self.save(blue, to: file)
    #expect(try centre() == (0, 0, 255))
    // Written in place (same inode), with another size: still seen.
    let green =
      name.hasSuffix(".svg") ? Self.svg("#00FF00") : Data(TinyPNG.solid(width: 4, height: 4, rgb: (0, 255, 0)))
    try green.write(to: file)
    #expect(try centre() == (0, 255, 0))
  }
}
