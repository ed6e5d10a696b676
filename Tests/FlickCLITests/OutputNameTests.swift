import FlickExpectations
import FlickTestSupport
import Foundation
import Testing

/// No output is named like a file Flick reads (`--format gif -o x.json5` wrote a GIF that
/// `flick templates` and the studio then listed as a template): refused, exit 2, nothing written.
@Suite struct OutputNameTests {
  @Test func anOutputNamedLikeAnInputIsRefused() throws {
    let dir = try ProcessRunner.temporaryDirectory(prefix: "flick-outname")
    defer { try? FileManager.default.removeItem(at: dir) }
    for (format, output, words) in [
      ("gif", "x.json5", "is named like a template"), ("mp4", "x.JSON5", "is named like a template"),
      ("webp", "anim.json", "is named like a Lottie, parameter or plan file"),
      ("apng", "x.svg", "is named like an SVG"),
      ("png", "frames.json5/", "is named like a template"), ("png", "shots.svg/%04d.png", "is named like an SVG"),
    ] {
      let path = dir.appendingPathComponent(output).path
      let r = try CLITests.run(
        CLITests.flick, ["render", CLITests.hello, "--format", format, "-o", path, "--frames", "0..1", "-q"])
      expectEqual(r.status, 2, "\(output): \(r.stderr)")
      #expect(r.stderr.contains(words), "\(output): \(r.stderr)")
      try expectEqual(FileManager.default.contentsOfDirectory(atPath: dir.path), [], "\(output)")
    }
  }
}
