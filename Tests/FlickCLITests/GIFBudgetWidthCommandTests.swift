import FlickExpectations
import FlickTestSupport
import Foundation
import Testing

/// `flick render --max-size` on a GIF searches from the GIF's own setting: its `--gif-width`
/// (every setting tried keeps that width or goes narrower), and only the frame rates that keep a
/// frame of the render (one frame at 10 fps from 30 keeps none), so a budget it cannot meet ends
/// with exit 2 and the budget's message, never an encoding error.
@Suite struct GIFBudgetWidthCommandTests {
  /// The logical screen width of the GIF at `path` (bytes 6–7, little-endian).
  static func gifWidth(_ path: String) throws -> Int {
    let b = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    try #require(b.count >= 10)
    return Int(b[6]) | Int(b[7]) << 8
  }

  /// hello (640 × 360, 30 fps) at `--gif-width 333` is 99 KB; at 20 fps and its full width it
  /// is 67 KB, which the search kept before it took the width into account.
  @Test func theBudgetKeepsTheGIFWidth() throws {
    let dir = try CLITests.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let gif = dir.appendingPathComponent("w.gif").path
    let r = try ProcessRunner.run(
      CLITests.flick, ["render", CLITests.hello, "-o", gif, "--gif-width", "333", "--max-size", "70KB"])
    expectEqual(r.status, 0, "\(r.stderr)")
    expectLessOrEqual(try Self.gifWidth(gif), 333)
    let line = try #require(r.stderr.split(separator: "\n").first { $0.contains("fits under") })
    let wide = try #require(line.firstMatch(of: /(\d+) px wide/))
    expectLessOrEqual(Int(wide.1) ?? .max, 333)
  }

  /// One frame of hello over a 3 KB budget: no rate below 20 fps keeps it, so the search goes on
  /// to narrower widths and smaller palettes; it fits, or ends with exit 2 and nothing written.
  @Test func aOneFrameGIFGoesOnPastTheRatesThatKeepNoFrame() throws {
    let dir = try CLITests.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let gif = dir.appendingPathComponent("one.gif").path
    for (budget, bytes) in [("3KB", 3000), ("1KB", 1000)] {
      let r = try ProcessRunner.run(
        CLITests.flick, ["render", CLITests.hello, "-o", gif, "--frames", "10", "--max-size", budget, "-q"])
      #expect(!r.stderr.contains("no frame is kept"), "\(budget): \(r.stderr)")
      if r.status == 0 {
        expectLessOrEqual(try FileManager.default.attributesOfItem(atPath: gif)[.size] as! Int, bytes)
        try FileManager.default.removeItem(atPath: gif)
      } else {
        expectEqual(r.status, 2, "\(budget): \(r.stderr)")
        #expect(r.stderr.contains("does not fit under --max-size"), "\(budget): \(r.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty, "\(budget): no partial output")
      }
    }
  }
}
