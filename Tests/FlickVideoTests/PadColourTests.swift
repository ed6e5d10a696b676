import FlickExpectations
import FlickMotion
import FlickRaster
import FlickScene
import Foundation
import Testing

@testable import FlickVideo

/// `--pad` fills the stripe that makes an odd size even with the background as the MP4 shows it:
/// premultiplied, over black, as every frame's own pixels are. It took the colour without its
/// alpha, so a translucent background gave each frame a bright line on its right and bottom edges.
@Suite struct PadColourTests {
  static let colours: [Color] = [
    Color(red: 1, green: 0x5A / 255.0, blue: 0x5F / 255.0, alpha: 1),
    Color(red: 1, green: 0x5A / 255.0, blue: 0x5F / 255.0, alpha: 0x80 / 255.0),
    Color(red: 1, green: 0x5A / 255.0, blue: 0x5F / 255.0, alpha: 0),
    Color(red: 0.06, green: 0.09, blue: 0.16, alpha: 0.3),
  ]

  @Test(arguments: colours)
  func thePadColourIsTheBackgroundsPixel(_ colour: Color) throws {
    let frame = try Renderer().render(
      RenderTree(size: Size(width: 8, height: 8), backgroundColor: colour, layers: [], time: 0))
    let p = frame.pixels
    let i = 3 * frame.bytesPerRow + 3 * 4
    expectEqual(RenderSession.rgb(colour), UInt32(p[i + 2]) << 16 | UInt32(p[i + 1]) << 8 | UInt32(p[i]))
  }

  /// End to end: the padded column and row of a decoded MP4 are the colour of the frame beside
  /// them (H.264 is lossy: within a few levels).
  @Test(arguments: colours)
  func thePaddedEdgesMatchTheFrame(_ colour: Color) throws {
    let dir = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let scene = Scene(
      size: Size(width: 33, height: 17), fps: 10, duration: 0.1, backgroundColor: colour, layers: [])
    var options = EncodingOptions()
    options.pad = true
    let mp4 = dir.appendingPathComponent("pad.mp4").path
    try RenderSession(scene: scene, outputs: [try OutputTarget(path: mp4)], options: options).run()
    let raw = dir.appendingPathComponent("frame.rgb").path
    let r = try TestSupport.run(
      "/usr/bin/env",
      ["ffmpeg", "-v", "error", "-i", mp4, "-frames:v", "1", "-pix_fmt", "rgb24", "-f", "rawvideo", "-y", raw])
    expectEqual(r.status, 0, "\(r.stderr)")
    let rgb = [UInt8](try Data(contentsOf: URL(fileURLWithPath: raw)))
    let (width, height) = (34, 18)
    try #require(rgb.count == width * height * 3)
    func pixel(_ x: Int, _ y: Int) -> [Int] { (0..<3).map { Int(rgb[(y * width + x) * 3 + $0]) } }
    for (padded, inside) in [((33, 8), (30, 8)), ((16, 17), (16, 14)), ((33, 17), (30, 14))] {
      let a = pixel(padded.0, padded.1)
      let b = pixel(inside.0, inside.1)
      #expect(zip(a, b).allSatisfy { abs($0 - $1) <= 4 }, "\(colour): pad \(a), frame \(b)")
    }
  }
}
