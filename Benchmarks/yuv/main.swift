// `make bench-yuv`: what Flick's BGRA → yuv420p conversion (YUV420Converter, the MP4 path)
// costs per frame, beside ffmpeg's own `scale` step on the same frames.
//
// Renders the first frames of Templates/card-swap.json5 at 960×540 and 1920×1080 (raw BGRA in
// memory), then converts them on one thread, best and median of several runs. ffmpeg's side is
// the MP4 command's former `scale` filter reading the same frames from a file into `-f null`,
// against the same command with `-vf null` (reading alone), so the difference is the
// conversion's CPU. Flick's side is measured with the AVX2 loops and with the SSE2 ones
// (`YUV420Converter.limitVectors`), interleaved. Measure on the same machine in one run: ratios, not ms.
//
//     flick-bench-yuv [--runs 5] [--frames 60]
import FlickRaster
import FlickTemplates
import FlickVideo
import FlickTestSupport
import Foundation

let runs = BenchmarkOption.int("--runs", 5)
let frameCount = BenchmarkOption.int("--frames", 60)
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent()
let scene = try Template.load(path: root.appendingPathComponent("Templates/card-swap.json5").path).scene

func cpuSeconds() -> Double {
  var usage = rusage()
  getrusage(RUSAGE_SELF.rawValue, &usage)
  return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
    + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
}

/// CPU seconds (user + system) of an ffmpeg run, from its children's usage.
func ffmpegCPU(_ arguments: [String]) throws -> Double {
  var before = rusage()
  getrusage(RUSAGE_CHILDREN.rawValue, &before)
  let process = Process()
  process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
  process.arguments = ["ffmpeg", "-hide_banner", "-nostdin", "-loglevel", "error"] + arguments
  try process.run()
  process.waitUntilExit()
  guard process.terminationStatus == 0 else { throw CocoaError(.executableLoad) }
  var after = rusage()
  getrusage(RUSAGE_CHILDREN.rawValue, &after)
  func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
  return seconds(after.ru_utime) - seconds(before.ru_utime) + seconds(after.ru_stime) - seconds(before.ru_stime)
}

func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

print("frames: card-swap 0..<\(frameCount), \(runs) runs; ms per frame (best / median)")
for scale in [1.0, 2.0] {
  let renderer = FrameRenderer(scale: scale)
  let frames = try (0..<frameCount).map { n in
    PreparedFrame(
      index: n, frame: try renderer.render(scene.renderTree(at: scene.time(ofFrame: n))), layouts: .premultiplied)
  }
  let width = frames[0].frame.width, height = frames[0].frame.height
  let converter = YUV420Converter(width: width, height: height)
  var planes = [UInt8](repeating: 0, count: YUV420Converter.frameSize(width: width, height: height))
  var flick: [Double] = []
  var sse2: [Double] = []
  for _ in 0..<runs {
    for bits in [256, 128] {
      YUV420Converter.limitVectors(bits)
      let start = cpuSeconds()
      for frame in frames {
        frame.premultiplied.withUnsafeBytes { source in
          planes.withUnsafeMutableBufferPointer { converter.convert(source, into: $0) }
        }
      }
      let ms = (cpuSeconds() - start) * 1000 / Double(frameCount)
      if bits == 256 { flick.append(ms) } else { sse2.append(ms) }
    }
  }
  YUV420Converter.limitVectors(256)
  let raw = FileManager.default.temporaryDirectory.appendingPathComponent("flick-bench-yuv-\(getpid()).bgra")
  try Data(frames.map(\.premultiplied).joined()).write(to: raw)
  defer { try? FileManager.default.removeItem(at: raw) }
  let input = ["-f", "rawvideo", "-pix_fmt", "bgra", "-s", "\(width)x\(height)", "-i", raw.path, "-threads", "1"]
  var ffmpeg: [Double] = []
  for _ in 0..<runs {
    let converting = try ffmpegCPU(
      input + ["-filter_threads", "1", "-vf", FFmpegCommand.scale(to: "yuv420p"), "-f", "null", "-"])
    let reading = try ffmpegCPU(input + ["-filter_threads", "1", "-vf", "null", "-pix_fmt", "bgra", "-f", "null", "-"])
    ffmpeg.append((converting - reading) * 1000 / Double(frameCount))
  }
  let f = String(format: "%.2f / %.2f", flick.min()!, median(flick))
  let s = String(format: "%.2f / %.2f", ffmpeg.min()!, median(ffmpeg))
  let e = String(format: "%.2f / %.2f", sse2.min()!, median(sse2))
  print(
    "\(width)×\(height): Flick \(f) ms (SSE2 loops \(e) ms), ffmpeg's scale \(s) ms; "
      + "Flick / ffmpeg \(String(format: "%.2f", median(flick) / median(ffmpeg))), "
      + "AVX2 / SSE2 \(String(format: "%.2f", median(flick) / median(sse2)))"
  )
}
