import FlickMotion
@testable import FlickRaster
import FlickExpectations
import FlickScene
import Foundation
import Testing

/// Flick's fast PNG writer stores the very pixels Cairo's writer stores: same colour type (RGB
/// when opaque, RGBA otherwise) and the same un-premultiplied values, so every decoded frame is
/// identical; only the compression differs.
@Suite struct PNGEncoderTests {
  static func directory() throws -> URL {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("flick-png-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    return dir
  }

  /// The IHDR colour type byte of a PNG file (2 RGB, 6 RGBA).
  static func colourType(_ path: String) throws -> UInt8 {
    try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))[25]
  }

  static func expectSameAsCairo(_ frame: Frame, in dir: URL, _ name: String) throws {
    let fast = dir.appendingPathComponent("\(name).png").path
    let cairo = dir.appendingPathComponent("\(name).cairo.png").path
    try frame.writePNG(to: fast)
    try frame.writePNGWithCairo(to: cairo)
    try expectEqual(Self.colourType(fast), Self.colourType(cairo), "\(name)")
    let a = try Frame(pngAt: fast)
    let b = try Frame(pngAt: cairo)
    expectEqual(a.width, b.width, "\(name)")
    expectEqual(a.height, b.height, "\(name)")
    expectEqual(a.packedPixels, b.packedPixels, "\(name)")
    #expect(try TestDirectory.contents(dir).allSatisfy { !$0.hasPrefix(".") }, "no temporary files")
  }

  enum TestDirectory {
    static func contents(_ dir: URL) throws -> [String] {
      try FileManager.default.contentsOfDirectory(atPath: dir.path)
    }
  }

  @Test func renderedFramesDecodeToCairosPixels() throws {
    let dir = try Self.directory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let scene = CompositeScenes.cards()
    for n in stride(from: 0, to: scene.frameCount, by: max(1, scene.frameCount / 6)) {
      let frame = try Renderer().render(scene.renderTree(at: scene.time(ofFrame: n)))
      try Self.expectSameAsCairo(frame, in: dir, "cards-\(n)")
    }
    let kinds = CompositeScenes.kinds()
    try Self.expectSameAsCairo(try Renderer().render(kinds.renderTree(at: 0.5)), in: dir, "kinds")
  }

  /// Every alpha value over every colour value (premultiplied, so c ≤ a), a transparent
  /// background, and odd sizes with padded rows.
  @Test func translucentPixelsUnpremultiplyLikeCairo() throws {
    let dir = try Self.directory()
    defer { try? FileManager.default.removeItem(at: dir) }
    var pixels: [UInt8] = []
    for a in 0...255 {
      for c in 0...255 {
        let v = UInt8(min(c, a))
        pixels += [v, UInt8(min(255 - c, a)), UInt8(a / 2), UInt8(a)]
      }
    }
    try Self.expectSameAsCairo(Frame(width: 256, height: 256, bytesPerRow: 1024, pixels: pixels), in: dir, "ramp")
    let padded = Frame(width: 3, height: 2, bytesPerRow: 16, pixels: [UInt8](repeating: 255, count: 32))
    try Self.expectSameAsCairo(padded, in: dir, "padded")
    let layers = [
      Layer(
        id: "a", bounds: Rect(x: 0, y: 0, width: 30, height: 20), position: Point(x: 20, y: 15), opacity: 0.4,
        backgroundColor: Raster.red, cornerRadius: 6)
    ]
    try Self.expectSameAsCairo(try Raster.render(layers, width: 41, height: 33, background: .clear), in: dir, "clear")
  }

  @Test func anUnwritablePathFailsCleanly() throws {
    let frame = Frame(width: 2, height: 2)
    #expect(throws: RasterError.self) { try frame.writePNG(to: "/nonexistent-folder/x.png") }
  }
}
