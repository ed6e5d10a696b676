import FlickExpectations
import FlickScene
import FlickTestSupport
import FlickVideo
import Foundation
import Testing

/// A file that could not be written whole fails its output with exit 3 and leaves nothing.
@Suite struct WriteFailureTests {
  typealias Fixture = FailureTests.Fixture

  /// A square moving across 64 × 48 for 1.01 s at 30 fps.
  static let move = """
    { flick: 1, canvas: { width: 64, height: 48, fps: 30, duration: 1.01, background: "#203040" },
      layers: [ { id: "b", size: [8, 8], position: [4, 24], backgroundColor: "#FFCC00" } ],
      timeline: [ { target: "b", property: "position", to: [60, 24], at: 0, duration: 1.01, curve: "linear" } ] }
    """

  /// Under a file-size limit (`ulimit -f`, RLIMIT_FSIZE: 512 bytes here) the write that
  /// passes it fails with EFBIG, and the output fails through the usual path: exit 3, a message,
  /// nothing left. SIGXFSZ killed Flick (exit 153, no message) and left the GIF's spool and the
  /// `.partial` files (an ffmpeg passing the limit is killed by SIGXFSZ, which fails its output
  /// as any killed encoder does). The limit is set in a shell that then runs `flick`, so this
  /// process keeps its own. The square at 4 × (256 × 192) makes PNG frames over the limit.
  @Test(arguments: ["x.gif", "x.bgra", "seq/", "x.mp4", "x.apng"])
  func aFileSizeLimitFailsTheOutputAndLeavesNothing(_ name: String) throws {
    let f = try Fixture()
    defer { f.cleanup() }
    let template = f.dir.appendingPathComponent("move.json5").path
    try Data(Self.move.utf8).write(to: URL(fileURLWithPath: template))
    // dash counts `ulimit -f` in 512-byte blocks.
    let r = try TestSupport.run(
      "/bin/sh",
      [
        "-c", "ulimit -f 1 && exec \"$0\" \"$@\"", TestSupport.flick, "render", template, "--scale", "4", "-o",
        f.path(name),
      ])
    expectEqual(r.status, 3, "\(name): \(r.stderr)")
    #expect(r.stderr.contains("flick: "), "\(name): \(r.stderr)")
    try expectEqual(TestSupport.contents(f.out), [], "\(name)")
  }
}
