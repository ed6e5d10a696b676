import FlickMotion
import FlickRaster
import FlickScene
import Foundation

// flick-cardswap: Flick's side of the side-by-side raster benchmark (Benchmarks/raster/run.sh).
// Renders the card-swap scene of cardswap.c through Flick's public API, one thread, and prints
// the same RESULT line. Naive: a stateless `Renderer` draws every frame from scratch. Cached:
// one `FrameRenderer` keeps what does not change between frames. A frame's timed work is what
// a Flick user pays: evaluating the scene at t (`renderTree(at:)`) and rendering it into a Frame.

let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
let options: Options
do {
  options = try Options(
    Array(CommandLine.arguments.dropFirst()),
    defaultImage: here.deletingLastPathComponent().appendingPathComponent("image512.png").path)
} catch {
  FileHandle.standardError.write(Data("flick-cardswap: \(error.message)\n\(Options.usage)".utf8))
  exit(2)
}

func fail(_ message: String, code: Int32) -> Never {
  FileHandle.standardError.write(Data("flick-cardswap: \(message)\n".utf8))
  exit(code)
}

func nowMs(_ clock: clockid_t) -> Double {
  var ts = timespec()
  clock_gettime(clock, &ts)
  return Double(ts.tv_sec) * 1e3 + Double(ts.tv_nsec) / 1e6
}

/// FNV-1a (64-bit) continued over `bytes`, as cardswap.c hashes its surface.
func fnv1a(_ hash: UInt64, _ bytes: [UInt8]) -> UInt64 {
  bytes.withUnsafeBufferPointer { buffer in
    var h = hash
    for b in buffer {
      h ^= UInt64(b)
      h = h &* 1_099_511_628_211
    }
    return h
  }
}

/// Renders frames `start..<start+frames` of `scene` and returns wall and CPU ms per frame,
/// the checksum (when asked) and the last frame.
func run(_ scene: Scene, checksum: Bool) throws(RasterError) -> (wall: Double, cpu: Double, hash: UInt64, last: Frame?)
{
  let cachedRenderer = options.cached ? FrameRenderer() : nil
  if options.wholeFrames { cachedRenderer?.reusesPreviousFrame = false }
  func render(_ n: Int) throws(RasterError) -> Frame {
    let tree = scene.renderTree(at: Double(n) / 60)
    if let cachedRenderer { return try cachedRenderer.render(tree) }
    return try Renderer().render(tree)
  }
  // Warm-up outside the measurement (decodes the picture, loads the fonts), as cardswap.c.
  _ = try render(options.start + options.frames)
  return try measuredFrames(render, checksum: checksum)
}

/// The measured frames, in a function of their own so that `run.sh` can count their instructions
/// alone (`valgrind --tool=callgrind --toggle-collect='*measuredFrames*'`).
@inline(never)
func measuredFrames(_ render: (Int) throws(RasterError) -> Frame, checksum: Bool) throws(RasterError)
  -> (wall: Double, cpu: Double, hash: UInt64, last: Frame?)
{
  var hash: UInt64 = 1_469_598_103_934_665_603
  var wall = 0.0
  var cpu = 0.0
  var last: Frame?
  for n in options.start..<(options.start + options.frames) {
    let w0 = nowMs(CLOCK_MONOTONIC)
    let c0 = nowMs(CLOCK_PROCESS_CPUTIME_ID)
    let frame = try render(n)
    wall += nowMs(CLOCK_MONOTONIC) - w0
    cpu += nowMs(CLOCK_PROCESS_CPUTIME_ID) - c0
    if checksum { hash = fnv1a(hash, frame.pixels) }
    last = frame
  }
  let count = Double(options.frames)
  return (wall / count, cpu / count, hash, last)
}

let mode = options.cached ? "cached" : "naive"
let scene = CardSwapScene.make(
  width: options.width, height: options.height, imagePath: options.image, parts: options.parts)
let stageNames = ["background", "shadow", "fill", "image", "text", "ring"]
do {
  let result = try run(scene, checksum: options.checksum)
  print(
    "flick-cardswap \(mode): \(options.width)x\(options.height), frames \(options.start)...\(options.start + options.frames - 1)"
  )
  print(
    String(format: "  %.2f ms/frame wall (%.1f fps), %.2f ms/frame CPU", result.wall, 1000 / result.wall, result.cpu))
  var usage = rusage()
  getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
  let rssMiB = Double(usage.ru_maxrss) / 1024  // Linux reports KiB
  print(String(format: "  peak memory %.1f MiB", rssMiB))
  let hash = String(format: "%016llx", result.hash)
  if options.checksum { print("  checksum \(hash)") }
  var line =
    "RESULT renderer=swift mode=\(mode) width=\(options.width) height=\(options.height) frames=\(options.frames)"
  line += String(format: " wall_ms=%.3f cpu_ms=%.3f rss_mib=%.1f", result.wall, result.cpu, rssMiB)
  // Flick's renderer has no per-stage timers: the stage fields are not measured.
  if options.split { line += stageNames.map { " \($0)=na" }.joined() }
  if !options.without.isEmpty { line += " without=" + options.without.joined(separator: ",") }
  if options.checksum { line += " checksum=\(hash)" }
  print(line)

  if let png = options.png, let last = result.last { try last.writePNG(to: png) }
} catch .missingFontFamily(let family, let layer, let fallback) {
  fail("layer '\(layer)': font family '\(family)' not found (got '\(fallback)'); install fonts-inter", code: 3)
} catch .invalidSize(let w, let h) {
  fail("cannot render a \(w)x\(h) frame", code: 2)
} catch {
  fail("\(error)", code: 3)
}
