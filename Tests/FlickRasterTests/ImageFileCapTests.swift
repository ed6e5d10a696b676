@testable import FlickRaster
import FlickExpectations
import FlickScene
import FlickTestSupport
import Foundation
import Testing

/// An image file is read once, after `fstat` says it is a regular file of at most
/// ``FlickScene/AssetFile/maximumImageBytes``: a 16×16 PNG padded to 3 GiB was read whole,
/// twice, before anything looked at its size (6.3 GB at its peak, whatever --max-memory said).
@Suite struct ImageFileCapTests {
  /// A 16×16 red PNG padded (sparse: no disk space used) to `bytes` bytes.
  static func paddedPNG(bytes: Int) throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("padded-\(UUID().uuidString).png").path
    try Data(TinyPNG.solid(width: 16, height: 16, rgb: (255, 0, 0))).write(to: URL(fileURLWithPath: path))
    try expectEqual(truncate(path, off_t(bytes)), 0)
    return path
  }

  @Test func aFileOverTheCapIsRefusedBeforeItIsRead() throws {
    let path = try Self.paddedPNG(bytes: AssetFile.maximumImageBytes + 1)
    defer { unlink(path) }
    let started = Date()
    for decode in [{ _ = try DecodedImage.decode(path: path) }, { _ = try Frame(pngAt: path) }] as [() throws -> Void] {
      do {
        try decode()
        Issue.record("decoded a file over the cap")
      } catch {
        let text = "\(error)"
        #expect(text.contains("more than the 256 MiB"), "\(text)")
        #expect(text.contains(path), "names the file: \(text)")
      }
    }
    #expect(Date().timeIntervalSince(started) < 5, "refused from fstat, not after reading")
  }

  @Test func aPaddedFileUnderTheCapDecodesFromTheBytesReadOnce() throws {
    let path = try Self.paddedPNG(bytes: 1 << 16)
    defer { unlink(path) }
    let image = try DecodedImage.decode(path: path)
    expectEqual([image.width, image.height], [16, 16])
    let frame = try Frame(pngAt: path)
    expectEqual([frame.width, frame.height], [16, 16])
  }

  /// The memory estimate reads a picture's header through the bounded reader: it opened the path
  /// with `FileHandle(forReadingAtPath:)`, which waits for a writer when the path is a FIFO.
  @Test func theMemoryEstimateDoesNotWaitOnAFIFO() throws {
    let fifo = FileManager.default.temporaryDirectory.appendingPathComponent("fifo-\(UUID().uuidString).png").path
    try FIFOGuard.make(fifo)
    defer { unlink(fifo) }
    let run = FIFOGuard.ends(fifo: fifo) {
      guard Renderer.decodedImageBytes(path: fifo) == 0 else { throw CocoaError(.fileReadUnknown) }
    }
    #expect(run.ended && !run.threw, "decodedImageBytes on a FIFO: \(run)")
    let png = try Self.paddedPNG(bytes: 1 << 16)
    defer { unlink(png) }
    expectEqual(Renderer.decodedImageBytes(path: png), 16 * 16 * 4)
  }
}
