import FlickExpectations
@testable import FlickVideo
import Foundation
import Testing

/// A `--max-size` candidate at the GIF's own width takes the palette of the spooled frames it
/// keeps (``GIFPalette/of(_:keeping:stopping:)``): the palette of those frames added in order,
/// each against the kept frame before it, as ffmpeg is sent them.
@Suite struct GIFPaletteSpoolTests {
  /// A 16 × 16 BGRA frame: `color` everywhere but a square of `spot` at (x, x).
  static func frame(_ color: UInt32, spot: UInt32, at x: Int) -> [UInt8] {
    var pixels = [UInt32](repeating: color, count: 256)
    for row in x..<(x + 4) { for column in x..<(x + 4) { pixels[row * 16 + column] = spot } }
    return pixels.flatMap { value in (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
  }

  @Test func theKeptFramesMakeThePaletteInOrder() throws {
    let dir = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let frames = [
      Self.frame(0xFF20_4060, spot: 0xFFE0_1010, at: 0), Self.frame(0xFF20_4060, spot: 0xFF10_E010, at: 4),
      Self.frame(0xFF20_4060, spot: 0xFF10_10E0, at: 8), Self.frame(0xFF20_4060, spot: 0xFFF0_F0F0, at: 12),
    ]
    let spool = try FrameSpool(
      path: dir.appendingPathComponent("spool").path, width: 16, height: 16, output: dir.path + "/a.gif")
    defer { spool.remove() }
    for frame in frames { #expect(spool.append(frame) == nil) }
    spool.endAppending()

    let keeps = [true, false, true, true]
    let expected = try #require(GIFPaletteTests.flickColors(zip(frames, keeps).filter(\.1).map(\.0)))
    expectEqual(try GIFPalette.of(spool, keeping: keeps, stopping: { false }).get(), expected)
    // Frame 1 left out changes what frame 2 is compared with: another palette.
    #expect(try GIFPalette.of(spool, keeping: [true, true, true, true], stopping: { false }).get() != expected)
    // Asked to stop: no palette, and no failure.
    expectEqual(try GIFPalette.of(spool, keeping: keeps, stopping: { true }).get(), nil)
    // No frame kept: a failure that says so, not an empty palette.
    switch GIFPalette.of(spool, keeping: [false, false, false, false], stopping: { false }) {
    case .failure(let failure): expectEqual(failure.reason, "no frame is kept")
    case .success(let palette): Issue.record("a palette of no frame: \(String(describing: palette))")
    }
  }
}
