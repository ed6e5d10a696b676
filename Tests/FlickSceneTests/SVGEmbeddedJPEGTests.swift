import FlickExpectations
import FlickScene
import Foundation
import Testing

/// A JPEG embedded in an SVG picture (or a Lottie file) is decoded by another library, so the
/// decoder's cap on progressive scans is applied to it before: at most 100 scans, counted as
/// libjpeg reads them.
@Suite struct SVGEmbeddedJPEGTests {
  static func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
    [0xFF, marker, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload
  }

  /// A progressive 8×8 JPEG header followed by `scans` scans, each with `data` as its
  /// entropy-coded bytes (the shape of the hostile files: refinement scans and little else).
  static func jpeg(scans: Int, data: [UInt8] = []) -> [UInt8] {
    let counts: [UInt8] = [1] + Array(repeating: 0, count: 15)
    var out: [UInt8] = [0xFF, 0xD8] + segment(0xDB, [0] + Array(repeating: 1, count: 64))
    out += segment(0xC2, [8, 0, 8, 0, 8, 1, 1, 0x11, 0])
    out += segment(0xC4, [0x00] + counts + [0]) + segment(0xC4, [0x10] + counts + [0xE0])
    for k in 0..<scans { out += segment(0xDA, [1, 1, 0, 1, 63, k == 0 ? 1 : 0x10]) + data }
    return out + [0xFF, 0xD9]
  }

  static func svg(_ jpeg: [UInt8]) -> Data {
    SVGDocumentCheckTests.svg(
      "<image width=\"8\" height=\"8\" href=\"data:image/jpeg;base64,\(Data(jpeg).base64EncodedString())\"/>")
  }

  @Test func aJPEGOfMoreThan100ScansIsRefused() throws {
    let problem = try #require(SVGDocumentCheckTests.problem(Self.svg(Self.jpeg(scans: 101))))
    #expect(problem.message.contains("more than 100 progressive scans"), "\(problem.message)")
    expectEqual(problem.line, 2)
    // Entropy-coded data with stuffed bytes (0xFF 0x00) and restart markers hides no scan.
    let stuffed = Self.jpeg(scans: 101, data: [0x12, 0xFF, 0x00, 0x34, 0xFF, 0xD3, 0x56, 0xFF, 0xFF, 0xD0])
    #expect(SVGDocumentCheckTests.problem(Self.svg(stuffed)) != nil)
    #expect(SVGDocumentCheckTests.problem(Self.svg(Self.jpeg(scans: 30_000))) != nil)
  }

  @Test func aJPEGOf100ScansOrFewerIsAcceptedAndLaterOnesCount() {
    for scans in [1, 10, 100] {
      let problem = SVGDocumentCheckTests.problem(Self.svg(Self.jpeg(scans: scans, data: [0x12, 0xFF, 0x00])))
      #expect(problem == nil, "\(scans) scans: \(String(describing: problem))")
    }
    // Scans after the end of the image (EOI) count too.
    let trailing = Self.jpeg(scans: 2) + Array(Self.jpeg(scans: 200).dropFirst(2))
    #expect(SVGDocumentCheckTests.problem(Self.svg(trailing)) != nil)
  }
}
