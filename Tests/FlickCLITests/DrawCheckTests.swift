import FlickExpectations
import FlickTestSupport
import Foundation
import Testing

/// What drawing needs is checked when a template is loaded: an uninstalled font or a picture
/// that does not decode is a located exit 2 from `info`, `still` and `render` alike (it used to
/// be exit 3 at the first frame, after `info` said the template was fine), and a transform that
/// overflows while animating draws nothing for that layer instead of failing the frame.
@Suite struct DrawCheckTests {
  static let canvas = "canvas: { width: 48, height: 48, fps: 10, duration: 0.3 }"

  /// `info`, `still` and `render` of `template` in `dir`: each exit 2 with `located` in its one
  /// line, nothing on stdout from `info`, and no output file.
  static func expectRefusedAtLoad(_ template: String, located: String, in dir: URL) throws {
    let path = try HostileCLITests.write(template, "t.json5", in: dir)
    let still = dir.appendingPathComponent("s.png").path
    let video = dir.appendingPathComponent("v.gif").path
    for args in [["info", path], ["still", path, "-o", still], ["render", path, "-o", video]] {
      let r = try HostileCLITests.run(args)
      expectEqual(r.status, 2, "\(args[0]): exit \(r.status): \(r.stderr)")
      #expect(r.stderr.hasPrefix("flick: \(path):\(located)"), "\(args[0]): \(r.stderr)")
      expectEqual(r.stderr.split(separator: "\n").count, 1, "\(args[0]): \(r.stderr)")
      if args[0] == "info" { #expect(r.stdout.isEmpty, "info said: \(r.stdout)") }
    }
    #expect(!FileManager.default.fileExists(atPath: still))
    #expect(!FileManager.default.fileExists(atPath: video))
  }

  @Test func anUninstalledFontIsALocatedLoadError() throws {
    let dir = try CLITests.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    try Self.expectRefusedAtLoad(
      "{ flick: 1, \(Self.canvas),\n"
        + "  layers: [{ id: 't', type: 'text', string: 'hi', fontFamily: 'Qwerty Nonesuch' }] }",
      located: "2:63: layers[0].fontFamily: layer 't': font family 'Qwerty Nonesuch' is not installed", in: dir)
    // From a style: located where the style writes it.
    try Self.expectRefusedAtLoad(
      "{ flick: 1, \(Self.canvas), styles: { s: {\n fontFamily: 'Qwerty Nonesuch' } },\n"
        + "  layers: [{ id: 'box', sublayers: [{ id: 't', type: 'text', string: 'hi', style: 's' }] }] }",
      located: "2:14: layers[0].sublayers[0] (style \"s\") → styles.s.fontFamily: layer 't': font family", in: dir)
  }

  @Test func aPictureThatDoesNotDecodeIsALocatedLoadError() throws {
    let dir = try CLITests.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    // A valid PNG header (it passes the header check) with the image data cut off.
    let good = try HostileCLITests.write(
      "{ flick: 1, \(Self.canvas), layers: [{ id: 'a', size: [8, 8], backgroundColor: '#f00' }] }", "g.json5", in: dir)
    let png = dir.appendingPathComponent("g.png").path
    try expectEqual(HostileCLITests.run(["still", good, "-o", png]).status, 0)
    let bytes = try Data(contentsOf: URL(fileURLWithPath: png))
    try bytes.prefix(120).write(to: dir.appendingPathComponent("cut.png"))
    try Self.expectRefusedAtLoad(
      "{ flick: 1, \(Self.canvas),\n  layers: [{ id: 'a', size: [8, 8],\n    contents: 'cut.png' }] }",
      located: "3:15: layers[0].contents: cannot read image", in: dir)
  }

  /// A scale that overflows on its way (1 → 10³⁰⁰, nested twice) used to make Cairo refuse the
  /// matrix and fail the render with exit 3 at that frame; the layer now draws nothing, as a
  /// layer with a non-invertible transform does in Core Animation, and the others draw.
  @Test func anOverflowingAnimatedTransformDrawsNothingForThatLayer() throws {
    let dir = try CLITests.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = try HostileCLITests.write(
      "{ flick: 1, \(Self.canvas), layers: [{ id: 'a', size: [20, 20], position: [24, 24], backgroundColor: '#f00',\n"
        + "  sublayers: [{ id: 'b', size: [4, 4], backgroundColor: '#0f0', transform: { scale: 1e200 } }] },\n"
        + "  { id: 'c', size: [10, 10], position: [5, 5], backgroundColor: '#00f' }],\n"
        + "  timeline: [{ at: 0, target: 'a',"
        + " animate: { scaleX: { from: 1, to: 1e300 }, scaleY: { from: 1, to: 1e300 } }, duration: 0.3 }] }",
      "t.json5", in: dir)
    let still = try HostileCLITests.run(["still", path, "-o", dir.appendingPathComponent("s.png").path, "--at", "50%"])
    expectEqual(still.status, 0, "\(still.stderr)")
    let video = try HostileCLITests.run(["render", path, "-o", dir.appendingPathComponent("v.gif").path, "-q"])
    expectEqual(video.status, 0, "\(video.stderr)")
  }
}
