import FlickMotion
import FlickRaster
import FlickScene
import Foundation

// Times the card-swap scene at 1920×1080 on one thread: the stateless Renderer (every frame
// drawn from scratch) and a FrameRenderer (caches across frames), and checks they agree.
//   usage: flick-raster-bench [frames] [--still out.png] [--width W]
var frames = 120
var still: String?
var width = 1920.0
var args = Array(CommandLine.arguments.dropFirst())
while let a = args.first {
  args.removeFirst()
  switch a {
  case "--still": still = args.isEmpty ? nil : args.removeFirst()
  case "--width": width = Double(args.isEmpty ? "1920" : args.removeFirst()) ?? 1920
  default: frames = Int(a) ?? frames
  }
}
let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
let scene = CardSwapScene.make(
  size: Size(width: width, height: (width * 9 / 16).rounded()), imagePath: here.appendingPathComponent("photo.jpg").path)
let trees = (0..<frames).map { scene.renderTree(at: Double($0 % scene.frameCount) / Double(scene.fps)) }

func seconds(_ body: () throws -> Void) rethrows -> Double {
  let start = DispatchTime.now().uptimeNanoseconds
  try body()
  return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

do {
  if let still {
    try Renderer().render(scene.renderTree(at: 0.8)).writePNG(to: still)
    print("wrote \(still)")
  }
  _ = try Renderer().render(trees[0])  // warm up: decode the picture, load fonts
  let naive = try seconds { for tree in trees { _ = try Renderer().render(tree) } }
  let cached = FrameRenderer()
  let withCache = try seconds { for tree in trees { _ = try cached.render(tree) } }
  let check = FrameRenderer()
  var identical = true
  for tree in trees.prefix(10) where try check.render(tree) != Renderer().render(tree) { identical = false }
  let n = Double(frames)
  print(String(format: "%.0f×%.0f, %d frames, one thread", scene.size.width, scene.size.height, frames))
  print(String(format: "Renderer (stateless):  %6.2f ms/frame  %6.1f fps", naive / n * 1000, n / naive))
  print(String(format: "FrameRenderer (cache): %6.2f ms/frame  %6.1f fps  (%.2f× faster)", withCache / n * 1000, n / withCache, naive / withCache))
  print("cache: \(cached.cacheStatistics.hits) hits, \(cached.cacheStatistics.misses) misses; first 10 frames identical: \(identical)")
  if !identical { exit(1) }
} catch {
  FileHandle.standardError.write(Data("flick-raster-bench: \(error)\n".utf8))
  exit(3)
}
