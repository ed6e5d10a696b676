import FlickExpectations
import FlickRaster
import FlickTestSupport
import Foundation
import Testing

@testable import FlickSnapshot

/// Goldens, `diff`, `verify`, `accept` and batch chunks decode with ``PNGImage``: a PNG whose
/// image data is far larger than its header's image can need is refused before libpng inflates it
/// (libpng inflated all of it, rows or not: about 3 s of CPU per MB of compressed zeros), and a
/// zlib-level-0 PNG, interlaced or not, decodes to its pixels.
@Suite struct PNGImageDataBoundTests {
  @Test func aBombGoldenIsRefusedBeforeDecoding() throws {
    let dir = try VerifyCommandTests.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let bomb = dir + "/0s.png"
    try Data(TinyPNG.bomb(inflatedBytes: 48 << 20)).write(to: URL(fileURLWithPath: bomb))
    let message =
      thrownDescription { () throws(SnapshotError) in _ = try PNGImage(contentsOf: bomb) } ?? "(nothing thrown)"
    #expect(message.hasPrefix("cannot read image \(bomb): the compressed image data ("), "\(message)")
    #expect(message.contains("larger than the 1×1 image its header describes can need"), "\(message)")
    let renderer =
      thrownDescription { () throws(SnapshotError) in _ = try PNGImage.recordedRenderer(atPath: bomb) } ?? ""
    #expect(renderer.contains("larger than the 1×1 image"), "\(renderer)")
  }

  @Test(arguments: [false, true]) func aLevelZeroPNGDecodes(interlaced: Bool) throws {
    let png = TinyPNG.loose(width: 19, height: 11, interlaced: interlaced) { x, y in
      (UInt8(x * 13), UInt8(y * 23), UInt8(x + y), UInt8(128 + x))
    }
    let image = try PNGImage(bytes: png, limits: .standard)
    expectEqual(image.width, 19)
    expectEqual(image.words[3 * 19 + 5], UInt32(5 * 13) << 16 | UInt32(3 * 23) << 8 | 8 | UInt32(128 + 5) << 24)
  }
}
