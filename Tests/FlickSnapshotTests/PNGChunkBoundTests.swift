import FlickExpectations
import FlickRaster
import Foundation
import Testing

@testable import FlickSnapshot

/// A PNG padded with empty chunks is refused by their count before decoding (it cost seconds
/// and about eight times its size in memory).
@Suite struct PNGChunkBoundTests {
  typealias P = PNGDecodingTests
  typealias V = VerifyCommandTests

  /// A 1×1 PNG with `ancillary` empty private chunks and its image data in `idatChunks` chunks.
  static func padded(ancillary: Int, idatChunks: Int = 1) -> [UInt8] {
    let idat = P.zlibStored(P.rows([[10, 20, 30, 40]]))
    var out = PNGFile.signature
    var header: [UInt8] = []
    PNGFile.appendUInt32(1, to: &header)
    PNGFile.appendUInt32(1, to: &header)
    header += [8, 6, 0, 0, 0]
    PNGFile.appendChunk("IHDR", header, to: &out)
    var empty: [UInt8] = []
    PNGFile.appendChunk("prVt", [], to: &empty)
    for _ in 0..<ancillary { out += empty }
    // The data in the first chunk, then empty ones.
    PNGFile.appendChunk("IDAT", idat, to: &out)
    var emptyData: [UInt8] = []
    PNGFile.appendChunk("IDAT", [], to: &emptyData)
    for _ in 1..<max(1, idatChunks) { out += emptyData }
    PNGFile.appendChunk("IEND", [], to: &out)
    return out
  }

  @Test func chunksBeyondTheCapAreRefusedByCount() throws {
    let cap = PNGFile.maximumAncillaryChunks
    expectEqual(cap, 4096)
    let fits = try P.decode(Self.padded(ancillary: cap))
    expectEqual(P.rgba(fits, 0, 0), [10, 20, 30, 40])
    do throws(PNGFile.StructureError) {
      _ = try P.decode(Self.padded(ancillary: cap + 1))
      Issue.record("\(cap + 1) ancillary chunks decoded")
    } catch {
      #expect(error.message.contains("more than 4096 ancillary chunks"), "\(error.message)")
    }
    // Tiny IDAT chunks: up to the cap whatever their size, beyond it 1 KiB each on average.
    _ = try P.decode(Self.padded(ancillary: 0, idatChunks: PNGFile.maximumSmallImageDataChunks))
    do throws(PNGFile.StructureError) {
      _ = try P.decode(Self.padded(ancillary: 0, idatChunks: PNGFile.maximumSmallImageDataChunks + 1))
      Issue.record("\(PNGFile.maximumSmallImageDataChunks + 1) tiny IDAT chunks decoded")
    } catch {
      #expect(error.message.contains("IDAT chunks"), "\(error.message)")
    }
  }

  @Test func diffRefusesAPaddedFileNamingIt() throws {
    let dir = try V.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try Data(Self.padded(ancillary: 0)).write(to: URL(fileURLWithPath: dir + "/small.png"))
    try Data(Self.padded(ancillary: 100_000)).write(to: URL(fileURLWithPath: dir + "/many.png"))
    let v = try V.run(["diff", dir + "/small.png", dir + "/many.png"], in: dir)
    expectEqual(v.status, 3, "\(v.stderr)")
    #expect(v.stderr.contains(dir + "/many.png"), "\(v.stderr)")
    #expect(v.stderr.contains("more than 4096 ancillary chunks"), "\(v.stderr)")
  }
}
