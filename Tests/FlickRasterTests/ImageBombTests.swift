@testable import FlickRaster
import FlickExpectations
import Foundation
import Testing

/// An image whose header promises more pixels than Flick decodes is refused from the header,
/// before any pixel is allocated.
@Suite struct ImageBombTests {
  static func png(width: UInt32, height: UInt32) -> [UInt8] {
    func be(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 255), UInt8(v >> 8 & 255), UInt8(v & 255)] }
    return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + be(13) + Array("IHDR".utf8) + be(width) + be(height)
      + [8, 6, 0, 0, 0, 0, 0, 0, 0]
  }

  @Test func headersAreReadForEveryFormat() {
    #expect(DecodedImage.headerSize(Self.png(width: 20000, height: 300))! == (20000, 300))
    let jpeg: [UInt8] =
      [0xFF, 0xD8, 0xFF, 0xE0, 0, 4, 0, 0, 0xFF, 0xC0, 0, 17, 8, 0x01, 0x2C, 0x4E, 0x20, 3]
      + Array(repeating: 0, count: 12)
    #expect(DecodedImage.headerSize(jpeg)! == (20000, 300))
    #expect(DecodedImage.headerSize([1, 2, 3]) == nil)
  }

  @Test func aPNGBombIsRefusedFromItsHeader() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("bomb-\(UUID().uuidString).png").path
    defer { unlink(path) }
    try Data(Self.png(width: 40000, height: 40000)).write(to: URL(fileURLWithPath: path))
    do {
      _ = try DecodedImage.decode(path: path)
      Issue.record("decoded a 40000×40000 header")
    } catch {
      #expect(error.description.contains("the header gives 40000×40000 pixels"), "\(error)")
    }
  }
}
