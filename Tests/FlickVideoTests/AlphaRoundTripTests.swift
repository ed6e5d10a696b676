import FlickExpectations
import FlickMotion
import FlickScene
import FlickVideo
import Foundation
import Testing

/// Translucent patches on a transparent background survive WebM, MOV, APNG and the PNG
/// sequence with straight (un-premultiplied) colour and the drawn alpha.
@Suite struct AlphaRoundTripTests {
  /// (colour, alpha) of each patch; the last cell of the 3 × 2 grid stays fully transparent.
  static let patches: [(Color, Double)] = [
    (Color(red: 1, green: 0, blue: 0), 1), (Color(red: 0, green: 1, blue: 0), 0.5),
    (Color(red: 0.15, green: 0.39, blue: 0.92), 0.25), (Color(red: 0.98, green: 0.45, blue: 0.09), 0.75),
    (Color(red: 1, green: 1, blue: 1), 0.6), (.clear, 0),
  ]

  struct Case: CustomTestStringConvertible, Sendable {
    var output: String
    var decoded: String
    var decoder: String?
    /// Largest ΔE00 allowed between drawn and decoded colour (straight alpha).
    var maxDeltaE: Double
    /// Largest alpha error allowed, in 8-bit steps.
    var maxAlphaError: Int
    var testDescription: String { output }
  }

  static let cases: [Case] = [
    Case(output: "a.webm", decoded: "a.webm", decoder: "libvpx-vp9", maxDeltaE: 3, maxAlphaError: 3),
    Case(output: "a.mov", decoded: "a.mov", decoder: nil, maxDeltaE: 1.5, maxAlphaError: 1),
    Case(output: "a.apng", decoded: "a.apng", decoder: nil, maxDeltaE: 1.5, maxAlphaError: 1),
    Case(output: "seq/", decoded: "seq/0001.png", decoder: nil, maxDeltaE: 1.5, maxAlphaError: 1),
  ]

  @Test(arguments: cases) func alphaSurvives(_ c: Case) throws {
    let dir = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let colors = Self.patches.map { color, alpha in
      Color(red: color.red, green: color.green, blue: color.blue, alpha: alpha)
    }
    let scene = TestSupport.patchScene(colors, columns: 3, background: .clear)
    try RenderSession(scene: scene, outputs: [try OutputTarget(path: dir.path + "/" + c.output)]).run()
    // The first frame only: ffmpeg reads an APNG at its time base's rate (100,000 fps), so all of
    // this 0.2 s clip would come out as 20,000 frames (491 MB through the pipe).
    let data = [UInt8](try TestSupport.decodeRGBA(dir.path + "/" + c.decoded, decoder: c.decoder, frames: 1))
    let width = 96
    expectGreaterOrEqual(data.count, width * 64 * 4)
    guard data.count >= width * 64 * 4 else { return }
    for (i, (color, alpha)) in Self.patches.enumerated() {
      let (x, y) = ((i % 3) * 32 + 16, (i / 3) * 32 + 16)
      let p = (y * width + x) * 4
      let a = Int(data[p + 3])
      expectLessOrEqual(abs(a - Int((alpha * 255).rounded())), c.maxAlphaError, "\(c.output) patch \(i) alpha \(a)")
      guard alpha > 0 else { continue }
      let drawn = (color.red * 255, color.green * 255, color.blue * 255)
      let decoded = (Double(data[p]), Double(data[p + 1]), Double(data[p + 2]))
      let dE = ColorDifference.deltaE2000(drawn, decoded)
      expectLessOrEqual(dE, c.maxDeltaE, "\(c.output) patch \(i) drawn \(drawn) decoded \(decoded): ΔE00 \(dE)")
    }
  }
}
