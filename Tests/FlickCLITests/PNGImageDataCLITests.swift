import FlickExpectations
import FlickTestSupport
import Foundation
import Testing

/// A PNG whose header says 1 × 1 over a few hundred KB of compressed zeros, through the real
/// `flick` wherever it reads a PNG: refused before decoding, naming the file or asset (it was
/// accepted and drawn after inflating everything, seconds of CPU per MB, and gigabytes of memory
/// embedded in a Lottie file). A legitimate zlib-level-0 PNG, interlaced or not, still passes.
@Suite struct PNGImageDataCLITests {
  static let reason = "compressed image data"
  static let header = "larger than the 1×1 image its header describes can need"

  static func folder() throws -> URL {
    let root = try CLITests.temporaryDirectory()
    try Data(TinyPNG.bomb(inflatedBytes: 48 << 20)).write(to: root.appendingPathComponent("bomb.png"))
    let fine = TinyPNG.loose(width: 40, height: 30, interlaced: true) { x, y in (UInt8(x * 6), UInt8(y * 8), 90, 255) }
    try Data(fine).write(to: root.appendingPathComponent("fine.png"))
    return root
  }

  static func template(_ image: String) -> String {
    #"{ flick: 1, canvas: { width: 64, height: 64, fps: 10, duration: 0.2 }, "#
      + #"layers: [ { id: "a", size: [32, 32], position: [32, 32], contents: ""# + image + #"" } ] }"#
  }

  @Test func aTemplateImageIsRefused() throws {
    let root = try Self.folder()
    defer { try? FileManager.default.removeItem(at: root) }
    let file = root.appendingPathComponent("t.json5").path
    try Data(Self.template("bomb.png").utf8).write(to: URL(fileURLWithPath: file))
    let out = root.appendingPathComponent("o.png").path, gif = root.appendingPathComponent("o.gif").path
    for args in [["still", file, "--time", "0", "-o", out], ["info", file], ["render", file, "-o", gif]] {
      let r = try CLITests.run(CLITests.flick, args)
      expectEqual(r.status, 2, "\(args[0]): \(r.stderr)")
      #expect(r.stderr.contains("bomb.png"), "\(args[0]): \(r.stderr)")
      #expect(r.stderr.contains(Self.reason) && r.stderr.contains(Self.header), "\(args[0]): \(r.stderr)")
      #expect(!FileManager.default.fileExists(atPath: out) && !FileManager.default.fileExists(atPath: gif))
    }
  }

  @Test func aLevelZeroInterlacedTemplateImageIsDrawn() throws {
    let root = try Self.folder()
    defer { try? FileManager.default.removeItem(at: root) }
    let file = root.appendingPathComponent("t.json5").path
    try Data(Self.template("fine.png").utf8).write(to: URL(fileURLWithPath: file))
    let out = root.appendingPathComponent("o.png").path
    let r = try CLITests.run(CLITests.flick, ["still", file, "--time", "0", "-o", out])
    expectEqual(r.status, 0, "\(r.stderr)")
    // The image's middle, drawn at (16…48, 16…48): not the transparent background.
    expectEqual(try PNGFile(path: out).rgba(x: 32, y: 32).a, 255)
  }

  /// A 1 × 1 header over 300 KB of compressed zeros (over the compressed bound), and a
  /// 1000 × 1000 one over 150 KB inflating to 24 MiB (within it, refused by the inflated count):
  /// stb_image in rlottie inflated either whole into memory.
  @Test(arguments: [
    (1, "compressed image data (", 48 << 20), (1000, "compressed image data inflates to more", 24 << 20),
  ])
  func aLottieEmbeddedImageIsRefused(side: Int, reason: String, inflated: Int) throws {
    let root = try Self.folder()
    defer { try? FileManager.default.removeItem(at: root) }
    let png = TinyPNG.bomb(width: side, height: side, inflatedBytes: inflated)
    let bomb = "data:image/png;base64," + TinyPNG.base64(png)
    let file = root.appendingPathComponent("a.json").path
    let lottie = LottieHostileCommandTests.imageLottie(
      assets: #"[{"id":"img","w":1,"h":1,"u":"","p":""# + bomb + #"","e":1}]"#)
    try Data(lottie.utf8).write(to: URL(fileURLWithPath: file))
    try LottieHostileCommandTests.expectRefused(file, "assets[0].p: the embedded PNG: the \(reason)")
  }

  /// `flick diff` (and so goldens, `verify`, batch chunks: the same decoder) refuses the file
  /// by name with the snapshot tools' "could not compare" status; the legitimate file compares.
  @Test func diffRefusesItAndComparesALevelZeroPNG() throws {
    let root = try Self.folder()
    defer { try? FileManager.default.removeItem(at: root) }
    let bomb = root.appendingPathComponent("bomb.png").path, fine = root.appendingPathComponent("fine.png").path
    for args in [["diff", bomb, fine], ["diff", fine, bomb]] {
      let r = try CLITests.run(CLITests.flick, args)
      expectEqual(r.status, 3, "\(r.stderr)")
      #expect(r.stderr.contains(bomb), "\(r.stderr)")
      #expect(r.stderr.contains(Self.reason) && r.stderr.contains(Self.header), "\(r.stderr)")
    }
    // Under a 1000 × 1000 header, a stream inflating to 24 MiB: refused by the inflated count.
    let large = root.appendingPathComponent("large.png").path
    try Data(TinyPNG.bomb(width: 1000, height: 1000, inflatedBytes: 24 << 20)).write(to: URL(fileURLWithPath: large))
    let r = try CLITests.run(CLITests.flick, ["diff", large, large])
    expectEqual(r.status, 3, "\(r.stderr)")
    #expect(r.stderr.contains("\(large): the compressed image data inflates to more than"), "\(r.stderr)")
    let same = try CLITests.run(CLITests.flick, ["diff", fine, fine])
    expectEqual(same.status, 0, "\(same.stderr)")
  }
}
