import FlickExpectations
import FlickMotion
import FlickScene
import FlickVideo
import Foundation
import Testing

/// Flat colours drawn, encoded to H.264 and decoded again come back within ΔE00 ≤ 2.
@Suite struct ColourRoundTripTests {
  static let colors: [Color] = [
    "#FF0000", "#00FF00", "#0000FF", "#FFFFFF", "#000000", "#808080", "#F97316", "#0F172A", "#1E293B",
    "#FFEDD5", "#00FFFF", "#FF00FF", "#FFFF00", "#C68642", "#2563EB", "#16A34A",
  ].compactMap { Color(hex: $0) }

  @Test func ciede2000MatchesPublishedPairs() {
    // Sharma, Wu & Dalal (2005), table 1: pairs 1, 2, 7, 17 and 25.
    let pairs: [((Double, Double, Double), (Double, Double, Double), Double)] = [
      ((50, 2.6772, -79.7751), (50, 0, -82.7485), 2.0425),
      ((50, 3.1571, -77.2803), (50, 0, -82.7485), 2.8615),
      ((50, 0, 0), (50, -1, 2), 2.3669),
      ((50, 2.5, 0), (73, 25, -18), 27.1492),
      ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
    ]
    for (p, q, expected) in pairs {
      expectLess(abs(ColorDifference.deltaE2000Lab(p, q) - expected), 0.0001, "\(p) \(q)")
    }
    expectEqual(ColorDifference.deltaE2000((10, 20, 30), (10, 20, 30)), 0)
  }

  @Test func mp4PatchesDecodeWithinDeltaE2() throws {
    let dir = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let mp4 = dir.appendingPathComponent("patches.mp4").path
    let scene = TestSupport.patchScene(Self.colors, columns: 4)
    try RenderSession(scene: scene, outputs: [try OutputTarget(path: mp4)]).run()
    let width = 128
    let decoded = try TestSupport.decodeRGBA(mp4)
    let frameBytes = width * 128 * 4
    expectEqual(decoded.count, frameBytes * scene.frameCount)
    var worst = 0.0
    for (i, color) in Self.colors.enumerated() {
      let measured = Self.average(decoded, width: width, x: (i % 4) * 32 + 12, y: (i / 4) * 32 + 12, size: 8)
      let drawn = (color.red * 255, color.green * 255, color.blue * 255)
      let dE = ColorDifference.deltaE2000(drawn, measured)
      worst = max(worst, dE)
      expectLessOrEqual(dE, 2, "patch \(i) drawn \(drawn) decoded \(measured): ΔE00 \(dE)")
    }
    // The same file decoded with the wrong (BT.601) matrix is visibly off: the check can fail.
    let wrong = try TestSupport.run(
      "/usr/bin/env",
      [
        "ffmpeg", "-loglevel", "error", "-i", mp4, "-frames:v", "1", "-vf", "scale=in_color_matrix=bt601:in_range=tv",
        "-f", "rawvideo", "-pix_fmt", "rgba", "pipe:1",
      ])
    let red = Self.average(wrong.stdout, width: width, x: 12, y: 12, size: 8)
    expectGreater(ColorDifference.deltaE2000((255, 0, 0), red), 2)
  }

  /// Mean RGB of a `size`-pixel square at (`x`, `y`) of the first RGBA frame in `data`.
  static func average(_ data: Data, width: Int, x: Int, y: Int, size: Int) -> (Double, Double, Double) {
    var sum = (0.0, 0.0, 0.0)
    let bytes = [UInt8](data.prefix(width * (y + size) * 4))
    for row in y..<(y + size) {
      for col in x..<(x + size) {
        let i = (row * width + col) * 4
        sum.0 += Double(bytes[i])
        sum.1 += Double(bytes[i + 1])
        sum.2 += Double(bytes[i + 2])
      }
    }
    let n = Double(size * size)
    return (sum.0 / n, sum.1 / n, sum.2 / n)
  }
}
