import FlickExpectations
import FlickTestSupport
import Foundation
import Testing

/// `flick info` on a Lottie file names the background `still` and `render` draw it on (white
/// unless `--background` says otherwise), not the file's own transparency.
@Suite struct LottieInfoBackgroundTests {
  static let badge = CLITests.root.appendingPathComponent("Templates/lottie/success-badge.json").path

  /// `#RRGGBBAA` of a pixel, as `flick info` writes colours.
  static func hex(_ p: (r: UInt8, g: UInt8, b: UInt8, a: UInt8)) -> String {
    "#" + [p.r, p.g, p.b, p.a].map { ($0 < 16 ? "0" : "") + String($0, radix: 16, uppercase: true) }.joined()
  }

  @Test func infoNamesTheBackgroundAStillIsDrawnOn() throws {
    let dir = try CLITests.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let info = try CLITests.run(CLITests.flick, ["info", Self.badge])
    expectEqual(info.status, 0, "\(info.stderr)")
    let canvas = try #require(info.stdout.split(separator: "\n").first { $0.hasPrefix("canvas: ") }, "\(info.stdout)")
    #expect(!canvas.contains("transparent"), "\(canvas)")
    let png = dir.appendingPathComponent("s.png").path
    let still = try CLITests.run(CLITests.flick, ["still", Self.badge, "-o", png])
    expectEqual(still.status, 0, "\(still.stderr)")
    // The badge is drawn in the middle: the corner is the background alone.
    let corner = Self.hex(try PNGFile(path: png).rgba(x: 0, y: 0))
    expectEqual(corner, "#FFFFFFFF")
    #expect(canvas.contains("background \(corner) (--background sets another)"), "\(canvas)")
    // --background changes it, as the help and docs/lottie.md say.
    let clear = try CLITests.run(CLITests.flick, ["still", Self.badge, "--background", "transparent", "-o", png])
    expectEqual(clear.status, 0, "\(clear.stderr)")
    expectEqual(try PNGFile(path: png).rgba(x: 0, y: 0).a, 0)
  }
}
