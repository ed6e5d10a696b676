import FlickExpectations
import FlickMotion
import FlickScene
import FlickVideo
import Foundation
import Testing

/// Encoders started before the scene is complete (``EarlyEncoders``, `flick render` starting
/// ffmpeg while the template compiles): the render takes over the ones started with its exact
/// settings, the output's bytes do not depend on it, and an encoder not taken over (another
/// setting, a template error after ffmpeg started) is killed and reaped with its temporary file
/// removed.
@Suite struct EarlyEncoderTests {
  typealias Fixture = FailureTests.Fixture

  /// The MP4 of `session` rendered to `name`, with the encoders started early from `early`
  /// (nil: none).
  static func render(_ session: RenderSession, to path: String, early: RenderSession?) throws -> Data {
    var session = session
    session.outputs = [try OutputTarget(path: path)]
    let encoders = EarlyEncoders()
    defer { encoders.abortUnclaimed() }
    if var early {
      early.outputs = session.outputs
      early.startEncoders(into: encoders, ffmpeg: try FFmpegTool.locate(for: [.mp4]))
      expectEqual(encoders.unclaimedCount, 1, "the encoder started early")
    }
    try session.run(early: encoders, beforeFirstFrame: {}, progress: { _ in })
    expectEqual(encoders.unclaimedCount, 0)
    return try Data(contentsOf: URL(fileURLWithPath: path))
  }

  @Test func anEncoderStartedEarlyIsTakenOverAndTheBytesAreTheSame() throws {
    let f = try Fixture()
    defer { f.cleanup() }
    let session = RenderSession(scene: TestSupport.movingScene(), outputs: [])
    // The canvas alone (no layers, no animations) gives the encoder all it needs.
    var canvas = session
    canvas.scene.layers = []
    canvas.scene.animations = []
    let plain = try Self.render(session, to: f.path("plain.mp4"), early: nil)
    let early = try Self.render(session, to: f.path("early.mp4"), early: canvas)
    #expect(!plain.isEmpty)
    expectEqual(plain, early)
    try expectEqual(TestSupport.contents(f.out), ["early.mp4", "plain.mp4"])
  }

  /// An encoder started with other settings (another size, rate or background) is stopped, and
  /// the render starts its own: the bytes are those of a render without it.
  @Test func anEncoderStartedWithOtherSettingsIsReplaced() throws {
    let f = try Fixture()
    defer { f.cleanup() }
    let session = RenderSession(scene: TestSupport.movingScene(), outputs: [])
    let plain = try Self.render(session, to: f.path("plain.mp4"), early: nil)
    var others: [RenderSession] = [session, session, session]
    others[0].scale = 2
    others[1].scene = TestSupport.movingScene(fps: 11)
    others[2].scene = TestSupport.movingScene(background: Color(red: 0.5, green: 0.25, blue: 0))
    for (i, other) in others.enumerated() {
      let bytes = try Self.render(session, to: f.path("other\(i).mp4"), early: other)
      expectEqual(bytes, plain, "settings \(i)")
    }
    try expectEqual(TestSupport.contents(f.out), ["other0.mp4", "other1.mp4", "other2.mp4", "plain.mp4"])
  }

  @Test func encodersNotTakenOverAreStoppedAndLeaveNothing() throws {
    let f = try Fixture()
    defer { f.cleanup() }
    try f.keep("keep.mp4")
    let session = RenderSession(
      scene: TestSupport.movingScene(),
      outputs: try ["keep.mp4", "b.webm", "c.gif", "d/"].map { try OutputTarget(path: f.path($0)) })
    let early = EarlyEncoders()
    session.startEncoders(into: early, ffmpeg: try FFmpegTool.locate(for: [.mp4, .webm]))
    expectEqual(early.unclaimedCount, 2, "an MP4 and a WebM start early; a GIF and a PNG sequence do not")
    try expectEqual(TestSupport.contents(f.out).count, 3, "two temporary files beside keep.mp4")
    early.abortUnclaimed()
    expectEqual(early.unclaimedCount, 0)
    try f.expectKept("keep.mp4")
    try expectEqual(TestSupport.contents(f.out), ["keep.mp4"])
  }

  /// Nothing starts for an output that could not be written (a symbolic link) or a frame over
  /// the pixel cap.
  @Test func nothingStartsWhenAnOutputCheckFails() throws {
    let f = try Fixture()
    defer { f.cleanup() }
    try FileManager.default.createSymbolicLink(atPath: f.path("linked.mp4"), withDestinationPath: f.dir.path + "/x")
    var session = RenderSession(
      scene: TestSupport.movingScene(), outputs: [try OutputTarget(path: f.path("linked.mp4"))])
    let ffmpeg = try FFmpegTool.locate(for: [.mp4])
    let early = EarlyEncoders()
    defer { early.abortUnclaimed() }
    session.startEncoders(into: early, ffmpeg: ffmpeg)
    expectEqual(early.unclaimedCount, 0, "through a link")
    session.outputs = [try OutputTarget(path: f.path("a.mp4"))]
    session.limits.maximumPixels = 10
    session.startEncoders(into: early, ffmpeg: ffmpeg)
    expectEqual(early.unclaimedCount, 0, "over the pixel cap")
    try expectEqual(TestSupport.contents(f.out), ["linked.mp4"])
  }

  /// `flick render`: a template whose canvas is valid but whose layers are not starts ffmpeg
  /// while it compiles; the error (exit 2) kills and reaps that ffmpeg and removes its
  /// temporary file.
  @Test func aTemplateErrorAfterFFmpegStartedKillsItAndLeavesNothing() throws {
    let f = try Fixture()
    defer { f.cleanup() }
    try f.keep("keep.mp4")
    let log = f.dir.appendingPathComponent("calls.log").path
    // Writes its temporary output, reads the frames, then lingers: only a kill ends it early.
    _ = try FailureTests.fakeFFmpeg(
      """
      echo "started $$" >> '\(log)'
      echo partial > "$out"
      cat > /dev/null
      sleep 30
      echo "survived" >> '\(log)'
      """, in: f.bin)
    var env = TestSupport.environment(path: f.bin.path + ":/usr/bin:/bin")
    // The start-up trace says how many encoders started; the stand-in may be killed before its
    // first line runs (the template's error can come within a millisecond of the start).
    env["FLICK_TRACE_STARTUP"] = "1"
    let broken = FailureTests.template.replacingOccurrences(of: "target: \"a\"", with: "target: \"nobody\"")
    for (name, text) in [("layers.json5", broken), ("frames.json5", FailureTests.template)] {
      let template = try FailureTests.writeTemplate(text, in: f, named: name)
      let extra = name == "frames.json5" ? ["--frames", "5..50"] : []
      let r = try TestSupport.run(
        TestSupport.flick, ["render", template, "-o", f.path("keep.mp4"), "-q"] + extra, environment: env)
      expectEqual(r.status, 2, "\(name): \(r.stderr)")
      #expect(r.stderr.contains("encoders started early: 1"), "\(name): ffmpeg started early: \(r.stderr)")
      // Never "survived"; when it got as far as logging, that process is gone.
      let calls = ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n")
      #expect(calls.count <= 1 && calls.allSatisfy { $0.hasPrefix("started ") }, "\(name): \(calls)")
      if let pid = calls.first.flatMap({ Int32($0.split(separator: " ").last ?? "") }) {
        expectEqual(kill(pid, 0), -1, "\(name): ffmpeg \(pid) was killed and reaped")
        expectEqual(errno, ESRCH, "\(name): ffmpeg \(pid) was killed and reaped")
      }
      try? FileManager.default.removeItem(atPath: log)
      try f.expectKept("keep.mp4")
      try expectEqual(TestSupport.contents(f.out), ["keep.mp4"], "\(name): no temporary file is left")
    }
  }
}
