import FlickExpectations
import FlickTestSupport
import Foundation
import Testing

/// gifsicle is an optional lossless pass (docs/video.md, "gifsicle on every GIF"): when it fails,
/// cannot start or hangs, `flick render` keeps Flick's own GIF, the file `FLICK_GIFSICLE=none`
/// writes byte for byte, and warns, naming gifsicle, that its bytes are not an optimised run's.
/// Its failure read "cannot start ffmpeg: … could not optimise" and failed the render (exit 3, no
/// GIF). A batch job, whose id names the gifsicle, fails instead, with a message naming it.
@Suite struct GIFOptimizerFailureTests {
  typealias Fixture = FailureTests.Fixture

  /// A stand-in gifsicle in `f.bin` that fails, cannot be started (its interpreter is missing)
  /// or hangs.
  static func gifsicle(_ kind: String, in f: Fixture) throws -> String {
    switch kind {
    case "fails":
      return try TestSupport.script("echo 'gifsicle: out of cheese' >&2; exit 1", named: "gifsicle", in: f.bin)
    case "hangs":
      return try TestSupport.script("exec sleep 600", named: "gifsicle", in: f.bin)
    default:
      let path = f.bin.appendingPathComponent("gifsicle").path
      try Data("#!/nonexistent/interpreter\n".utf8).write(to: URL(fileURLWithPath: path))
      try ExecutableScript.settle(path)
      return path
    }
  }

  static func flick(_ args: [String], gifsicle: String, in f: Fixture) throws -> ProcessRunner.Output {
    var environment = ProcessInfo.processInfo.environment
    environment["FLICK_GIFSICLE"] = gifsicle
    return try ProcessRunner.run(TestSupport.flick, args, environment: environment, directory: f.dir.path)
  }

  @Test(arguments: ["fails", "cannot start", "hangs"])
  func aFailingGifsicleLeavesFlicksOwnGIFAndAWarning(_ kind: String) throws {
    let f = try Fixture()
    defer { f.cleanup() }
    let template = try FailureTests.writeTemplate(in: f)
    let gifsicle = try Self.gifsicle(kind, in: f)
    let reason = ["fails": "it exited with status 1: gifsicle: out of cheese", "hangs": "it made no progress for 2 s"][
      kind, default: "it could not be started"]
    // -q keeps the warning: the file is not the one asked for.
    for quiet in [[], ["-q"]] {
      let r = try Self.flick(
        ["render", template, "-o", f.path("a.gif"), "--encoder-timeout", "2"] + quiet, gifsicle: gifsicle, in: f)
      expectEqual(r.status, 0, "\(kind): \(r.stderr)")
      #expect(!r.stderr.contains("cannot start ffmpeg"), "\(kind): \(r.stderr)")
      #expect(r.stderr.contains("warning: gifsicle \(gifsicle) could not optimise"), "\(kind): \(r.stderr)")
      #expect(r.stderr.contains(reason), "\(kind): \(r.stderr)")
      #expect(
        r.stderr.contains("not the bytes (nor the size) a render with a working gifsicle writes"),
        "\(kind): \(r.stderr)")
    }
    let own = try ProcessRunner.run(
      TestSupport.flick, ["render", template, "-o", f.path("b.gif"), "-q"],
      environment: ProcessInfo.processInfo.environment.merging(["FLICK_GIFSICLE": "none"]) { $1 })
    expectEqual(own.status, 0, "\(own.stderr)")
    try expectEqual(
      Data(contentsOf: URL(fileURLWithPath: f.path("a.gif"))), Data(contentsOf: URL(fileURLWithPath: f.path("b.gif"))),
      "the GIF kept is not Flick's own")
    try expectEqual(TestSupport.contents(f.out), ["a.gif", "b.gif"])
  }

  /// In a batch run the job fails (exit 3, tried again with --retries): its stamp would name a
  /// gifsicle that did not make its bytes.
  @Test func aFailingGifsicleFailsABatchJobNamingIt() throws {
    let f = try Fixture()
    defer { f.cleanup() }
    _ = try FailureTests.writeTemplate(in: f)
    try Data(#"{ flick: 1, output: "out", renders: [ { template: "t.json5", formats: ["gif"] } ] }"#.utf8)
      .write(to: f.dir.appendingPathComponent("m.json5"))
    let gifsicle = try Self.gifsicle("fails", in: f)
    let planned = try Self.flick(["plan", "m.json5", "-o", "plan.json"], gifsicle: gifsicle, in: f)
    expectEqual(planned.status, 0, "\(planned.stderr)")
    let r = try Self.flick(["run", "plan.json", "--progress", "json"], gifsicle: gifsicle, in: f)
    expectEqual(r.status, 3, "\(r.stderr)")
    #expect(r.stderr.contains("gifsicle \(gifsicle) failed: it exited with status 1"), "\(r.stderr)")
    #expect(!r.stderr.contains("cannot start ffmpeg"), "\(r.stderr)")
    let written = FileManager.default.enumerator(atPath: f.out.path)?.compactMap { $0 as? String } ?? []
    expectEqual(written.filter { $0.hasSuffix(".gif") || $0.hasSuffix(".partial") }, [])
  }
}
