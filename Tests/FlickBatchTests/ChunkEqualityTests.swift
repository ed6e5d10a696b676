import FlickExpectations
import FlickTestSupport
import Foundation
import Testing

@testable import FlickBatch

/// A chunked clip equals its single render, whatever the chunk size: the GIF byte for byte (one
/// palette from every frame of the clip, identical frames merged as a single render merges
/// them, the same frames chosen for a lower GIF rate, alpha included), the PNG sequence byte for
/// byte, the MP4 with the same frame count and duration (its chunks start with keyframes; each is
/// a lossy encode of its own, so its pixels differ slightly from a single render's). The merge checks its MP4
/// chunks (size, frame count, decodability) before joining them.
@Suite struct ChunkEqualityTests {
  typealias F = BatchFixtures

  /// Renders of `slide` frames 24..35 (moving, then still: identical frames) and `pulse`
  /// (translucent) at chunk sizes 1, 2 and 3.
  static let manifest = """
    { flick: 1, output: "out", renders: [
      { template: "slide.json5", name: "all1", frames: [24, 35], chunk: 1, formats: ["mp4", "gif", "png"] },
      { template: "slide.json5", name: "all2", frames: [24, 35], chunk: 2, formats: ["mp4", "gif", "png"] },
      { template: "slide.json5", name: "all3", frames: [24, 35], chunk: 3, formats: ["mp4", "gif", "png"] },
      { template: "slide.json5", name: "gif1", frames: [24, 35], chunk: 1, formats: ["gif"], encoding: { gifFps: 10 } },
      { template: "slide.json5", name: "gif2", frames: [24, 35], chunk: 2, formats: ["gif"], encoding: { gifFps: 10 } },
      { template: "slide.json5", name: "gif3", frames: [24, 35], chunk: 3, formats: ["gif"], encoding: { gifFps: 10 } },
      { template: "pulse.json5", name: "alpha2", frames: [0, 11], chunk: 2, formats: ["gif"] },
      { template: "slide.json5", name: "five", frames: [24, 35], chunk: 5, formats: ["mp4"] },
    ] }
    """

  /// The MP4 in five-frame chunks alone, for the merge's checks of its chunks.
  static let mp4Manifest = """
    { flick: 1, output: "out", renders: [
      { template: "slide.json5", name: "five", frames: [24, 35], chunk: 5, formats: ["mp4"] },
    ] }
    """

  /// A workspace with `manifest` planned and run (every chunk rendered, nothing merged).
  static func workspace(_ manifest: String = manifest) throws -> URL {
    let dir = try F.workspace()
    try manifest.write(to: dir.appendingPathComponent("chunks.json5"), atomically: true, encoding: .utf8)
    let planned = try F.flick(["plan", "chunks.json5", "-o", "plan.json"], in: dir)
    expectEqual(planned.status, 0, "\(planned.stderr)")
    let run = try F.flick(["run", "plan.json", "-q"], in: dir, environment: F.cleanEnvironment)
    expectEqual(run.status, 0, "\(run.stderr)")
    return dir
  }

  static func data(_ url: URL) throws -> Data { try Data(contentsOf: url) }

  @Test func chunkSizesOneTwoAndThreeGiveTheSingleRendersBytes() throws {
    let dir = try Self.workspace()
    defer { try? FileManager.default.removeItem(at: dir) }
    let merged = try F.flick(["merge", "plan.json"], in: dir, environment: F.cleanEnvironment)
    expectEqual(merged.status, 0, "\(merged.stderr)")
    let out = dir.appendingPathComponent("out"), single = dir.appendingPathComponent("single")
    try FileManager.default.createDirectory(at: single, withIntermediateDirectories: true)
    // The single renders, as `flick render` makes them (identical frames merged: no --every-frame).
    let renders: [[String]] = [
      ["slide.json5", "--frames", "24..35", "-o", "single/all.mp4", "-o", "single/all.gif", "-o", "single/all/"],
      ["slide.json5", "--frames", "24..35", "--gif-fps", "10", "-o", "single/gif.gif"],
      ["pulse.json5", "--frames", "0..11", "-o", "single/alpha.gif"],
    ]
    for args in renders {
      let r = try F.flick(["render"] + args + ["-q"], in: dir)
      expectEqual(r.status, 0, "\(r.stderr)")
    }
    for n in 1...3 {
      let clip = out.appendingPathComponent("all\(n)/default/128x72")
      try expectEqual(
        Self.data(clip.appendingPathExtension("gif")), Self.data(single.appendingPathComponent("all.gif")),
        "GIF at chunk \(n)")
      try expectEqual(
        F.files(in: clip), F.files(in: single.appendingPathComponent("all")), "PNG sequence at chunk \(n)")
      let a = try F.probe(clip.path + ".mp4"), b = try F.probe(single.appendingPathComponent("all.mp4").path)
      expectEqual(a.frames, 12, "MP4 at chunk \(n): \(a) vs \(b)")
      expectEqual(a.frames, b.frames, "MP4 at chunk \(n): \(a) vs \(b)")
      expectEqual(a.duration, b.duration, "MP4 at chunk \(n): \(a) vs \(b)")
      let tenFPS = out.appendingPathComponent("gif\(n)/default/128x72.gif")
      try expectEqual(
        Self.data(tenFPS), Self.data(single.appendingPathComponent("gif.gif")), "GIF at 10 fps at chunk \(n)")
    }
    let translucent = out.appendingPathComponent("alpha2/default/96x96.gif")
    try expectEqual(Self.data(translucent), Self.data(single.appendingPathComponent("alpha.gif")))
  }

  @Test func theMergeRefusesAnMP4ChunkOfTheWrongFramesOrThatDoesNotDecode() throws {
    let dir = try Self.workspace(Self.mp4Manifest)
    defer { try? FileManager.default.removeItem(at: dir) }
    let chunks = dir.appendingPathComponent("out/.flick/chunks/five/default/128x72")
    let first = chunks.appendingPathComponent("0.mp4"), last = chunks.appendingPathComponent("2.mp4")
    let original = try Data(contentsOf: first)
    // The last chunk (2 frames) in the first one's place (5 frames): same size, wrong frames.
    try Data(contentsOf: last).write(to: first)
    let swapped = try F.flick(["merge", "plan.json"], in: dir, environment: F.cleanEnvironment)
    expectEqual(swapped.status, 2, "\(swapped.stderr)")
    let expected = "0.mp4 is 128×72 with 2 frames; expected an H.264 stream of 128×72 pixels with 5 frames"
    #expect(
      swapped.stderr.contains(expected),
      "\(swapped.stderr)")
    // Cut short: does not decode.
    try original.prefix(original.count / 2).write(to: first)
    let cut = try F.flick(["merge", "plan.json"], in: dir, environment: F.cleanEnvironment)
    expectEqual(cut.status, 2, "\(cut.stderr)")
    #expect(cut.stderr.contains("0.mp4"), "\(cut.stderr)")
    #expect(cut.stderr.contains("expected an H.264 stream"), "\(cut.stderr)")
    #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("out/five/default/128x72.mp4").path))
  }
}
