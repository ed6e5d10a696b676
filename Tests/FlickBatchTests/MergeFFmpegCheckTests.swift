import FlickExpectations
import FlickTestSupport
import Foundation
import Testing

/// `flick merge` checks ffmpeg (`-encoders`, an ffmpeg start-up of its own) only to explain a
/// merge that failed, as a render checks it only to explain an encoder that failed.
@Suite struct MergeFFmpegCheckTests {
  typealias F = BatchFixtures

  /// Six frames of `slide` in two-frame chunks, joined into an MP4 and encoded into a GIF.
  static let manifest = """
    { flick: 1, output: "out", renders: [
      { template: "slide.json5", name: "clip", frames: [24, 29], chunk: 2, formats: ["mp4", "gif"] },
    ] }
    """

  /// The files under `dir/out`, Flick's own `.flick` folder left out.
  static func outputs(_ dir: URL) -> [String] {
    let out = dir.appendingPathComponent("out").path
    let all = FileManager.default.enumerator(atPath: out)?.allObjects as? [String] ?? []
    return all.filter { !$0.hasPrefix(".flick") }.sorted()
  }

  @Test func aMergeThatSucceedsStartsNoCheck() throws {
    let dir = try ChunkEqualityTests.workspace(Self.manifest)
    defer { try? FileManager.default.removeItem(at: dir) }
    let (environment, log) = try ChunkGroupCheckTests.notingEnvironment(in: dir)
    let merged = try F.flick(["merge", "plan.json", "-q"], in: dir, environment: environment)
    expectEqual(merged.status, 0, "\(merged.stderr)")
    #expect(Self.outputs(dir).contains { $0.hasSuffix(".gif") }, "\(Self.outputs(dir))")
    let runs = try String(contentsOf: log, encoding: .utf8).split(separator: "\n")
    #expect(runs.contains { $0.contains("-f concat") }, "the MP4 join: \(runs)")
    #expect(runs.contains { $0.contains("paletteuse") }, "the GIF's encoding: \(runs)")
    #expect(!runs.contains { $0.contains("-encoders") || $0.contains("-version") }, "no check: \(runs)")
  }

  /// An ffmpeg that answers the check as a version too old for Flick and refuses everything
  /// else: the merge fails with the check's message (which says how to install one), not with
  /// what the first step that ran ffmpeg concludes (the chunk decode check would blame a sound
  /// chunk), and writes no output.
  @Test func aFailedMergeIsExplainedByTheCheck() throws {
    let dir = try ChunkEqualityTests.workspace(Self.manifest)
    defer { try? FileManager.default.removeItem(at: dir) }
    let old = dir.appendingPathComponent("ffmpeg-old")
    try """
    #!/bin/sh
    case " $* " in *" -encoders "*|*" -version "*) echo "ffmpeg version 3.4.8 Copyright (c) the FFmpeg developers"; exit 0;; esac
    echo "Unrecognized option in $*" >&2
    exit 1
    """.write(to: old, atomically: true, encoding: .utf8)
    try ExecutableScript.settle(old.path)
    var environment = F.cleanEnvironment
    environment["FLICK_FFMPEG"] = old.path
    let before = Self.outputs(dir)
    let merged = try F.flick(["merge", "plan.json", "-q"], in: dir, environment: environment)
    expectNotEqual(merged.status, 0)
    #expect(merged.stderr.contains("ffmpeg 3.4.8 is too old"), "\(merged.stderr)")
    #expect(!merged.stderr.contains("Unrecognized option"), "\(merged.stderr)")
    expectEqual(Self.outputs(dir), before, "no output is written")
  }
}
