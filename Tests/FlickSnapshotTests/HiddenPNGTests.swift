import FlickExpectations
import FlickRaster
import FlickTestSupport
import Foundation
import Testing

/// `flick diff` of two folders and `verify`'s unlisted check count every PNG of a folder, hidden
/// ones (`.name.png`) too: a skipped file is a file nothing checks.
@Suite struct HiddenPNGTests {
  typealias V = VerifyCommandTests

  @Test func hiddenPNGsAreComparedAndNeverSkipped() throws {
    let dir = try V.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try FileManager.default.createDirectory(atPath: dir + "/a", withIntermediateDirectories: true)
    try FileManager.default.createDirectory(atPath: dir + "/b", withIntermediateDirectories: true)
    let white = Frame(width: 4, height: 4, bytesPerRow: 16, pixels: [UInt8](repeating: 255, count: 64))
    var dark = white
    dark.pixels[0] = 0
    for (folder, hidden) in [("a", white), ("b", dark)] {
      try white.writePNG(to: "\(dir)/\(folder)/k.png")
      try hidden.writePNG(to: "\(dir)/\(folder)/.h.png")
    }
    let d = try V.run(["diff", dir + "/a", dir + "/b"])
    expectEqual(d.status, 1, "\(d.stderr)")
    #expect(d.stderr.contains("✗ .h.png"), "\(d.stderr)")
    // In a goldens folder no manifest may list it: unlisted, the run fails.
    let golden = dir + "/golden"
    try expectEqual(V.run(["snapshot", V.twoCards, "--at", "0", "--out", golden]).status, 0)
    try FileManager.default.copyItem(atPath: golden + "/0s.png", toPath: golden + "/.0s.png")
    let v = try V.run(["verify", V.twoCards, "--against", golden], in: dir)
    expectEqual(v.status, 1, "\(v.stderr)")
    #expect(v.stderr.contains("✗ .0s.png: unlisted"), "\(v.stderr)")
  }

  @Test func diffHelpSaysJNDImpliesPerceptual() throws {
    let h = try V.run(["diff", "--help"])
    expectEqual(h.status, 0)
    #expect(h.stdout.contains("(implied by --threshold, --metric, --jnd, --aa, --no-aa)"), "\(h.stdout)")
  }
}
