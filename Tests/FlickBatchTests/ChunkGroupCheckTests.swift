import FlickExpectations
import FlickTestSupport
import FlickVideo
import Foundation
import Testing

@testable import FlickBatch

/// `flick merge` checks its small MP4 chunks several to an ffmpeg (each start is about 0.08 s of
/// CPU; ``ChunkVerifier/videoGroup(width:height:)``), and a group with anything wrong a chunk at
/// a time, so that the chunk at fault is named as a check of it alone names it.
@Suite struct ChunkGroupCheckTests {
  typealias F = BatchFixtures

  /// Twelve frames of `slide` in two-frame chunks: six MP4 chunks of 128 × 72, checked by one ffmpeg.
  static let manifest = """
    { flick: 1, output: "out", renders: [
      { template: "slide.json5", name: "two", frames: [24, 35], chunk: 2, formats: ["mp4"] },
    ] }
    """

  /// An ffmpeg that notes each run's arguments (one line each) in `log`, then runs ffmpeg.
  static func wrapper(in dir: URL, log: URL) throws -> URL {
    let real = try #require(
      ["/usr/bin/ffmpeg", "/usr/local/bin/ffmpeg"].first { FileManager.default.isExecutableFile(atPath: $0) })
    let script = dir.appendingPathComponent("ffmpeg-noting")
    try """
    #!/bin/sh
    printf '%s\\n' "$*" >> '\(log.path)'
    exec \(real) "$@"
    """.write(to: script, atomically: true, encoding: .utf8)
    try ExecutableScript.settle(script.path)
    return script
  }

  /// The environment of a `flick` whose ffmpeg notes its runs (``wrapper(in:log:)``) in the log
  /// `dir/ffmpeg.log`.
  static func notingEnvironment(in dir: URL) throws -> (environment: [String: String], log: URL) {
    let log = dir.appendingPathComponent("ffmpeg.log")
    var environment = F.cleanEnvironment
    environment["FLICK_FFMPEG"] = try wrapper(in: dir, log: log).path
    return (environment, log)
  }

  /// The chunk checks among the noted runs (`framecrc` decodes): those of several chunks at once,
  /// those of one, and the one-frame decodes that find a refused chunk's size.
  static func checks(_ log: URL) throws -> (groups: [String], singles: [String], sizes: [String]) {
    let runs = try String(contentsOf: log, encoding: .utf8).split(separator: "\n").map(String.init)
    let checks = runs.filter { $0.contains("-f framecrc") }
    func inputs(_ run: String) -> Int { run.components(separatedBy: " -i ").count - 1 }
    let sizes = checks.filter { $0.contains(" -frames:v 1 ") }
    let rest = checks.filter { !$0.contains(" -frames:v 1 ") }
    return (rest.filter { inputs($0) > 1 }, rest.filter { inputs($0) == 1 }, sizes)
  }

  @Test func sixChunksTakeOneFFmpegAndABrokenOneIsNamed() throws {
    let dir = try ChunkEqualityTests.workspace(Self.manifest)
    defer { try? FileManager.default.removeItem(at: dir) }
    let (environment, log) = try Self.notingEnvironment(in: dir)
    let chunks = dir.appendingPathComponent("out/.flick/chunks/two/default/128x72")
    let second = chunks.appendingPathComponent("1.mp4")
    let original = try Data(contentsOf: second)

    // Cut short, the second chunk fails its group; the group's chunks are then checked one by one
    // up to it, and the error is the one a check of it alone gives.
    try original.prefix(original.count / 2).write(to: second)
    let cut = try F.flick(["merge", "plan.json"], in: dir, environment: environment)
    expectEqual(cut.status, 2, "\(cut.stderr)")
    #expect(cut.stderr.contains("1.mp4 does not decode; expected an H.264 stream"), "\(cut.stderr)")
    var checks = try Self.checks(log)
    expectEqual(checks.groups.count, 1, "\(checks)")
    expectEqual(checks.singles.count, 2, "\(checks)")
    expectEqual(checks.sizes.count, 1, "\(checks)")
    #expect(checks.groups.first?.contains("-max_pixels 12288") == true, "\(checks)")
    #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("out/two/default/128x72.mp4").path))

    // Intact: one ffmpeg for the six, none alone; the clip is joined.
    try original.write(to: second)
    try FileManager.default.removeItem(at: log)
    let merged = try F.flick(["merge", "plan.json"], in: dir, environment: environment)
    expectEqual(merged.status, 0, "\(merged.stderr)")
    checks = try Self.checks(log)
    expectEqual(checks.groups.count, 1, "\(checks)")
    expectEqual(checks.groups.first?.components(separatedBy: " -i ").count, 7, "\(checks)")
    expectEqual(checks.singles.count, 0, "\(checks)")
    let probe = try F.probe(dir.appendingPathComponent("out/two/default/128x72.mp4").path)
    expectEqual(probe.frames, 12, "\(probe)")
  }

  /// A group's frames hold together no more pixels than one 1080p frame, eight chunks at most.
  @Test func groupsAreSizedByTheFrames() {
    expectEqual(ChunkVerifier.videoGroup(width: 128, height: 72), 8)
    expectEqual(ChunkVerifier.videoGroup(width: 960, height: 540), 4)
    expectEqual(ChunkVerifier.videoGroup(width: 1280, height: 720), 2)
    expectEqual(ChunkVerifier.videoGroup(width: 1920, height: 1080), 1)
    expectEqual(ChunkVerifier.videoGroup(width: 3840, height: 2160), 1)
    expectEqual(ChunkVerifier.videoGroup(width: Int.max, height: 2), 1)
    expectEqual(ChunkVerifier.videoGroup(width: 0, height: 0), 1)
  }

  @Test func framecrcLinesGiveEachStreamsFramesAndTheirSizes() throws {
    let dir = try F.workspace()
    defer { try? FileManager.default.removeItem(at: dir) }
    for (name, extra) in [("a", ["--frames", "24..28"]), ("b", ["--frames", "24..35"])] {
      let r = try F.flick(["render", "slide.json5", "-q", "-o", "\(name).mp4"] + extra, in: dir)
      expectEqual(r.status, 0, "\(r.stderr)")
    }
    let check = ChunkVerifier.sizeCheck(width: 128, height: 72)
    let run = try ProcessRunner.run(
      "/usr/bin/ffmpeg",
      [
        "-hide_banner", "-nostdin", "-xerror", "-v", "error", "-i", "a.mp4", "-i", "b.mp4", "-map", "0:v:0", "-map",
        "1:v:0", "-filter:v:0", check, "-filter:v:1", check, "-f", "framecrc", "-",
      ], directory: dir.path)
    expectEqual(run.status, 0, "\(run.stderr)")
    expectEqual(
      ChunkVerifier.frameFacts(run.text, streams: 2),
      [ChunkVerifier.FrameFacts(frames: 5), ChunkVerifier.FrameFacts(frames: 12)], "\(run.text)")
    // A frame of another size in bytes (not 8-bit 4:2:0), a line that is not a frame's, a stream
    // outside the check.
    let other = ChunkVerifier.frameFacts("#tb 0: 1/30\n0, 0, 0, 1, 12, 0x01\n", streams: 1)
    expectEqual(other, [ChunkVerifier.FrameFacts(frames: 1, allFourTwoZero: false)])
    expectEqual(ChunkVerifier.frameFacts("0, 0, 0, 1, 6\n", streams: 1), nil)
    expectEqual(ChunkVerifier.frameFacts("1, 0, 0, 1, 6, 0x01\n", streams: 1), nil)
    expectEqual(ChunkVerifier.frameFacts("", streams: 2), [ChunkVerifier.FrameFacts(), ChunkVerifier.FrameFacts()])
  }

  /// The decoder's cap covers the width it counts, rounded up to 64, so a group of a size that is
  /// not a multiple of 64 is checked as one (it used to fail the cap and be checked chunk by chunk).
  @Test func aSizeThatIsNotAMultipleOf64IsCheckedAsAGroup() throws {
    let manifest = """
      { flick: 1, output: "out", renders: [
        { template: "slide.json5", name: "two", frames: [24, 29], chunk: 2, formats: ["mp4"], sizes: ["100x56"] },
      ] }
      """
    let dir = try ChunkEqualityTests.workspace(manifest)
    defer { try? FileManager.default.removeItem(at: dir) }
    let (environment, log) = try Self.notingEnvironment(in: dir)
    let merged = try F.flick(["merge", "plan.json"], in: dir, environment: environment)
    expectEqual(merged.status, 0, "\(merged.stderr)")
    let checks = try Self.checks(log)
    expectEqual(checks.groups.count, 1, "\(checks)")
    expectEqual(checks.singles.count, 0, "\(checks)")
    expectEqual(FFmpegCommand.decoderPixels(width: 100, height: 56), 128 * 64)
    expectEqual(FFmpegCommand.decoderPixels(width: 1920, height: 1080), 1920 * 1088)
  }

  /// A clip of odd sides padded to even ones (`pad`): its chunks are the padded size, which the
  /// check expects (it used to expect the plan's odd size and refuse every chunk).
  @Test func chunksPaddedToEvenSidesMerge() throws {
    let manifest = """
      { flick: 1, output: "out", renders: [
        { template: "slide.json5", name: "odd", frames: [24, 29], chunk: 2, formats: ["mp4"], sizes: ["101x57"],
          encoding: { pad: true } },
      ] }
      """
    let dir = try ChunkEqualityTests.workspace(manifest)
    defer { try? FileManager.default.removeItem(at: dir) }
    let merged = try F.flick(["merge", "plan.json"], in: dir, environment: F.cleanEnvironment)
    expectEqual(merged.status, 0, "\(merged.stderr)")
    let clip = dir.appendingPathComponent("out/odd/default/101x57.mp4").path
    try expectEqual(F.streamSizes(clip), "102,58\n")
    expectEqual(try F.probe(clip).frames, 6)
    // A chunk of another even size is refused, naming the padded size expected.
    let second = dir.appendingPathComponent("out/.flick/chunks/odd/default/101x57/1.mp4")
    let single = try F.flick(
      ["render", "slide.json5", "--size", "100x56", "--frames", "26..27", "-q", "-o", second.path], in: dir)
    expectEqual(single.status, 0, "\(single.stderr)")
    let refused = try F.flick(["merge", "plan.json", "--force"], in: dir, environment: F.cleanEnvironment)
    expectEqual(refused.status, 2, "\(refused.stderr)")
    #expect(refused.stderr.contains("1.mp4 is 100×56; expected an H.264 stream of 102×58 pixels"), "\(refused.stderr)")
  }
}
