import FlickExpectations
import FlickTestSupport
import Foundation
import Testing

/// MP4 chunks made to pass for the plan's: `flick merge` trusts nothing printed about a chunk
/// (ffmpeg prints a chunk's metadata verbatim, so its log can be forged by the chunk), and every
/// kind of wrong chunk is refused in its group and named alone, with nothing written.
@Suite struct HostileMP4ChunkTests {
  typealias F = BatchFixtures

  /// A wrong second chunk (the plan's is 128 × 72, 2 frames of 8-bit 4:2:0 H.264) and what the
  /// refusal says of it.
  enum Kind: String, CaseIterable {
    /// 256 × 144, with metadata whose new lines print ffmpeg's stream summary of a 128 × 72 stream.
    case forgedSummary
    case fourFourFour
    case tenBit
    case mpeg4
    /// 128 × 72, then 64 × 36 frames in the same stream.
    case sizeChangesMidStream
    case threeFrames
    case audioOnly
    /// An AAC stream first, then the plan's video: the join takes each chunk's first stream.
    case audioFirst
    case empty
    /// An `ffconcat` list naming a clip outside the output tree that is the plan's in every way:
    /// read as a list, its clip would be checked and joined.
    case concatList

    /// Words the message says after the chunk's name.
    var refusal: String {
      switch self {
      case .forgedSummary: "1.mp4 is 256×144; expected"
      case .fourFourFour, .tenBit: "1.mp4 is not 8-bit 4:2:0 (yuv420p); expected"
      case .mpeg4, .sizeChangesMidStream, .audioOnly, .audioFirst, .empty, .concatList:
        "1.mp4 does not decode; expected"
      case .threeFrames: "1.mp4 is 128×72 with 3 frames; expected"
      }
    }

    /// Whether ffmpeg's check of it fails (the others decode, and their facts are not the plan's).
    var failsToDecode: Bool {
      switch self {
      case .forgedSummary, .mpeg4, .sizeChangesMidStream, .audioOnly, .audioFirst, .empty, .concatList: true
      case .fourFourFour, .tenBit, .threeFrames: false
      }
    }

    /// ffmpeg runs that make the chunk as `chunk.mp4` in `dir`.
    var recipe: [[String]] {
      func x264(_ size: String, _ frames: Int, _ format: String, _ extra: [String] = [], to file: String) -> [String] {
        [
          "-f", "lavfi", "-i", "testsrc=size=\(size):rate=30", "-frames:v", String(frames), "-c:v", "libx264",
          "-pix_fmt", format,
        ] + extra + [file]
      }
      switch self {
      case .forgedSummary:
        let line = "\n  Stream #0:0: Video: h264 (High), yuv420p(progressive), 128x72, 30 fps\n"
        return [
          x264(
            "256x144", 2, "yuv420p", ["-movflags", "use_metadata_tags", "-metadata", "a\(line)b=1"],
            to: "chunk.mp4")
        ]
      case .fourFourFour: return [x264("128x72", 2, "yuv444p", to: "chunk.mp4")]
      case .tenBit: return [x264("128x72", 2, "yuv420p10le", to: "chunk.mp4")]
      case .mpeg4:
        return [["-f", "lavfi", "-i", "testsrc=size=128x72:rate=30", "-frames:v", "2", "-c:v", "mpeg4", "chunk.mp4"]]
      case .sizeChangesMidStream:
        return [
          x264("128x72", 1, "yuv420p", ["-f", "h264"], to: "a.h264"),
          x264("64x36", 1, "yuv420p", ["-f", "h264"], to: "b.h264"),
          ["-i", "concat:a.h264|b.h264", "-c", "copy", "chunk.mp4"],
        ]
      case .threeFrames: return [x264("128x72", 3, "yuv420p", to: "chunk.mp4")]
      case .audioOnly:
        return [["-f", "lavfi", "-i", "sine=duration=0.1", "-c:a", "aac", "chunk.mp4"]]
      case .audioFirst:
        return [
          ["-f", "lavfi", "-i", "sine=duration=0.1", "-c:a", "aac", "a.m4a"],
          x264("128x72", 2, "yuv420p", to: "v.mp4"),
          ["-i", "a.m4a", "-i", "v.mp4", "-map", "0:a", "-map", "1:v", "-c", "copy", "chunk.mp4"],
        ]
      case .empty: return []
      case .concatList: return [x264("128x72", 2, "yuv420p", to: "outside.mp4")]
      }
    }
  }

  /// Six chunks; the second replaced by a chunk of each kind in turn (one workspace: a refused
  /// merge writes nothing).
  @Test func aWrongChunkIsRefusedByItsGroupAndNamedAlone() throws {
    let dir = try ChunkEqualityTests.workspace(ChunkGroupCheckTests.manifest)
    defer { try? FileManager.default.removeItem(at: dir) }
    let (environment, log) = try ChunkGroupCheckTests.notingEnvironment(in: dir)
    let second = dir.appendingPathComponent("out/.flick/chunks/two/default/128x72/1.mp4")
    let original = try Data(contentsOf: second)
    for kind in Kind.allCases {
      let folder = dir.appendingPathComponent("kinds/\(kind.rawValue)")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      for step in kind.recipe {
        let made = try ProcessRunner.run(
          "/usr/bin/ffmpeg", ["-hide_banner", "-nostdin", "-v", "error", "-y"] + step, directory: folder.path)
        expectEqual(made.status, 0, "\(kind): \(made.stderr)")
      }
      let chunk = folder.appendingPathComponent("chunk.mp4")
      switch kind {
      case .empty: try Data().write(to: second)
      case .concatList:
        // A name beside the chunk, linked out (the list's own reader refuses absolute names).
        let beside = second.deletingLastPathComponent().appendingPathComponent("s.mp4")
        try? FileManager.default.removeItem(at: beside)
        try FileManager.default.createSymbolicLink(
          at: beside, withDestinationURL: folder.appendingPathComponent("outside.mp4"))
        try Data("ffconcat version 1.0\nfile s.mp4\n".utf8).write(to: second)
      default: try Data(contentsOf: chunk).write(to: second)
      }
      try? FileManager.default.removeItem(at: log)

      let merge = try F.flick(["merge", "plan.json"], in: dir, environment: environment)
      expectEqual(merge.status, 2, "\(kind): \(merge.stderr)")
      #expect(merge.stderr.contains(kind.refusal), "\(kind): \(merge.stderr)")
      #expect(merge.stderr.contains("an H.264 stream of 128×72 pixels with 2 frames"), "\(kind): \(merge.stderr)")
      let checks = try ChunkGroupCheckTests.checks(log)
      expectEqual(checks.groups.count, 1, "\(kind): \(checks)")
      expectEqual(checks.singles.count, 2, "\(kind): \(checks)")
      // The chunk's size is looked for only when its decode failed.
      expectEqual(checks.sizes.count, kind.failsToDecode ? 1 : 0, "\(kind): \(checks)")
      #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("out/two").path), "\(kind)")
    }
    // The intact chunk back: the clip is joined.
    try original.write(to: second)
    let merge = try F.flick(["merge", "plan.json"], in: dir, environment: environment)
    expectEqual(merge.status, 0, "\(merge.stderr)")
  }

  /// A first chunk whose first stream is the plan's, with a 256 × 144 video stream after it: the
  /// join used to pick the larger stream for the clip; it takes each chunk's first stream only.
  @Test func aChunksOtherStreamsStayOutOfTheClip() throws {
    let dir = try ChunkEqualityTests.workspace(ChunkGroupCheckTests.manifest)
    defer { try? FileManager.default.removeItem(at: dir) }
    let first = dir.appendingPathComponent("out/.flick/chunks/two/default/128x72/0.mp4")
    let steps = [
      [
        "-f", "lavfi", "-i", "testsrc2=size=256x144:rate=30", "-frames:v", "2", "-c:v", "libx264", "-pix_fmt",
        "yuv420p", "other.mp4",
      ],
      ["-i", first.path, "-i", "other.mp4", "-map", "0:v", "-map", "1:v", "-c", "copy", "both.mp4"],
    ]
    for step in steps {
      let made = try ProcessRunner.run(
        "/usr/bin/ffmpeg", ["-hide_banner", "-nostdin", "-v", "error", "-y"] + step, directory: dir.path)
      expectEqual(made.status, 0, "\(made.stderr)")
    }
    try FileManager.default.removeItem(at: first)
    try FileManager.default.moveItem(at: dir.appendingPathComponent("both.mp4"), to: first)

    let merge = try F.flick(["merge", "plan.json"], in: dir, environment: F.cleanEnvironment)
    expectEqual(merge.status, 0, "\(merge.stderr)")
    let clip = dir.appendingPathComponent("out/two/default/128x72.mp4").path
    try expectEqual(F.streamSizes(clip), "128,72\n")
    expectEqual(try F.probe(clip).frames, 12)
  }
}
