import FlickRaster
import FlickScene
import FlickTemplates
import Foundation

// flick-bench-raster-templates: per-frame render time of every bundled template at its own size,
// with one FrameRenderer as a render worker uses it (pooled frame buffers), the kept static prefix
// and kept groups off ("before") and on ("after"), interleaved run by run in one process. Frames are evaluated
// before timing (only rendering is timed), and both modes must give the same bytes for every
// frame (checked first; exit 1 otherwise).
//
//   flick-bench-raster-templates [--runs N] [--templates DIR] [NAME ...]

func fail(_ message: String, code: Int32) -> Never {
  FileHandle.standardError.write(Data("flick-bench-raster-templates: \(message)\n".utf8))
  exit(code)
}

var runs = 5
var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Templates")
var names: [String] = []
var arguments = Array(CommandLine.arguments.dropFirst())
while !arguments.isEmpty {
  let a = arguments.removeFirst()
  switch a {
  case "--runs":
    guard let v = arguments.first.flatMap(Int.init), v > 0 else { fail("--runs expects a positive number", code: 2) }
    runs = v
    arguments.removeFirst()
  case "--templates":
    guard let v = arguments.first else { fail("--templates expects a folder", code: 2) }
    folder = URL(fileURLWithPath: v)
    arguments.removeFirst()
  case "-h", "--help":
    print("flick-bench-raster-templates [--runs N] [--templates DIR] [NAME ...]")
    exit(0)
  default:
    if a.hasPrefix("-") { fail("unknown option '\(a)'", code: 2) }
    names.append(a)
  }
}
if names.isEmpty {
  let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
  names = files.filter { $0.hasSuffix(".json5") }.map { String($0.dropLast(6)) }.sorted()
}
guard !names.isEmpty else { fail("no templates in \(folder.path)", code: 3) }

func ms(_ clock: clockid_t) -> Double {
  var ts = timespec()
  clock_gettime(clock, &ts)
  return Double(ts.tv_sec) * 1e3 + Double(ts.tv_nsec) / 1e6
}

func median(_ v: [Double]) -> Double {
  let s = v.sorted()
  return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
}

func digest(_ frame: Frame) -> Int {
  var hasher = Hasher()
  frame.pixels.withUnsafeBytes { hasher.combine(bytes: $0) }
  return hasher.finalize()
}

/// Renders every tree with a fresh worker; CPU and wall ms per frame, and the prefix counts.
func pass(_ trees: [RenderTree], prefix: Bool, digests: inout [Int]?) -> (
  cpu: Double, wall: Double, stats: StaticPrefixStatistics, groups: Int
) {
  let pool = FramePool(capacity: 2)
  let renderer = FrameRenderer(pool: pool)
  renderer.reusesStaticPrefix = prefix
  renderer.reusesGroups = prefix
  // Every frame drawn whole in both modes: this compares the prefix and groups alone (damage
  // regions: flick-cardswap --whole-frames, DamageTemplateTests).
  renderer.reusesPreviousFrame = false
  var out: [Int] = []
  let cpu0 = ms(CLOCK_THREAD_CPUTIME_ID)
  let wall0 = ms(CLOCK_MONOTONIC)
  for tree in trees {
    do {
      let frame = try renderer.render(tree)
      if digests != nil { out.append(digest(frame)) }
      pool.recycle(frame.pixels)
    } catch {
      fail("render failed: \(error)", code: 3)
    }
  }
  let cpu = (ms(CLOCK_THREAD_CPUTIME_ID) - cpu0) / Double(trees.count)
  let wall = (ms(CLOCK_MONOTONIC) - wall0) / Double(trees.count)
  if digests != nil { digests = out }
  return (cpu, wall, renderer.prefixStatistics, renderer.keptGroupHits)
}

print(
  "| template | size | frames | from kept prefix (inside a layer) | kept | groups reused | before ms | after ms | after / before | wall before | wall after |"
)
print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
var ratios: [Double] = []
for name in names {
  let scene: Scene
  do {
    scene = try Template.load(path: folder.appendingPathComponent("\(name).json5").path).scene
  } catch {
    fail("\(name): \(error)", code: 2)
  }
  let trees = (0..<scene.frameCount).map { scene.renderTree(at: scene.time(ofFrame: $0)) }
  var before: [Int]? = []
  var after: [Int]? = []
  _ = pass(trees, prefix: false, digests: &before)
  let check = pass(trees, prefix: true, digests: &after)
  guard before == after else {
    let n = zip(before ?? [], after ?? []).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? -1
    fail("\(name): frame \(n) differs with the kept prefix", code: 1)
  }
  var cpu: [Bool: [Double]] = [:]
  var wall: [Bool: [Double]] = [:]
  var none: [Int]? = nil
  for run in 0..<runs {
    for prefix in run % 2 == 0 ? [false, true] : [true, false] {
      let r = pass(trees, prefix: prefix, digests: &none)
      cpu[prefix, default: []].append(r.cpu)
      wall[prefix, default: []].append(r.wall)
    }
  }
  let b = median(cpu[false]!)
  let a = median(cpu[true]!)
  ratios.append(a / b)
  let size = "\(Int(scene.size.width))×\(Int(scene.size.height))"
  print(
    "| \(name) | \(size) | \(trees.count) | \(check.stats.framesReused) (\(check.stats.framesStartedInside)) | "
      + "\(check.stats.snapshots) | \(check.groups) | \(String(format: "%.2f", b)) | \(String(format: "%.2f", a)) | "
      + "\(String(format: "%.3f", a / b)) | \(String(format: "%.2f", median(wall[false]!))) | "
      + "\(String(format: "%.2f", median(wall[true]!))) |")
}
print("")
print(
  "CPU ms per frame (thread CPU time), medians of \(runs) interleaved runs; every frame byte-identical before and after."
)
print("Motion-blurred templates count every shutter sample as a frame in the prefix columns.")
