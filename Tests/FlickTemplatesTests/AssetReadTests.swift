import FlickExpectations
import FlickScene
import FlickTestSupport
import Foundation
import Testing

@testable import FlickTemplates

/// How image files named by a template are read: the size is checked with `fstat` before a byte
/// is read.
@Suite struct AssetReadTests {
  static let canvas = "canvas: { width: 64, height: 64, duration: 1 }"

  /// A 16×16 PNG padded (sparse, no disk space used) to `bytes` bytes, in a fresh folder.
  static func paddedPNG(bytes: Int) throws -> URL {
    let folder = try FixturePaths.temporaryFolder()
    let file = folder.appendingPathComponent("big.png")
    try Data(TinyPNG.solid(width: 16, height: 16, rgb: (255, 0, 0))).write(to: file)
    try expectEqual(truncate(file.path, off_t(bytes)), 0)
    return folder
  }

  @Test func anImageFileOverTheCapIsRefusedWhereTheTemplateNamesIt() throws {
    let folder = try Self.paddedPNG(bytes: AssetFile.maximumImageBytes + 1)
    defer { try? FileManager.default.removeItem(at: folder) }
    let started = Date()
    let e = HostileInputTests.error(
      "{ flick: 1, \(Self.canvas), layers: [{ id: 'a', size: [16, 16], contents: 'big.png' }] }",
      baseFolder: folder.path)
    #expect(e?.message.contains("image \"big.png\"") == true, "\(String(describing: e))")
    #expect(e?.message.contains("more than the 256 MiB") == true, "\(String(describing: e))")
    #expect(Date().timeIntervalSince(started) < 5, "refused from fstat, not after reading")
  }

  @Test func anImageFileAtTheCapStillLoads() throws {
    let folder = try Self.paddedPNG(bytes: 4096)
    defer { try? FileManager.default.removeItem(at: folder) }
    let e = HostileInputTests.error(
      "{ flick: 1, \(Self.canvas), layers: [{ id: 'a', size: [16, 16], contents: 'big.png' }] }",
      baseFolder: folder.path)
    #expect(e == nil, "\(String(describing: e))")
  }
}
