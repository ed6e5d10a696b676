import FlickExpectations
import FlickRaster
import Testing

@testable import FlickVideo

/// The layouts a render's workers prepare are what its sinks read between them, no more.
@Suite struct FrameLayoutsTests {
  /// A sink that reads what it is told to.
  final class Reader: FrameSink {
    let destination = "(test)"
    let wantsStraightAlpha: Bool
    let wantsYUV420: Bool
    let readsPixels: Bool
    var workerStep: (@Sendable (PreparedFrame) throws -> Void)? { nil }
    var report: SinkReport { SinkReport() }
    init(straight: Bool = false, yuv420: Bool = false, pixels: Bool = true) {
      wantsStraightAlpha = straight
      wantsYUV420 = yuv420
      readsPixels = pixels
    }
    func write(_ frame: PreparedFrame) throws {}
    func finish() throws {}
    func commit() throws {}
    func abort() {}
  }

  @Test func eachSinkMixAsksForWhatItsSinksRead() {
    let png = Reader()
    let gif = Reader(straight: true)
    let mp4 = Reader(yuv420: true, pixels: false)
    expectEqual(FrameLayouts(sinks: [png]), .premultiplied)
    expectEqual(FrameLayouts(sinks: [gif, png]), .premultipliedAndStraight)
    // A straight-alpha reader alone: converted in place, nothing premultiplied kept.
    expectEqual(FrameLayouts(sinks: [gif]), FrameLayouts(straightAlpha: true, keepsPremultiplied: false))
    // Planes alone: the pixels go back to the pool once converted.
    expectEqual(FrameLayouts(sinks: [mp4]), FrameLayouts(yuv420: true, keepsPixels: false))
    expectEqual(FrameLayouts(sinks: [mp4, png]), FrameLayouts(yuv420: true))
    expectEqual(
      FrameLayouts(sinks: [mp4, gif]),
      FrameLayouts(straightAlpha: true, keepsPremultiplied: true, yuv420: true, keepsPixels: true))
    // A render with no output but the discarding sink reads no pixels.
    expectEqual(FrameLayouts(sinks: [DiscardingSink()]), FrameLayouts(keepsPixels: false))
  }

  @Test func aFramePreparedForPlanesAloneKeepsNoPixels() {
    var frame = Frame(width: 8, height: 6)
    frame.pixels = [UInt8](repeating: 0x80, count: 8 * 6 * 4)
    let converter = YUV420Converter(width: 8, height: 6)
    let planes = PreparedFrame(
      index: 0, frame: frame, layouts: FrameLayouts(sinks: [Reader(yuv420: true, pixels: false)]),
      converter: converter)
    #expect(planes.premultiplied.isEmpty)
    #expect(planes.straight == nil)
    let planeBytes: Int = 8 * 6 + 2 * (4 * 3)  // Y, then U and V at half the width and height
    expectEqual(planes.yuv420?.count, planeBytes)
    let both = PreparedFrame(
      index: 0, frame: frame, layouts: FrameLayouts(sinks: [Reader(yuv420: true, pixels: false), Reader()]),
      converter: converter)
    expectEqual(both.premultiplied, frame.pixels)
    expectEqual(both.yuv420, planes.yuv420)
  }
}
