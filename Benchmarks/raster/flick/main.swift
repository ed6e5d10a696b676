import FlickMotion
import FlickRaster
import FlickScene
import Foundation

// Flick's side of the raster benchmark (Benchmarks/raster/README.md): draws the card-swap scene
// with the stateless Renderer (naive) or one FrameRenderer (--cached) on one thread, with the
// flags and the RESULT line of cardswap.c, so run.sh can time both side by side.
//   flick-raster-bench [--frames N] [--start I] [--width W --height H] [--png out.png]
//                      [--split] [--cached] [--checksum] [--image in.png]

func fail(_ message: String, code: Int32) -> Never {
  FileHandle.standardError.write(Data("flick-raster-bench: \(message)\n".utf8))
  exit(code)
}

var frames = 180
var start = 0
var width = 1920
var height = 1080
var png: String?
var split = false
var cached = false
var checksum = false
var imagePath = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  .appendingPathComponent("image512.png").path
var args = Array(CommandLine.arguments.dropFirst())
@MainActor func value(_ flag: String) -> String {
  guard !args.isEmpty else { fail("\(flag) expects a value", code: 2) }
  return args.removeFirst()
}
@MainActor func integer(_ flag: String, _ range: ClosedRange<Int>) -> Int {
  let v = value(flag)
  guard let n = Int(v), range.contains(n) else { fail("\(flag) expects an integer in \(range.lowerBound)...\(range.upperBound), got '\(v)'", code: 2) }
  return n
}
while let a = args.first {
  args.removeFirst()
  switch a {
  case "--frames": frames = integer(a, 1...100_000)
  case "--start": start = integer(a, 0...1_000_000)
  case "--width": width = integer(a, 16...8192)
  case "--height": height = integer(a, 16...8192)
  case "--png": png = value(a)
  case "--image": imagePath = value(a)
  case "--split": split = true
  case "--cached": cached = true
  case "--checksum": checksum = true
  default: fail("unknown option '\(a)'", code: 2)
  }
}

let size = Size(width: Double(width), height: Double(height))
@MainActor func trees(_ edit: ((inout Layer) -> Void)? = nil, every step: Int = 1) -> [RenderTree] {
  stride(from: start, to: start + frames, by: step).map { i in
    let tree = CardSwapScene.tree(at: Double(i) / 60, size: size, imagePath: imagePath)
    guard let edit else { return tree }
    func apply(_ layer: Layer) -> Layer {
      var l = layer
      edit(&l)
      l.sublayers = l.sublayers.map(apply)
      return l
    }
    return RenderTree(size: tree.size, backgroundColor: tree.backgroundColor, layers: tree.layers.map(apply), time: tree.time)
  }
}

func clock(_ id: clockid_t) -> Double {
  var ts = timespec()
  clock_gettime(id, &ts)
  return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// Renders `trees` in order; returns wall and CPU seconds and the last frame.
@MainActor func run(_ trees: [RenderTree], hash: inout UInt64) throws(RasterError) -> (wall: Double, cpu: Double, last: Frame?) {
  let renderer = cached ? FrameRenderer() : nil
  var last: Frame?
  let wall0 = clock(CLOCK_MONOTONIC)
  let cpu0 = clock(CLOCK_PROCESS_CPUTIME_ID)
  for tree in trees {
    let frame: Frame
    if let renderer {
      frame = try renderer.render(tree)
    } else {
      frame = try Renderer().render(tree)
    }
    if checksum {
      frame.pixels.withUnsafeBufferPointer { p in
        for byte in p {
          hash ^= UInt64(byte)
          hash = hash &* 0x100_0000_01b3
        }
      }
    }
    last = frame
  }
  return (clock(CLOCK_MONOTONIC) - wall0, clock(CLOCK_PROCESS_CPUTIME_ID) - cpu0, last)
}

do {
  // Warm-up frame outside the measurement: decodes the picture, loads the fonts.
  try Renderer().checkResources(of: CardSwapScene.tree(at: 0, size: size, imagePath: imagePath))
  _ = try Renderer().render(CardSwapScene.tree(at: Double(start) / 60, size: size, imagePath: imagePath))
  var hash: UInt64 = 0xcbf2_9ce4_8422_2325
  let main = try run(trees(), hash: &hash)
  if let png, let last = main.last { try last.writePNG(to: png) }
  let mode = cached ? "cached" : "naive"
  let ms = main.wall / Double(frames) * 1000
  let cpuMs = main.cpu / Double(frames) * 1000
  var usage = rusage()
  getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
  let rss = Double(usage.ru_maxrss) / 1024
  print("flick-raster-bench \(mode): \(width)x\(height), frames \(start)...\(start + frames - 1)")
  print(String(format: "  %.2f ms/frame wall (%.1f fps), %.2f ms/frame CPU", ms, 1000 / ms, cpuMs))
  var line = String(format: "RESULT renderer=swift mode=%@ width=%d height=%d frames=%d wall_ms=%.3f cpu_ms=%.3f rss_mib=%.1f",
                    mode, width, height, frames, ms, cpuMs, rss)
  if split {
    // A stage's cost is the CPU time per frame minus the time without that stage, on every
    // fourth frame (stages are not separate calls inside Flick's renderer).
    let step = 4
    var ignored: UInt64 = 0
    let reference = try run(trees(every: step), hash: &ignored).cpu
    let n = Double(trees(every: step).count)
    let stages: [(String, (inout Layer) -> Void)] = [
      ("background", { if $0.id == "background" { $0.isHidden = true } }),
      ("shadow", { $0.shadowOpacity = 0 }),
      ("fill", { l in
        if let g = l.gradient, l.id != "background" {
          l.content = .none
          l.backgroundColor = g.colors.colors.first ?? .white
        }
      }),
      ("image", { $0.contents = nil }),
      ("text", { if $0.text != nil { $0.isHidden = true } }),
      ("ring", { if $0.id == "ring" || $0.id == "track" { $0.isHidden = true } }),
    ]
    for (name, edit) in stages {
      let without = try run(trees(edit, every: step), hash: &ignored).cpu
      let cost = max(0, (reference - without) / n * 1000)
      print(String(format: "  %-10@ %7.2f ms", name as NSString, cost))
      line += String(format: " %@=%.3f", name, cost)
    }
  }
  if checksum {
    print(String(format: "  checksum %016llx", hash))
    line += String(format: " checksum=%016llx", hash)
  }
  print(line)
} catch {
  fail("\(error)", code: 3)
}
