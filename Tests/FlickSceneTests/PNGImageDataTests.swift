import FlickExpectations
import FlickScene
import FlickTestSupport
import Foundation
import Testing

/// The check every PNG passes before a decoder sees it: image data no larger than the header's
/// image can need (a 1 × 1 header over 1 GiB of compressed zeros cost seconds of CPU in every
/// reader, and gigabytes of memory in rlottie's), in one run of `IDAT` chunks.
@Suite struct PNGImageDataTests {
  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  @Test func aTinyHeaderOverMuchImageDataIsRefused() {
    let bomb = TinyPNG.bomb(inflatedBytes: 48 << 20)
    #expect(bomb.count > 200_000 && bomb.count < 400_000)
    do {
      try PNGImageData.check(bomb)
      Issue.record("a 1×1 PNG with \(bomb.count) bytes of image data passed")
    } catch {
      #expect(error.reason.contains("compressed image data"), "\(error.reason)")
      #expect(error.reason.contains("larger than the 1×1 image its header describes can need"), "\(error.reason)")
    }
  }

  /// Under a 1000 × 1000 header (4 MB of rows, so 5 MB of compressed data may pass), 150 KB of
  /// compressed zeros inflate to 24 MiB: refused by counting the inflated bytes, which stops just
  /// past the rows. The same stream inflating to exactly the rows passes.
  @Test func aLargeHeaderOverAStreamInflatingPastItsRowsIsRefused() throws {
    let raw = 1000 * (1 + 4000)
    let bomb = TinyPNG.bomb(width: 1000, height: 1000, inflatedBytes: 24 << 20)
    #expect(bomb.count < 200_000)
    try PNGImageData.check(bomb)  // within the compressed bound
    do {
      try PNGImageData.check(bomb, inflating: true)
      Issue.record("a stream inflating to 24 MiB passed under a 1000×1000 header")
    } catch {
      #expect(
        error.reason.contains("inflates to more than the \(raw) bytes of rows the 1000×1000 image"), "\(error.reason)")
    }
    let uri = "data:image/png;base64," + TinyPNG.base64(bomb)
    #expect(throws: ImageHeader.Problem.self) { _ = try ImageHeader.embedded(uri, maximumPixels: 1 << 20) }
    try PNGImageData.check(TinyPNG.bomb(width: 1000, height: 1000, inflatedBytes: raw), inflating: true)
  }

  @Test func theFileCheckReadsOnlyChunkHeadersAndAgrees() throws {
    let folder = try ProcessRunner.temporaryDirectory(prefix: "flick-png-data")
    defer { try? FileManager.default.removeItem(at: folder) }
    let bomb = folder.appendingPathComponent("bomb.png").path
    try Data(TinyPNG.bomb(inflatedBytes: 48 << 20)).write(to: URL(fileURLWithPath: bomb))
    #expect(throws: PNGImageData.Problem.self) { try PNGImageData.check(path: bomb) }
    do {
      _ = try ImageHeader.read(path: bomb)
      Issue.record("ImageHeader.read accepted the bomb")
    } catch {
      #expect(error.reason.contains("compressed image data"), "\(error.reason)")
    }
    let fine = folder.appendingPathComponent("fine.png").path
    try Data(Self.loose(interlaced: true)).write(to: URL(fileURLWithPath: fine))
    try PNGImageData.check(path: fine)
    let header = try ImageHeader.read(path: fine)
    expectEqual([header.width, header.height], [61, 37])
  }

  static func loose(interlaced: Bool) -> [UInt8] {
    TinyPNG.loose(width: 61, height: 37, interlaced: interlaced) { x, y in
      (UInt8(x * 4 & 0xFF), UInt8(y * 7 & 0xFF), UInt8((x ^ y) & 0xFF), 255)
    }
  }

  /// zlib level 0 in small stored blocks, a flush after every row, Adam7 or not: larger than
  /// its rows, and still a legitimate PNG that passes.
  @Test(arguments: [false, true]) func aLevelZeroPNGPasses(interlaced: Bool) throws {
    let png = Self.loose(interlaced: interlaced)
    let raw = 37 * (1 + 61 * 4)
    #expect(png.count > raw)
    try PNGImageData.check(png)
    // The embedded path agrees (a Lottie or SVG data: URI).
    let uri = "data:image/png;base64," + TinyPNG.base64(png)
    let header = try ImageHeader.embedded(uri, maximumPixels: 1 << 20).header
    expectEqual([header.width, header.height], [61, 37])
  }

  @Test func imageDataAfterAnotherChunkIsRefused() {
    let png = TinyPNG.withStrayImageData(TinyPNG.solid(width: 2, height: 2, rgb: (1, 2, 3)))
    do {
      try PNGImageData.check(png)
      Issue.record("IDAT after tEXt passed")
    } catch {
      #expect(error.reason.contains("continues after another chunk"), "\(error.reason)")
    }
  }

  @Test func anEmbeddedBombIsRefusedWithItsReason() {
    let uri = "data:image/png;base64," + TinyPNG.base64(TinyPNG.bomb(inflatedBytes: 48 << 20))
    do {
      _ = try ImageHeader.embedded(uri, maximumPixels: 1 << 20)
      Issue.record("the embedded bomb passed")
    } catch {
      #expect(error.reason.hasPrefix("the embedded PNG: the compressed image data"), "\(error.reason)")
    }
  }

  /// The rows, a quarter more, 32 bytes a row and 4 KiB; saturating for a header too large to count.
  @Test func theBoundIsTheRowsPlusAQuarterPlusSlack() {
    let raw = 37 * (1 + 61 * 4)
    expectEqual(
      PNGImageData.bound(width: 61, height: 37, bitDepth: 8, colorType: 6, interlaced: false),
      raw + raw / 4 + 32 * 38 + 4096)
    expectEqual(
      PNGImageData.bound(width: 1, height: 1, bitDepth: 8, colorType: 6, interlaced: false), 5 + 1 + 32 * 2 + 4096)
    expectEqual(
      PNGImageData.bound(width: 1 << 30, height: 1 << 30, bitDepth: 16, colorType: 6, interlaced: true), Int.max)
  }

  /// Every PNG in the repository (fixtures, goldens, bundled templates, docs) and every PNG
  /// embedded in its Lottie and SVG files passes: the encoders that wrote them (libpng, Flick's
  /// own, Cairo, PIL, browsers) stay far below the bound.
  @Test func everyPNGInTheRepositoryPasses() throws {
    var files = 0, embedded = 0
    for folder in ["Tests", "Templates", "Examples", "Benchmarks", "docs"] {
      let base = Self.root.appendingPathComponent(folder)
      guard let walk = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil) else { continue }
      for case let url as URL in walk {
        switch url.pathExtension.lowercased() {
        case "png":
          let bytes = try [UInt8](Data(contentsOf: url))
          guard bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) else { continue }
          do {
            try PNGImageData.check(bytes)
          } catch {
            Issue.record("\(url.path): \(error.reason)")
          }
          files += 1
        case "json", "json5", "svg", "lottie":
          let text = try String(decoding: Data(contentsOf: url), as: UTF8.self)
          for part in text.components(separatedBy: "data:image/png;base64,").dropFirst() {
            let payload = part.prefix { $0.isLetter || $0.isNumber || "+/=".contains($0) }
            guard let data = Data(base64Encoded: String(payload)) else { continue }
            do {
              try PNGImageData.check([UInt8](data), inflating: true)
            } catch {
              Issue.record("\(url.path): an embedded PNG: \(error.reason)")
            }
            embedded += 1
          }
        default: continue
        }
      }
    }
    #expect(files >= 80, "found \(files) PNG files")
    #expect(embedded >= 1, "found \(embedded) embedded PNGs")
  }
}
