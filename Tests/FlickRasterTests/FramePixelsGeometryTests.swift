import FlickExpectations
import FlickTestSupport
import Foundation
import Testing

@testable import FlickRaster

/// `Frame.pixels` is a settable array while the frame's sides are fixed: an encoder handed a
/// frame whose array no longer holds `bytesPerRow × height` bytes refuses it before any C code
/// reads past the array's end (it used to write heap bytes into the PNG, or crash).
@Suite struct FramePixelsGeometryTests {
  @Test func writePNGRefusesPixelsShorterThanTheFrameAndWritesNothing() throws {
    let dir = try ProcessRunner.temporaryDirectory(prefix: "flick-frame-pixels")
    defer { try? FileManager.default.removeItem(at: dir) }
    var frame = Frame(width: 64, height: 64)
    frame.pixels = [0, 0, 0, 0]
    let path = dir.appendingPathComponent("short.png").path
    let error = #expect(throws: RasterError.self) { try frame.writePNG(to: path) }
    #expect(
      error?.description.contains("the frame's pixels hold 4 bytes, but a 64×64 frame of 256 bytes a row needs 16384")
        == true, "\(String(describing: error))")
    #expect(!FileManager.default.fileExists(atPath: path))
    // An array too long is refused too: the geometry alone says what the bytes are.
    frame.pixels = [UInt8](repeating: 0, count: 64 * 64 * 4 + 1)
    #expect(throws: RasterError.self) { try frame.writePNG(to: path) }
    #expect(throws: RasterError.self) { try frame.pngData() }
    #expect(frame.encodedPNG(threads: 1).png == nil)
  }

  @Test func anEmptyArrayOnALargeFrameIsRefusedNotRead() throws {
    let dir = try ProcessRunner.temporaryDirectory(prefix: "flick-frame-pixels")
    defer { try? FileManager.default.removeItem(at: dir) }
    var frame = Frame(width: 4000, height: 4000)
    frame.pixels = []
    #expect(throws: RasterError.self) { try frame.writePNG(to: dir.appendingPathComponent("empty.png").path) }
    #expect(throws: RasterError.self) { try frame.pngData(threads: 2) }
  }

  @Test func aMatchingArrayStillEncodes() throws {
    let dir = try ProcessRunner.temporaryDirectory(prefix: "flick-frame-pixels")
    defer { try? FileManager.default.removeItem(at: dir) }
    var frame = Frame(width: 2, height: 2)
    frame.pixels = [UInt8](repeating: 255, count: 16)
    let path = dir.appendingPathComponent("ok.png").path
    try frame.writePNG(to: path)
    expectEqual(try Frame(pngAt: path).pixels, frame.pixels)
  }
}
