import FlickExpectations
import FlickScene
import FlickTestSupport
import FlickVideo
import Foundation
import Testing

/// A file that could not be written whole fails its output, whatever the encoder's exit status.
/// ffmpeg 5.1 exits with status 0 after "Error writing trailer of …: No space left on device":
/// on a full disk Flick reported `wrote x.mp4` for an MP4 cut at 65,536 bytes without its `moov`
/// box ("moov atom not found"), and a WebM without its cues; gifsicle exits 0 with its output cut
/// short too. Each case must fail (exit 3 on the command line), leave an existing destination as
/// it was and leave no temporary beside it.
@Suite struct WriteFailureTests {
  typealias Fixture = FailureTests.Fixture

  static let real = "$(PATH=/usr/local/bin:/usr/bin:/bin command -v ffmpeg)"

  /// A script body for ``FailureTests/fakeFFmpeg(_:version:in:)``: the real ffmpeg, after which,
  /// when the output (its last argument) matches `pattern`, `mode` happens: `cut` cuts the file
  /// to two thirds and prints ffmpeg's trailer errors, `silent` only cuts it, `message` only
  /// prints the errors; the script then exits 0, as ffmpeg 5.1 does.
  static func finishingBadly(_ mode: String, when pattern: String = "*.partial") -> String {
    let cut = "size=$(stat -c %s \"$out\"); truncate -s $((size * 2 / 3)) \"$out\""
    let message = """
      echo "Error writing trailer of $out: No space left on device" >&2
      echo "Error closing file $out: No space left on device" >&2
      """
    let action = ["cut": cut + "\n" + message, "silent": cut, "message": message][mode, default: ""]
    return """
      case "$out" in \(pattern)) ;; *) exec \(real) "$@";; esac
      \(real) "$@" || exit $?
      \(action)
      exit 0
      """
  }

  static func options() -> EncodingOptions {
    var options = EncodingOptions()
    options.optimizesGIF = false
    return options
  }

  /// Renders the moving scene (64 × 48, 10 frames) into `name` in `f.out`, where a file of that
  /// name already is, with `ffmpeg` (a script) and `options`, and expects the render to fail
  /// with `expected` in its message and to leave only the old file.
  static func expectFailure(
    _ name: String, ffmpeg: String, options: EncodingOptions = options(), scene: Scene = TestSupport.movingScene(),
    in f: Fixture, expected: String, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    try f.keep(name)
    let session = RenderSession(
      scene: scene, outputs: [try OutputTarget(path: f.path(name))], options: options,
      ffmpeg: FFmpegTool(path: ffmpeg, version: "5.1"))
    do {
      try session.run()
      Issue.record("\(name): the render should fail", sourceLocation: sourceLocation)
    } catch let error as VideoError {
      #expect(!error.isInvalidInput, "\(name): \(error)", sourceLocation: sourceLocation)
      #expect(error.description.contains(expected), "\(name): \(error)", sourceLocation: sourceLocation)
    }
    try f.expectKept(name, sourceLocation: sourceLocation)
    try expectEqual(TestSupport.contents(f.out), [name], "\(name): temporaries left", sourceLocation: sourceLocation)
  }

  /// Every ffmpeg format, its file cut short with ffmpeg's trailer errors (what a full disk
  /// does), cut short without a word, and whole but with the errors.
  @Test(arguments: ["mp4", "webm", "mov", "apng", "webp", "gif"])
  func anEncodingCutShortFailsWhateverFFmpegsStatus(_ format: String) throws {
    for (mode, expected) in [
      ("cut", "Error writing trailer"), ("silent", "incomplete"), ("message", "Error closing file"),
    ] {
      let f = try Fixture()
      defer { f.cleanup() }
      let ffmpeg = try FailureTests.fakeFFmpeg(Self.finishingBadly(mode), in: f.bin)
      try Self.expectFailure("a.\(format)", ffmpeg: ffmpeg, in: f, expected: expected)
    }
  }

  /// A `--max-size` candidate cut short is smaller than the budget, and was chosen and
  /// committed: the MP4's and WebM's two-pass encodings and the GIF's lower settings.
  @Test(arguments: ["mp4", "webm", "gif"])
  func aBudgetCandidateCutShortFails(_ format: String) throws {
    let f = try Fixture()
    defer { f.cleanup() }
    // The output's own encoding is whole; every candidate (.NAME.budget.EXT.PID.partial, and a
    // GIF's .NAME.lookahead.gif.PID.partial, encoded while gifsicle works) is cut.
    let ffmpeg = try FailureTests.fakeFFmpeg(
      Self.finishingBadly("silent", when: "*.budget.*.partial|*.lookahead.*.partial"), in: f.bin)
    // card-swap at 320 × 180, 30 frames (VideoFitTests), under 60 % of its own encoding's size.
    let own = f.dir.appendingPathComponent("own.\(format)").path
    _ = try VideoFitTests.render([own], budget: nil)
    let size = try VideoFitTests.bytes(own).count
    try f.keep("a.\(format)")
    do {
      _ = try VideoFitTests.render(
        [f.path("a.\(format)")], budget: OutputBudget(bytes: size * 6 / 10),
        ffmpeg: FFmpegTool(path: ffmpeg, version: "5.1"))
      Issue.record("the render should fail")
    } catch let error as VideoError {
      #expect(!error.isInvalidInput, "\(error)")
      #expect(error.description.contains("incomplete"), "\(error)")
    }
    try f.expectKept("a.\(format)")
    try expectEqual(TestSupport.contents(f.out), ["a.\(format)"])
  }

  /// gifsicle exits 0 with its output cut short when the disk is full (gifsicle 1.93): the cut
  /// file, smaller than Flick's, was kept.
  @Test func aGIFGifsicleCutShortFails() throws {
    let f = try Fixture()
    defer { f.cleanup() }
    let template = try FailureTests.writeTemplate(in: f)
    let gifsicle = try TestSupport.script(
      """
      for out in "$@"; do :; done
      $(PATH=/usr/local/bin:/usr/bin:/bin command -v gifsicle) "$@" || exit $?
      size=$(stat -c %s "$out"); truncate -s $((size * 2 / 3)) "$out"
      exit 0
      """, named: "gifsicle", in: f.bin)
    try f.keep("a.gif")
    let r = try GIFOptimizerFailureTests.flick(["render", template, "-o", f.path("a.gif")], gifsicle: gifsicle, in: f)
    expectEqual(r.status, 3, "\(r.stderr)")
    #expect(
      r.stderr.contains("gifsicle \(gifsicle) exited with status 0, but the file it wrote is incomplete"), "\(r.stderr)"
    )
    try f.expectKept("a.gif")
    try expectEqual(TestSupport.contents(f.out), ["a.gif"])
  }

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

  /// Whether this process may mount a tmpfs (root, or CAP_SYS_ADMIN; not in most CI containers).
  static let mountsTmpfs: Bool = {
    guard getuid() == 0, let dir = try? TestSupport.temporaryDirectory() else { return false }
    defer { try? FileManager.default.removeItem(at: dir) }
    guard let r = try? TestSupport.run("/bin/mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", dir.path]),
      r.status == 0
    else { return false }
    _ = try? TestSupport.run("/bin/umount", [dir.path])
    return true
  }()

  /// The reviewer's case on a real full disk: card-swap at half size into a 64 KiB tmpfs, as
  /// MP4 and WebM (ffmpeg exits 0 after its trailer fails), and the moving square at three
  /// times its size as MOV. Exit 3, nothing in the folder. Needs permission to mount a tmpfs.
  @Test(
    .enabled(if: mountsTmpfs, "mounting a tmpfs needs root or CAP_SYS_ADMIN, which this test process lacks"),
    arguments: [
      ("card-swap.json5", "0.5", "x.mp4"), ("card-swap.json5", "0.5", "x.webm"), ("move.json5", "3", "x.mov"),
    ])
  func aFullDiskFailsTheRender(_ template: String, _ scale: String, _ name: String) throws {
    let dir = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let disk = dir.appendingPathComponent("disk")
    try FileManager.default.createDirectory(at: disk, withIntermediateDirectories: false)
    let mount = try TestSupport.run("/bin/mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", disk.path])
    try #require(mount.status == 0, "\(mount.stderr)")
    defer { _ = try? TestSupport.run("/bin/umount", [disk.path]) }
    var source = TestSupport.root.appendingPathComponent("Templates/\(template)").path
    if template == "move.json5" {
      source = dir.appendingPathComponent(template).path
      try Data(Self.move.utf8).write(to: URL(fileURLWithPath: source))
    }
    let r = try TestSupport.run(
      TestSupport.flick, ["render", source, "--scale", scale, "-o", disk.appendingPathComponent(name).path])
    expectEqual(r.status, 3, "\(name): \(r.stderr)")
    #expect(r.stderr.contains("No space left on device") || r.stderr.contains("incomplete"), "\(r.stderr)")
    try expectEqual(TestSupport.contents(disk), [], "\(name)")
  }
}
