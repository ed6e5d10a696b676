@testable import FlickRaster
import FlickExpectations
import FlickScene
import Foundation
import Testing

/// An image whose header promises more pixels than Flick decodes is refused from the header,
/// before any pixel is allocated; the header is read as the decoder reads it, so no file passes
/// for small and decodes large; and a JPEG cannot make its decode last by its number of scans.
@Suite struct ImageBombTests {
  static func png(width: UInt32, height: UInt32) -> [UInt8] {
    func be(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 255), UInt8(v >> 8 & 255), UInt8(v & 255)] }
    return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + be(13) + Array("IHDR".utf8) + be(width) + be(height)
      + [8, 6, 0, 0, 0, 0, 0, 0, 0]
  }

  /// A JPEG segment: marker, length, body.
  static func segment(_ marker: UInt8, _ body: [UInt8]) -> [UInt8] {
    [0xFF, marker, UInt8((body.count + 2) >> 8), UInt8((body.count + 2) & 255)] + body
  }

  /// A one-component JPEG's tables and frame header (baseline, or progressive with `scans` AC
  /// refinement scans after a first one), each table of one code: valid enough for libjpeg to
  /// read every scan, and a few hundred bytes however large the frame.
  static func jpeg(width: Int, height: Int, progressive: Bool = false, scans: Int = 1) -> [UInt8] {
    let size = [UInt8(height >> 8), UInt8(height & 255), UInt8(width >> 8), UInt8(width & 255)]
    let counts: [UInt8] = [1] + Array(repeating: 0, count: 15)
    var out: [UInt8] = [0xFF, 0xD8] + segment(0xDB, [0] + Array(repeating: 1, count: 64))
    out += segment(progressive ? 0xC2 : 0xC0, [8] + size + [1, 1, 0x11, 0])
    out += segment(0xC4, [0x00] + counts + [0]) + segment(0xC4, [0x10] + counts + [0xE0])
    if progressive {
      out += segment(0xDA, [1, 1, 0, 1, 63, 1])
      for _ in 0..<scans { out += segment(0xDA, [1, 1, 0, 1, 63, 0x10]) }
    } else {
      out += segment(0xDA, [1, 1, 0, 0, 63, 0])
    }
    return out + [0xFF, 0xD9]
  }

  static func decode(_ bytes: [UInt8], _ name: String) throws(RasterError) -> DecodedImage {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("bomb-\(UUID().uuidString)-\(name)").path
    defer { unlink(path) }
    guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
      throw .unreadableImage(path: path, reason: "the test cannot write it")
    }
    return try DecodedImage.decode(path: path)
  }

  @Test func headersAreReadForEveryFormat() throws {
    let png = try ImageHeader.parse(Self.png(width: 20000, height: 300))
    expectEqual([png.width, png.height], [20000, 300])
    let jpeg: [UInt8] =
      [0xFF, 0xD8, 0xFF, 0xE0, 0, 4, 0, 0, 0xFF, 0xC0, 0, 17, 8, 0x01, 0x2C, 0x4E, 0x20, 3]
      + Array(repeating: 0, count: 12)
    let header = try ImageHeader.parse(jpeg)
    expectEqual([header.width, header.height], [20000, 300])
    #expect(throws: ImageHeader.Problem.self) { try ImageHeader.parse([1, 2, 3]) }
  }

  @Test func aPNGBombIsRefusedFromItsHeader() throws {
    do {
      _ = try Self.decode(Self.png(width: 40000, height: 40000), "a.png")
      Issue.record("decoded a 40000×40000 header")
    } catch {
      #expect(error.description.contains("the header gives 40000×40000 pixels"), "\(error)")
    }
  }

  /// Bytes after a segment that are not a marker (no 0xFF before them) are garbage to libjpeg,
  /// which skips them to the next 0xFF: a "frame header" there is not the one it decodes.
  @Test func aJPEGFrameHeaderDisguisedAsGarbageIsNotTheSize() throws {
    let real = Self.jpeg(width: 30000, height: 30000)
    let fake: [UInt8] = [0xC0, 0x00, 0x11, 0x08, 0x00, 0x01, 0x00, 0x01, 0x03, 0x01, 0x11, 0x00, 0x02, 0x11]
    let disguised = Array(real.prefix(2)) + fake + real.dropFirst(2)
    // Fill bytes and a stuffed 0xFF 0x00 before a marker are skipped the same way.
    let stuffed = Array(real.prefix(2)) + [0xFF, 0x00, 0xFF, 0xFF] + real.dropFirst(2)
    for bytes in [disguised, stuffed] {
      let header = try ImageHeader.parse(bytes)
      expectEqual([header.width, header.height], [30000, 30000])
      do {
        _ = try Self.decode(bytes, "a.jpg")
        Issue.record("decoded a 30000×30000 frame")
      } catch {
        #expect(error.description.contains("the header gives 30000×30000 pixels"), "\(error)")
      }
    }
    // A small one still decodes, with its garbage skipped.
    let small = Self.jpeg(width: 16, height: 8)
    let image = try Self.decode(Array(small.prefix(2)) + fake + small.dropFirst(2), "small.jpg")
    expectEqual(image.width, 16)
    expectEqual(image.height, 8)
  }

  /// Each progressive scan is a pass over the whole image: past the limit the file is refused
  /// at the scan that passes it, not decoded to its end.
  @Test func aJPEGOfTooManyScansIsRefused() throws {
    let ordinary = try Self.decode(Self.jpeg(width: 64, height: 64, progressive: true, scans: 10), "ten.jpg")
    expectEqual(ordinary.width, 64)
    do {
      _ = try Self.decode(Self.jpeg(width: 2048, height: 2048, progressive: true, scans: 30_000), "many.jpg")
      Issue.record("decoded a JPEG of 30,000 scans")
    } catch {
      #expect(error.description.contains("more than 100 progressive scans"), "\(error)")
    }
  }
}
