import FlickMotion
import FlickRaster
import FlickScene
import Foundation

// Times the card-swap scene at 1920×1080 on one thread: the stateless Renderer (every frame
// drawn from scratch) and a FrameRenderer (caches across frames), checks that they agree, and
// (--split) estimates each stage's cost. Times are this thread's CPU time (so other processes on
// a busy machine disturb them less), reported as the median over frames.
//   usage: flick-raster-bench [frames] [--still out.png] [--width W] [--split]
var frames = 120
var still: String?
var split = false
var width = 1920.0
var args = Array(CommandLine.arguments.dropFirst())
while let a = args.first {
  args.removeFirst()
  switch a {
  case "--still": still = args.isEmpty ? nil : args.removeFirst()
  case "--width": width = Double(args.isEmpty ? "1920" : args.removeFirst()) ?? 1920
  case "--split": split = true
  default: frames = Int(a) ?? frames
  }
}
let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
let scene = CardSwapScene.make(
  size: Size(width: width, height: (width * 9 / 16).rounded()), imagePath: here.appendingPathComponent("photo.jpg").path)
let trees = (0..<frames).map { scene.renderTree(at: Double($0 % scene.frameCount) / Double(scene.fps)) }

/// CPU seconds this thread spends in `body`.
func cpuSeconds(_ body: () throws -> Void) rethrows -> Double {
  var a = timespec()
  var b = timespec()
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a)
  try body()
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b)
  return Double(b.tv_sec - a.tv_sec) + Double(b.tv_nsec - a.tv_nsec) / 1e9
}

func median(_ xs: [Double]) -> Double {
  let s = xs.sorted()
  return s.isEmpty ? 0 : s[s.count / 2]
}

/// Per-frame CPU times of rendering `trees` with a fresh stateless renderer and with one FrameRenderer.
func measure(_ trees: [RenderTree]) throws -> (naive: [Double], cached: [Double]) {
  let cachedRenderer = FrameRenderer()
  var naive: [Double] = []
  var cached: [Double] = []
  for tree in trees {
    naive.append(try cpuSeconds { _ = try Renderer().render(tree) })
    cached.append(try cpuSeconds { _ = try cachedRenderer.render(tree) })
  }
  return (naive, cached)
}

func ms(_ s: Double) -> String { String(format: "%6.2f ms", s * 1000) }

do {
  if let still {
    try Renderer().render(scene.renderTree(at: 0.8)).writePNG(to: still)
    print("wrote \(still)")
  }
  _ = try Renderer().render(trees[0])  // warm up: decode the picture, load fonts
  let check = FrameRenderer()
  var identical = true
  for tree in trees.prefix(10) where try check.render(tree) != Renderer().render(tree) { identical = false }
  let full = try measure(trees)
  let naive = median(full.naive)
  let cached = median(full.cached)
  print(String(format: "%.0f×%.0f, %d frames, one thread (median CPU time per frame)", scene.size.width, scene.size.height, frames))
  print("Renderer (stateless):  \(ms(naive))  \(String(format: "%6.1f", 1 / naive)) fps")
  print("FrameRenderer (cache): \(ms(cached))  \(String(format: "%6.1f", 1 / cached)) fps  (\(String(format: "%.2f", naive / cached))× faster)")
  print("first 10 frames identical with and without the cache: \(identical)")
  if !identical { exit(1) }
  if split {
    print("cost split (median frame time minus the median without the stage):")
    func without(_ name: String, _ edit: @escaping (inout Layer) -> Void) throws {
      func apply(_ layer: Layer) -> Layer {
        var l = layer
        edit(&l)
        l.sublayers = l.sublayers.map(apply)
        return l
      }
      let edited = trees.map {
        RenderTree(size: $0.size, backgroundColor: $0.backgroundColor, layers: $0.layers.map(apply), time: $0.time)
      }
      let t = try measure(edited)
      let label = name.padding(toLength: 22, withPad: " ", startingAt: 0)
      print("  \(label) \(ms(naive - median(t.naive)))   cached \(ms(cached - median(t.cached)))")
    }
    try without("gradient background") { if $0.id == "background" { $0.isHidden = true } }
    try without("soft shadows") { $0.shadowOpacity = 0 }
    try without("gradient card fills") { l in
      if let g = l.gradient, l.id.hasPrefix("card") {
        l.content = .none
        l.backgroundColor = g.colors.colors.first ?? .white
      }
    }
    try without("image") { $0.contents = nil }
    try without("text") { if $0.text != nil { $0.isHidden = true } }
    try without("ring") { if $0.id == "ring" || $0.id == "track" { $0.isHidden = true } }
  }
} catch {
  FileHandle.standardError.write(Data("flick-raster-bench: \(error)\n".utf8))
  exit(3)
}
