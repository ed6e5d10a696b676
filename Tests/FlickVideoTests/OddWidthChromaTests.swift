import FlickExpectations
import FlickMotion
import FlickRaster
import FlickScene
import Foundation
import Testing

@testable import FlickVideo

/// A frame of odd width converted to 4:2:0 keeps a neutral right edge. libswscale 5.1's packed
/// RGB input averages each pixel pair for the half-width chroma, and for an odd row it paired
/// the last pixel with the next row's first: a black right edge beside a red left edge decoded
/// as 109, 0, 0 in a WebM and a WebP of 101 × 57. Odd widths now go through 4:4:4; even widths
/// keep their one-step conversion and its bytes.
@Suite struct OddWidthChromaTests {
  static let (width, height) = (101, 57)

  /// A black frame whose 32 leftmost columns are red, as BGRA.
  static func frame() -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: width * height * 4)
    for y in 0..<height {
      for x in 0..<width {
        let at = (y * width + x) * 4
        bytes[at + 2] = x < 32 ? 255 : 0
        bytes[at + 3] = 255
      }
    }
    return bytes
  }

  /// The filter chain the command for `format` at `width` hands ffmpeg, up to the encoder's
  /// `yuva420p`.
  static func conversion(_ format: OutputFormat, width: Int) throws -> String {
    let command = try FFmpegCommand(
      format: format, width: width, height: height, fps: 10, options: EncodingOptions(), output: "x.\(format)")
    let arguments = command.arguments
    guard let at = arguments.firstIndex(of: "-vf") else { return "format=yuva420p" }
    return arguments[at + 1] + ",format=yuva420p"
  }

  /// The chroma ffmpeg's conversion for WebM and WebP gives the black right edge: neutral (128,
  /// the value of black's own chroma), on every row.
  @Test(arguments: [OutputFormat.webm, .webp])
  func theRightEdgeOfAnOddWidthKeepsItsChroma(_ format: OutputFormat) throws {
    let filter = try Self.conversion(format, width: Self.width)
    let planes = try TestSupport.ffmpegFiltered(
      [Self.frame()], width: Self.width, height: Self.height, filter: filter, outputOptions: ["-pix_fmt", "yuva420p"])
    let (chromaWidth, chromaHeight) = ((Self.width + 1) / 2, (Self.height + 1) / 2)
    let luma = Self.width * Self.height
    try #require(planes.count == 2 * luma + 2 * chromaWidth * chromaHeight)
    for plane in 0..<2 {
      let start = luma + plane * chromaWidth * chromaHeight
      let edge = (0..<chromaHeight).map { Int(planes[start + $0 * chromaWidth + chromaWidth - 1]) }
      #expect(edge.allSatisfy { abs($0 - 128) <= 1 }, "\(format) \(filter): \(plane == 0 ? "U" : "V") \(edge)")
    }
  }

  /// Even widths keep the conversion they had, byte for byte the same files.
  @Test func anEvenWidthKeepsItsConversion() throws {
    expectEqual(
      try Self.conversion(.webm, width: 100),
      FFmpegCommand.scale(to: "yuva420p") + "," + FFmpegCommand.colourParameters + ",format=yuva420p")
    expectEqual(try Self.conversion(.webp, width: 100), "format=yuva420p")
  }

  /// End to end: the odd-width WebM decodes with a black right edge, as the padded MP4 does.
  @Test func anOddWidthWebMDecodesWithABlackRightEdge() throws {
    let dir = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let red = Layer(
      id: "r", bounds: Rect(x: 0, y: 0, width: 32, height: Double(Self.height)),
      position: Point(x: 16, y: Double(Self.height) / 2), backgroundColor: Color(red: 1, green: 0, blue: 0))
    let scene = Scene(
      size: Size(width: Double(Self.width), height: Double(Self.height)), fps: 10, duration: 0.1,
      backgroundColor: Color(red: 0, green: 0, blue: 0), layers: [red])
    var options = EncodingOptions()
    options.pad = true
    let outputs = ["a.webm", "a.mp4"].map { dir.appendingPathComponent($0).path }
    try RenderSession(scene: scene, outputs: try outputs.map { try OutputTarget(path: $0) }, options: options).run()
    for (path, decoder, width) in [(outputs[0], "libvpx-vp9", Self.width), (outputs[1], nil, Self.width + 1)] {
      let rgba = [UInt8](try TestSupport.decodeRGBA(path, decoder: decoder, frames: 1))
      for y in [0, Self.height / 2] {
        let at = (y * width + Self.width - 1) * 4
        let pixel = Array(rgba[at..<at + 3])
        #expect(pixel.allSatisfy { $0 <= 6 }, "\(path) pixel (\(Self.width - 1), \(y)): \(pixel)")
      }
    }
  }
}
