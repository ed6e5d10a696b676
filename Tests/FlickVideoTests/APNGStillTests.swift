import FlickExpectations
import FlickScene
import Foundation
import Testing

@testable import FlickVideo

/// A one-frame `.apng` is an animated PNG of one frame. ffmpeg's `apng` muxer writes a single
/// frame as a plain PNG (no `acTL`, no `fcTL`), so the file lost its length and `--loop`; Flick
/// inserts both before the image data (``APNGStill``).
@Suite struct APNGStillTests {
  /// The chunks of a PNG: type, data, and whether the CRC is right.
  static func chunks(_ data: [UInt8]) -> [(type: String, data: [UInt8], crcOK: Bool)] {
    var at = 8
    var chunks: [(String, [UInt8], Bool)] = []
    while at + 12 <= data.count {
      let length = data[at..<at + 4].reduce(0) { $0 << 8 | Int($1) }
      let type = Array(data[at + 4..<at + 8])
      let body = Array(data[at + 8..<at + 8 + length])
      let stored = data[at + 8 + length..<at + 12 + length].reduce(0) { $0 << 8 | UInt32($1) }
      var crc = CRC32()
      crc.update(type)
      crc.update(body)
      chunks.append((String(decoding: type, as: UTF8.self), body, crc.value == stored))
      at += 12 + length
    }
    return chunks
  }

  static func be(_ bytes: ArraySlice<UInt8>) -> Int { bytes.reduce(0) { $0 << 8 | Int($1) } }

  @Test(arguments: [0, 3])
  func aOneFrameAPNGIsAnimated(_ plays: Int) throws {
    let dir = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    var options = EncodingOptions()
    options.plays = plays
    let path = dir.appendingPathComponent("one.apng").path
    // One frame at 10 fps (0.1 s), as `--frames 0` gives.
    let scene = TestSupport.movingScene(width: 32, height: 24, fps: 10, duration: 0.1)
    try RenderSession(scene: scene, outputs: [try OutputTarget(path: path)], options: options).run()
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    let chunks = Self.chunks(bytes)
    let types = chunks.map(\.type)
    #expect(chunks.allSatisfy { $0.crcOK }, "\(types)")
    let acTL = try #require(chunks.first { $0.type == "acTL" }, "no acTL: \(types)")
    expectEqual(Self.be(acTL.data[0..<4]), 1, "num_frames")
    expectEqual(Self.be(acTL.data[4..<8]), plays, "num_plays")
    let fcTL = try #require(chunks.first { $0.type == "fcTL" }, "no fcTL: \(types)")
    expectEqual(Self.be(fcTL.data[0..<4]), 0, "sequence number")
    expectEqual([Self.be(fcTL.data[4..<8]), Self.be(fcTL.data[8..<12])], [32, 24], "frame size")
    expectEqual([Self.be(fcTL.data[20..<22]), Self.be(fcTL.data[22..<24])], [1, 10], "delay")
    let idat = try #require(types.firstIndex(of: "IDAT"))
    #expect(types.firstIndex(of: "acTL")! < idat && types.firstIndex(of: "fcTL")! < idat, "\(types)")
    expectEqual(types.last, "IEND")
    #expect(ContainerCheck.problem(.apng, at: path) == nil)
    // ffmpeg reads it as an APNG of one frame.
    let probe = try TestSupport.probe(path, "stream=codec_name,nb_read_frames")
    expectEqual(probe["codec_name"], "apng")
    expectEqual(probe["nb_read_frames"], "1")
  }
}
