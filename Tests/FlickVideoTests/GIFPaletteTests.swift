@testable import FlickVideo
import FlickExpectations
import Foundation
import Testing

/// Flick's GIF palette is ffmpeg 5.1's `palettegen=stats_mode=diff` palette, entry for entry,
/// on frames chosen to reach every branch: ties on the sorting axis (the quicksort is not
/// stable), fewer colours than entries, one colour, transparency, holds and changes in part of
/// the frame.
@Suite struct GIFPaletteTests {
  /// A deterministic byte source (SplitMix64), so a failure can be reproduced.
  struct Bytes {
    var state: UInt64
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
  }

  /// Frames of `width × height` BGRA pixels for one case.
  static func frames(_ name: String, width: Int, height: Int) -> [[UInt8]] {
    var random = Bytes(state: UInt64(name.utf8.reduce(0) { $0 &* 31 &+ Int($1) }))
    let pixels = width * height
    func frame(_ pixel: (Int) -> (UInt8, UInt8, UInt8, UInt8)) -> [UInt8] {
      var bytes: [UInt8] = []
      bytes.reserveCapacity(pixels * 4)
      for i in 0..<pixels {
        let (b, g, r, a) = pixel(i)
        bytes += [b, g, r, a]
      }
      return bytes
    }
    switch name {
    case "one colour":
      return [frame { _ in (40, 80, 120, 255) }]
    case "few colours":
      // Twelve colours: fewer than the palette's entries, so the last one is repeated.
      return (0..<3).map { f in
        frame { i in
          let c = UInt8((i * 7 + f) % 12 * 20); return (c, 255 - c, c / 2, 255)
        }
      }
    case "ties":
      // Channels from seven values (343 colours, more than the palette holds): many colours
      // share each key the sort compares.
      let levels: [UInt8] = [0, 40, 90, 128, 170, 210, 255]
      return (0..<4).map { _ in
        frame { _ in
          let v = random.next()
          return (levels[Int(v % 7)], levels[Int((v >> 8) % 7)], levels[Int((v >> 16) % 7)], 255)
        }
      }
    case "noise":
      // Thousands of colours, so the cut runs to 255 boxes.
      return (0..<3).map { _ in
        frame { _ in
          let v = random.next(); return (UInt8(v & 255), UInt8(v >> 8 & 255), UInt8(v >> 16 & 255), 255)
        }
      }
    case "alpha":
      // Transparent, translucent and opaque pixels (colours that differ only in alpha count apart).
      return (0..<3).map { _ in
        frame { _ in
          let v = random.next()
          let a: UInt8 = [0, 255, 128, 255][Int(v % 4)]
          let c = UInt8(v >> 8 & 0xF0)
          return (c, c, UInt8(v >> 16 & 0xC0), a)
        }
      }
    case "holds and patches":
      // A gradient, the same frame again, then a patch that moves: only changed pixels count.
      var base = frame { i in (UInt8(i % width * 255 / max(1, width - 1)), UInt8(i / width * 4 % 256), 90, 255) }
      var frames = [base, base]
      for step in 0..<4 {
        for y in 2..<min(height, 9) {
          for x in (step * 5)..<min(width, step * 5 + 7) {
            let p = (y * width + x) * 4
            base[p] = 250
            base[p + 1] = UInt8(20 * step)
            base[p + 2] = 10
          }
        }
        frames.append(base)
      }
      return frames
    default:
      preconditionFailure("no case \(name)")
    }
  }

  /// What ffmpeg's `palettegen=stats_mode=diff` makes of `frames`, as its 16 × 16 BGRA image.
  static func ffmpegPalette(_ frames: [[UInt8]], width: Int, height: Int) throws -> [UInt8] {
    try TestSupport.ffmpegFiltered(
      frames, width: width, height: height, filter: "palettegen=stats_mode=diff",
      outputOptions: ["-frames:v", "1", "-pix_fmt", "bgra"])
  }

  static func flickPalette(_ frames: [[UInt8]]) -> [UInt8]? {
    flickColors(frames).map(GIFPalette.image)
  }

  /// Flick's palette entries for `frames`, added one after another as a render adds them.
  static func flickColors(_ frames: [[UInt8]]) -> [UInt32]? {
    var statistics = GIFPalette()
    for frame in frames { statistics.append(frame) }
    return statistics.palette()
  }

  @Test(arguments: [
    ("one colour", 8, 8), ("few colours", 24, 16), ("ties", 64, 48), ("noise", 80, 60), ("alpha", 40, 30),
    ("holds and patches", 40, 24), ("noise", 1, 1), ("ties", 3, 2),
  ])
  func matchesPalettegenEntryForEntry(_ name: String, _ width: Int, _ height: Int) throws {
    let frames = Self.frames(name, width: width, height: height)
    let expected = try Self.ffmpegPalette(frames, width: width, height: height)
    let palette = try #require(Self.flickPalette(frames))
    expectEqual(palette.count, 1024)
    if palette != expected {
      let differing = stride(from: 0, to: 1024, by: 4).filter { palette[$0..<($0 + 4)] != expected[$0..<($0 + 4)] }
      Issue.record("\(differing.count) entries differ, the first at \(differing.first.map { $0 / 4 } ?? -1)")
    }
  }

  /// The cut follows ffmpeg's quicksort, which leaves equal keys in its own order: sorting gives
  /// the keys in order, as a permutation, whatever the input's shape.
  @Test func quicksortSortsEveryShapeOfInput() {
    var random = Bytes(state: 7)
    let shapes: [[UInt64]] = [
      [], [5], [2, 1], (0..<50).map { UInt64($0) }, (0..<50).reversed().map { UInt64($0) },
      Array(repeating: 3, count: 40), (0..<500).map { _ in random.next() % 4 },
      (0..<3000).map { _ in random.next() % 256 },
    ]
    for keys in shapes {
      var values = keys.enumerated().map { $1 << 32 | UInt64($0) }
      values.withUnsafeMutableBufferPointer { if let base = $0.baseAddress { GIFPalette.quicksort(base, $0.count) } }
      #expect(zip(values, values.dropFirst()).allSatisfy { $0 >> 32 <= $1 >> 32 })
      expectEqual(values.map { $0 & 0xFFFF_FFFF }.sorted(), keys.indices.map { UInt64($0) })
    }
  }

  /// No frame, no palette (the encoder reports that a GIF needs one).
  @Test func noFramesNoPalette() {
    #expect(GIFPalette().palette() == nil)
  }
}

/// Flick keeps exactly the frames ffmpeg's `fps` filter keeps when it resamples a GIF itself.
@Suite struct GIFResamplingTests {
  /// For each of `counts`, the input frames (by number) `ffmpeg -vf fps=OUT` passes on from that
  /// many frames at `rate`: one ffmpeg, one input and one output (with its own `fps` filter) per
  /// count, since an ffmpeg start-up costs far more than these frames.
  static func ffmpegKeeps(_ counts: [Int], from rate: Int, to out: Int) throws -> [[Int]] {
    let dir = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    var inputs: [String] = []
    var outputs: [String] = []
    for (i, count) in counts.enumerated() {
      // 1 × 1 frames numbered in their blue and green bytes.
      let raw = dir.appendingPathComponent("in\(i).bgra")
      try Data((0..<count).flatMap { [UInt8($0 & 255), UInt8($0 >> 8), 0, 255] }).write(to: raw)
      inputs += ["-f", "rawvideo", "-pix_fmt", "bgra", "-s", "1x1", "-framerate", "\(rate)", "-i", raw.path]
      let kept = dir.appendingPathComponent("out\(i).bgra").path
      outputs += ["-map", "\(i):v", "-vf", "fps=\(out)", "-f", "rawvideo", "-pix_fmt", "bgra", kept]
    }
    let r = try TestSupport.run(
      "/usr/bin/env", ["ffmpeg", "-hide_banner", "-nostdin", "-loglevel", "error"] + inputs + outputs)
    expectEqual(r.status, 0, "ffmpeg: \(r.stderr)")
    return try counts.indices.map { i in
      let bytes = [UInt8](try Data(contentsOf: dir.appendingPathComponent("out\(i).bgra")))
      return stride(from: 0, to: bytes.count, by: 4).map { Int(bytes[$0]) | Int(bytes[$0 + 1]) << 8 }
    }
  }

  @Test(arguments: [(60, 50), (60, 30), (30, 20), (30, 25), (60, 7), (24, 10)])
  func keepsTheFramesTheFPSFilterKeeps(_ rate: Int, _ out: Int) throws {
    let counts = [1, 2, 3, 5, 8, 13, 600]
    for (count, kept) in zip(counts, try Self.ffmpegKeeps(counts, from: rate, to: out)) {
      let flick = (0..<count).filter { FrameSchedule.keepsFrame($0, from: rate, to: out) }
      expectEqual(flick, kept, "\(count) frames, \(rate) → \(out) fps")
    }
  }
}
