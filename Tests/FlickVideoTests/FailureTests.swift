import FlickExpectations
import FlickScene
import FlickVideo
import Foundation
import Testing

/// Outputs are never half-written: a failing, crashing or interrupted encoder leaves no file at
/// the destination, leaves an existing destination untouched, says what happened, and the
/// command exits with the documented code.
@Suite struct FailureTests {
  /// A fake ffmpeg that answers the start-up checks like the real one and then runs `body`
  /// (`$out` is the temporary output path).
  static func fakeFFmpeg(_ body: String, version: String? = nil, in dir: URL) throws -> String {
    let real = "$(PATH=/usr/local/bin:/usr/bin:/bin command -v ffmpeg)"
    let banner = version.map { "echo 'ffmpeg version \($0) Copyright (c) the FFmpeg developers'" }
    let versionLine = banner.map { "\($0); exit 0" } ?? "exec \(real) \"$@\""
    // `-encoders` prints the banner (with the version) on stderr before the list.
    let encodersLine = banner.map { "\($0) >&2; exec \(real) -hide_banner \"$@\"" } ?? "exec \(real) \"$@\""
    return try TestSupport.script(
      """
      case "$*" in *-version*) \(versionLine);; *-encoders*) \(encodersLine);; esac
      for out in "$@"; do :; done
      \(body)

      """, named: "ffmpeg", in: dir)
  }

  static let failEarly = """
    echo partial > "$out"
    head -c 20000 > /dev/null
    echo "simulated encoder failure: out of cheese" >&2
    exit 1
    """
  static let dieMidStream = """
    echo partial > "$out"
    head -c 50000 > /dev/null
    kill -9 $$
    """

  /// A script body that runs the real ffmpeg, except when `subject` (a shell word such as
  /// `$out` or `$*`) matches the `case` pattern `pattern`: then it reads every frame and fails
  /// with `message`.
  static func realFFmpeg(failingWhen subject: String, matches pattern: String, message: String) -> String {
    """
    case "\(subject)" in
      \(pattern)) cat > /dev/null; echo "\(message)" >&2; exit 1;;
    esac
    exec $(PATH=/usr/local/bin:/usr/bin:/bin command -v ffmpeg) "$@"
    """
  }

  struct Fixture {
    let dir: URL
    let bin: URL
    let out: URL
    init() throws {
      dir = try TestSupport.temporaryDirectory()
      bin = dir.appendingPathComponent("bin")
      out = dir.appendingPathComponent("out")
      try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
      try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
    }
    func path(_ name: String) -> String { out.path + "/" + name }
    func keep(_ name: String) throws {
      try Data("previous".utf8).write(to: URL(fileURLWithPath: path(name)))
    }
    func expectKept(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
      let data = try Data(contentsOf: URL(fileURLWithPath: path(name)))
      expectEqual(data, Data("previous".utf8), "\(name) was changed", sourceLocation: sourceLocation)
    }
    func cleanup() { try? FileManager.default.removeItem(at: dir) }
  }

  // MARK: - Library

  @Test func anEncoderThatFailsLeavesNothingBehind() throws {
    let f = try Fixture()
    defer { f.cleanup() }
    try f.keep("keep.mp4")
    let ffmpeg = FFmpegTool(path: try Self.fakeFFmpeg(Self.failEarly, in: f.bin), version: "5.1")
    let session = RenderSession(
      scene: TestSupport.movingScene(),
      outputs: [
        try OutputTarget(path: f.path("keep.mp4")),
        try OutputTarget(path: f.path("seq/")),
      ], ffmpeg: ffmpeg)
    do {
      try session.run()
      Issue.record("the render should fail")
    } catch let error as VideoError {
      guard case .ffmpegFailed(let output, let status, let stderr) = error else {
        Issue.record("unexpected \(error)")
        return
      }
      expectEqual(output, f.path("keep.mp4"))
      expectEqual(status, 1)
      #expect(stderr.contains("out of cheese"))
      #expect(error.description.contains("out of cheese"))
    }
    try f.expectKept("keep.mp4")
    try expectEqual(TestSupport.contents(f.out), ["keep.mp4"])
  }

  @Test func anEncoderKilledMidStreamLeavesNothingBehind() throws {
    let f = try Fixture()
    defer { f.cleanup() }
    let ffmpeg = FFmpegTool(path: try Self.fakeFFmpeg(Self.dieMidStream, in: f.bin), version: "5.1")
    let session = RenderSession(
      scene: TestSupport.movingScene(), outputs: [try OutputTarget(path: f.path("new.webm"))], ffmpeg: ffmpeg)
    #expect(throws: VideoError.self) { try session.run() }
    do {
      try session.run()
    } catch let error as VideoError {
      guard case .ffmpegKilled(_, let signal, _) = error else {
        Issue.record("unexpected \(error)")
        return
      }
      expectEqual(signal, 9)
    }
    #expect(try TestSupport.contents(f.out).isEmpty)
  }

  @Test func outputsAreCommittedOnlyWhenAllSucceeded() throws {
    let f = try Fixture()
    defer { f.cleanup() }
    try f.keep("bad.mp4")
    // Encodes normally, except that the output named bad… fails after reading every frame.
    let script = try Self.fakeFFmpeg(
      Self.realFFmpeg(failingWhen: "$out", matches: "*bad*", message: "late failure"), in: f.bin)
    let session = RenderSession(
      scene: TestSupport.movingScene(),
      outputs: try ["good.mp4", "good.gif", "frames/", "bad.mp4"].map { try OutputTarget(path: f.path($0)) },
      ffmpeg: FFmpegTool(path: script, version: "5.1"))
    #expect(throws: VideoError.self) { try session.run() }
    try f.expectKept("bad.mp4")
    try expectEqual(TestSupport.contents(f.out), ["bad.mp4"], "the good outputs are not committed either")
  }

  /// The palette pass succeeds and the encoding pass fails: nothing is committed, and neither
  /// the partial GIF nor the palette between the passes is left.
  @Test func aGIFWhoseSecondPassFailsLeavesNothingBehind() throws {
    let f = try Fixture()
    defer { f.cleanup() }
    try f.keep("keep.gif")
    let script = try Self.fakeFFmpeg(
      Self.realFFmpeg(failingWhen: "$*", matches: "*paletteuse*", message: "second pass failed"), in: f.bin)
    let session = RenderSession(
      scene: TestSupport.movingScene(), outputs: [try OutputTarget(path: f.path("keep.gif"))],
      ffmpeg: FFmpegTool(path: script, version: "5.1"))
    do {
      try session.run()
      Issue.record("the render should fail")
    } catch let error as VideoError {
      #expect(error.description.contains("second pass failed"))
    }
    try f.expectKept("keep.gif")
    try expectEqual(TestSupport.contents(f.out), ["keep.gif"])
  }

  // MARK: - Command line

  static let template = """
    { flick: 1, canvas: { width: 64, height: 48, fps: 10, duration: 1, background: "#102030" },
      layers: [ { id: "a", size: [16, 16], position: [8, 24], cornerRadius: 4, backgroundColor: "#F97316" } ],
      timeline: [ { target: "a", property: "position", to: [56, 24], at: 0, duration: 1, curve: "linear" } ] }
    """

  static func writeTemplate(_ text: String = template, in f: Fixture, named name: String = "t.json5") throws -> String {
    let path = f.dir.appendingPathComponent(name).path
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    return path
  }

  @Test func commandLineFailuresExitWith3AndKeepTheDestination() throws {
    let f = try Fixture()
    defer { f.cleanup() }
    let template = try Self.writeTemplate(in: f)
    try f.keep("keep.mp4")
    _ = try Self.fakeFFmpeg(Self.failEarly, in: f.bin)
    let env = TestSupport.environment(path: f.bin.path + ":/usr/bin:/bin")
    let failed = try TestSupport.run(
      TestSupport.flick, ["render", template, "-o", f.path("keep.mp4"), "-q"], environment: env)
    expectEqual(failed.status, 3)
    #expect(failed.stderr.contains("ffmpeg failed writing"))
    #expect(failed.stderr.contains("out of cheese"))
    try f.expectKept("keep.mp4")
    try expectEqual(TestSupport.contents(f.out), ["keep.mp4"])

    _ = try Self.fakeFFmpeg(Self.dieMidStream, in: f.bin)
    let killed = try TestSupport.run(
      TestSupport.flick, ["render", template, "-o", f.path("keep.mp4"), "-q"], environment: env)
    expectEqual(killed.status, 3)
    #expect(killed.stderr.contains("killed by signal 9"))
    try f.expectKept("keep.mp4")
    try expectEqual(TestSupport.contents(f.out), ["keep.mp4"])
  }

  @Test func missingOrOldFFmpegSaysHowToInstall() throws {
    let f = try Fixture()
    defer { f.cleanup() }
    let template = try Self.writeTemplate(in: f)
    let onlyBin = TestSupport.environment(path: f.bin.path)
    let render = ["render", template, "-o", f.path("a.mp4")]
    let missing = try TestSupport.run(TestSupport.flick, render, environment: onlyBin)
    expectEqual(missing.status, 3)
    #expect(missing.stderr.contains("ffmpeg was not found"))
    #expect(missing.stderr.contains("apt-get install ffmpeg"))
    _ = try Self.fakeFFmpeg("exit 0", version: "3.4.8", in: f.bin)
    let old = try TestSupport.run(TestSupport.flick, render, environment: onlyBin)
    expectEqual(old.status, 3)
    #expect(old.stderr.contains("ffmpeg 3.4.8 is too old"))
    #expect(old.stderr.contains("install"))
    #expect(try TestSupport.contents(f.out).isEmpty)
  }

  /// ffmpeg is checked only to explain a failure: a render whose encoders succeed starts one
  /// ffmpeg per ffmpeg pass and no check (`-encoders`, `-version`), and one whose ffmpeg lacks the
  /// encoder still ends with the check's message and install hint.
  @Test func ffmpegIsCheckedOnlyToExplainAFailure() throws {
    let f = try Fixture()
    defer { f.cleanup() }
    let template = try Self.writeTemplate(in: f)
    let log = f.dir.appendingPathComponent("calls.log").path
    let real = "$(PATH=/usr/local/bin:/usr/bin:/bin command -v ffmpeg)"
    _ = try TestSupport.script(
      """
      echo "$*" >> '\(log)'
      exec \(real) "$@"

      """, named: "ffmpeg", in: f.bin)
    let env = TestSupport.environment(path: f.bin.path + ":/usr/bin:/bin")
    let ok = try TestSupport.run(
      TestSupport.flick, ["render", template, "-o", f.path("a.mp4"), "-o", f.path("a.gif"), "-q"], environment: env)
    expectEqual(ok.status, 0, "\(ok.stderr)")
    let calls = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
    // The GIF's palette is Flick's: its one ffmpeg is the encoding pass.
    expectEqual(calls.count, 2, "one MP4 encoder and the GIF's encoding pass: \(calls)")
    #expect(calls.filter { $0.contains("paletteuse") }.count == 1 && !calls.contains { $0.contains("palettegen") })
    #expect(!calls.contains { $0.contains("-encoders") || $0.contains("-version") }, "\(calls)")

    // An ffmpeg built without libx264: the check runs after the encoder failed, and explains it.
    _ = try TestSupport.script(
      """
      case "$*" in
        *-encoders*) \(real) "$@" 2>&1 | grep -v libx264 >&2; exit 0;;
        *libx264*) echo "Unknown encoder 'libx264'" >&2; exit 1;;
      esac
      exec \(real) "$@"

      """, named: "ffmpeg", in: f.bin)
    let missing = try TestSupport.run(
      TestSupport.flick, ["render", template, "-o", f.path("b.mp4"), "-q"], environment: env)
    expectEqual(missing.status, 3, "\(missing.stderr)")
    #expect(missing.stderr.contains("libx264"), "\(missing.stderr)")
    #expect(
      !missing.stderr.contains("Unknown encoder"), "the check's message replaces the encoder's: \(missing.stderr)")
    try expectEqual(TestSupport.contents(f.out), ["a.gif", "a.mp4"])

    // Not an ffmpeg at all: it reads the frames and exits 0 without writing anything.
    let cat = try TestSupport.script("exec cat > /dev/null\n", named: "ffmpeg", in: f.bin)
    for name in ["c.mp4", "c.gif"] {
      let notFFmpeg = try TestSupport.run(
        TestSupport.flick, ["render", template, "-o", f.path(name), "-q"],
        environment: env.merging(["FLICK_FFMPEG": cat]) { $1 })
      expectEqual(notFFmpeg.status, 3, "\(notFFmpeg.stderr)")
      #expect(notFFmpeg.stderr.contains("does not answer as ffmpeg"), "\(notFFmpeg.stderr)")
      #expect(!notFFmpeg.stderr.contains("No such file"), "\(notFFmpeg.stderr)")
    }
    try expectEqual(TestSupport.contents(f.out), ["a.gif", "a.mp4"])
  }

  @Test func invalidRequestsExitWith2BeforeRendering() throws {
    let f = try Fixture()
    defer { f.cleanup() }
    let odd = try Self.writeTemplate(
      Self.template.replacingOccurrences(of: "width: 64", with: "width: 65"), in: f, named: "odd.json5")
    let r = try TestSupport.run(TestSupport.flick, ["render", odd, "-o", f.path("a.mp4")])
    expectEqual(r.status, 2)
    // 66x48 would not keep 65×48's aspect ratio (--size wants 66x49): the even size --size takes.
    #expect(r.stderr.contains("render at --size 68x50 "), "\(r.stderr)")
    #expect(r.stderr.contains("--pad"))
    let padded = try TestSupport.run(TestSupport.flick, ["render", odd, "-o", f.path("a.mp4"), "--pad", "-q"])
    expectEqual(padded.status, 0, "\(padded.stderr)")
    let info = try TestSupport.probe(f.path("a.mp4"), "stream=width,height")
    #expect(info["width"] == "66" && info["height"] == "48")
    let template = try Self.writeTemplate(in: f)
    for args in [
      ["--frames", "5..10"], ["--size", "100x100"], ["--format", "avi"], ["--crf", "99"], ["--jobs", "0"],
    ] {
      let bad = try TestSupport.run(TestSupport.flick, ["render", template, "-o", f.path("b.mp4")] + args)
      expectEqual(bad.status, 2, "\(args): \(bad.stderr)")
    }
    // One destination twice: both encoders would write the same temporary file.
    for pair in [["b.gif", "b.gif"], ["seq/", "seq/%04d.png"], ["c.mp4", "./c.mp4"]] {
      let twice = try TestSupport.run(
        TestSupport.flick, ["render", template, "-o", f.path(pair[0]), "-o", f.path(pair[1])])
      expectEqual(twice.status, 2, "\(pair): \(twice.stderr)")
      #expect(twice.stderr.contains("is given twice as an output"), "\(pair): \(twice.stderr)")
    }
    try expectEqual(TestSupport.contents(f.out), ["a.mp4"])
  }
}
