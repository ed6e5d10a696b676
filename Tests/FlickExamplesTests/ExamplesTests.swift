import FlickExpectations
import FlickTestSupport
import Foundation
import Testing

/// Runs the executables in Examples/ (built for the tests by scripts/build-tests)
/// and checks what they wrote: ffprobe on the MP4 and GIF, a few pixels of the PNG still.
@Suite struct ExamplesTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  static func binary(_ name: String) -> String {
    let flick = ProcessRunner.flick(root: root)
    return URL(fileURLWithPath: flick).deletingLastPathComponent().appendingPathComponent(name).path
  }

  struct Probe {
    var width = 0, height = 0, frames = 0
    var codec = ""
  }

  static func probe(_ path: String) throws -> Probe {
    let r = try ProcessRunner.run(
      "/usr/bin/env",
      [
        "ffprobe", "-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries",
        "stream=codec_name,width,height,nb_read_frames", "-of", "default=noprint_wrappers=1", path,
      ])
    expectEqual(r.status, 0, "\(r.stderr)")
    var p = Probe()
    for line in r.text.split(separator: "\n") {
      let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
      guard parts.count == 2 else { continue }
      switch parts[0] {
      case "codec_name": p.codec = parts[1]
      case "width": p.width = Int(parts[1]) ?? 0
      case "height": p.height = Int(parts[1]) ?? 0
      case "nb_read_frames": p.frames = Int(parts[1]) ?? 0
      default: break
      }
    }
    return p
  }

  /// Runs example `name` into a fresh folder; returns the folder and what it printed.
  static func run(_ name: String) throws -> (URL, String) {
    let dir = try ProcessRunner.temporaryDirectory(prefix: "flick-example")
    let r = try ProcessRunner.run(binary("flick-example-\(name)"), [dir.path])
    expectEqual(r.status, 0, "\(r.stderr)")
    return (dir, r.text)
  }

  static func expectVideos(_ dir: URL, _ base: String, width: Int, height: Int, frames: Int) throws {
    let mp4 = try probe(dir.appendingPathComponent("\(base).mp4").path)
    expectEqual(mp4.codec, "h264")
    expectEqual(mp4.width, width)
    expectEqual(mp4.height, height)
    expectEqual(mp4.frames, frames)
    let gif = try probe(dir.appendingPathComponent("\(base).gif").path)
    expectEqual(gif.codec, "gif")
    expectEqual(gif.width, width)
    expectEqual(gif.height, height)
    expectGreater(gif.frames, 1)
  }

  static func close(_ p: (r: UInt8, g: UInt8, b: UInt8, a: UInt8), _ hex: UInt32, tolerance: Int = 6) -> Bool {
    let c = [Int(hex >> 16 & 0xFF), Int(hex >> 8 & 0xFF), Int(hex & 0xFF)]
    return abs(Int(p.r) - c[0]) <= tolerance && abs(Int(p.g) - c[1]) <= tolerance && abs(Int(p.b) - c[2]) <= tolerance
  }

  @Test func cardSwapRepeatsFromCompletionBlocksAtExactTimes() throws {
    let (dir, printed) = try Self.run("card-swap")
    defer { try? FileManager.default.removeItem(at: dir) }
    try Self.expectVideos(dir, "card-swap", width: 320, height: 240, frames: 120)
    // Three swaps, each started from a completion block: the fly-offs start at exact times
    // that are not frame times (a frame-quantised scheduler would print multiples of 1/30 s).
    // `\.transform.rotation` is the catalogued `rotation`, so its key is `rotation`.
    let starts = printed.split(separator: "\n").filter { $0.contains("start") && $0.contains(".rotation") }
    expectEqual(starts.count, 3)
    let times = starts.compactMap { Double($0.split(separator: " ")[0]) }
    expectEqual(times.first, 0.4)
    #expect(times.dropFirst().allSatisfy { abs($0 * 30 - ($0 * 30).rounded()) > 1e-3 })
    // The still at 0.2 s: the top (orange) card in the middle, the page colour in a corner.
    let still = try PNGFile(path: dir.appendingPathComponent("card-swap.png").path)
    #expect(Self.close(still.rgba(x: 160, y: 130), 0xF97316))
    #expect(Self.close(still.rgba(x: 4, y: 4), 0x0B1020))
  }

  @Test func springyButton() throws {
    let (dir, _) = try Self.run("springy-button")
    defer { try? FileManager.default.removeItem(at: dir) }
    try Self.expectVideos(dir, "springy-button", width: 240, height: 160, frames: 60)
    // At 0.75 s the button is pressed: 90 % of 140 × 56, darker blue; outside it, white.
    let still = try PNGFile(path: dir.appendingPathComponent("springy-button.png").path)
    #expect(Self.close(still.rgba(x: 120, y: 80), 0x0060DF, tolerance: 12))
    #expect(Self.close(still.rgba(x: 120 - 68, y: 80), 0xFFFFFF))
    #expect(Self.close(still.rgba(x: 120 - 60, y: 80), 0x0060DF, tolerance: 12))
  }

  @Test func gpuAnimationChain() throws {
    let (dir, text) = try Self.run("chain")
    defer { try? FileManager.default.removeItem(at: dir) }
    // The chain's `.then { print(…) }` runs once its clock is played (rendering never runs it).
    #expect(text.contains("chain done at "), "\(text)")
    try Self.expectVideos(dir, "chain", width: 320, height: 160, frames: 90)
    // At 2.9 s the dot is back home and opaque; the ring has grown to 80 points.
    let still = try PNGFile(path: dir.appendingPathComponent("chain.png").path)
    #expect(Self.close(still.rgba(x: 50, y: 60), 0xFF375F))
    #expect(Self.close(still.rgba(x: 270, y: 60), 0x1C1C1E))
    #expect(Self.close(still.rgba(x: 160 + 38, y: 120), 0x30D158, tolerance: 30))
  }

  @Test func propertyAnimator() throws {
    let (dir, _) = try Self.run("property-animator")
    defer { try? FileManager.default.removeItem(at: dir) }
    try Self.expectVideos(dir, "property-animator", width: 320, height: 120, frames: 90)
    // At 2.9 s the animator has finished: the bar is at the right, in its end colour.
    let still = try PNGFile(path: dir.appendingPathComponent("property-animator.png").path)
    #expect(Self.close(still.rgba(x: 270, y: 60), 0x5E5CE6))
    #expect(Self.close(still.rgba(x: 50, y: 60), 0xFFFFFF))
  }
}
