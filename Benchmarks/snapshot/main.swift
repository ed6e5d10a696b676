// Comparator speed on 1920×1080 frames versus the time to render one.
// Run with `make bench-snapshot` (release build). Prints the median of several runs per case.
import FlickMotion
import FlickRaster
import FlickScene
import FlickSnapshot
import FlickTemplates
import Foundation

let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent()
let hello = root.appendingPathComponent("Templates/hello.json5").path
let runs = 9

func median(_ body: () throws -> Void) rethrows -> Double {
  var samples: [Double] = []
  for _ in 0..<runs {
    let start = ContinuousClock.now
    try body()
    let d = ContinuousClock.now - start
    samples.append(Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15)
  }
  return samples.sorted()[runs / 2]
}

func row(_ name: String, _ ms: Double, _ note: String = "") {
  let padded = name.padding(toLength: 52, withPad: " ", startingAt: 0)
  print("\(padded) \(String(format: "%8.2f", ms)) ms  \(note)")
}

do {
  // hello is 640×360; scale 3 renders it at 1920×1080.
  let template = try Template.load(path: hello)
  let renderer = Renderer(scale: 3)
  var frame = Frame(width: 1, height: 1)
  let renderMs = try median { frame = try renderer.render(template.scene.renderTree(at: 1.5)) }
  print("Flick snapshot comparator benchmark: \(frame.width)×\(frame.height), median of \(runs) runs")
  print("renderer: \(RendererFingerprint.current)\n")
  row("render one frame (hello, t = 1.5 s)", renderMs)

  var recoloured = template.scene
  for i in recoloured.layers.indices where recoloured.layers[i].id == "card" {
    recoloured.layers[i].backgroundColor = Color(red: 0.23, green: 0.51, blue: 0.96)
  }
  let changed = try renderer.render(recoloured.renderTree(at: 1.5))
  let midway = try renderer.render(template.scene.renderTree(at: 0.85))
  let moved = try renderer.render(template.scene.renderTree(at: 0.85 + 1.0 / 120))
  var brighter = template.scene
  brighter.backgroundColor = Color(red: 0.3, green: 0.35, blue: 0.45)
  let everything = try renderer.render(brighter.renderTree(at: 1.5))
  let copy = Frame(width: frame.width, height: frame.height, bytesPerRow: frame.bytesPerRow, pixels: frame.pixels)

  let comparator = ImageComparator(options: .perceptual)
  var result = comparator.compare(frame, copy)
  let same = median { result = comparator.compare(frame, copy) }
  row("compare identical pixels (fast path)", same, "\(result.verdict)")
  let card = median { result = comparator.compare(frame, changed) }
  row("compare, one card recoloured", card, "\(result.differingPixels) px differ")
  let motion = median { result = comparator.compare(midway, moved) }
  row("compare, card mid-glide vs half a frame later", motion, "\(result.differingPixels) px, \(result.antiAliasedPixels) AA")
  let all = median { result = comparator.compare(frame, everything) }
  row("compare, background changed (every pixel)", all, "\(result.differingPixels) px differ")
  let oklab = ImageComparator(options: ComparisonOptions(mode: .perceptual, metric: .oklab))
  let allOk = median { result = oklab.compare(frame, everything) }
  row("compare, every pixel, OKLab", allOk, "\(result.differingPixels) px differ")

  let dir = FileManager.default.temporaryDirectory.appendingPathComponent("flick-bench-\(getpid())")
  try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: dir) }
  let a = dir.appendingPathComponent("a.png").path, b = dir.appendingPathComponent("b.png").path
  let c = dir.appendingPathComponent("c.png").path
  try frame.writePNG(to: a)
  try frame.writePNG(to: b)
  try changed.writePNG(to: c)
  let bytes = try median { result = try comparator.compareFiles(expected: a, actual: b) }
  row("compare files, identical bytes (CRC check)", bytes, "\(result.verdict)")
  let files = try median { result = try comparator.compareFiles(expected: a, actual: c) }
  row("compare files, one card recoloured (+decode)", files, "\(result.differingPixels) px differ")
  let diffImage = median { _ = DiffRenderer.diffImage(expected: frame, comparison: comparator.compare(frame, changed)) }
  row("compare + diff image, one card recoloured", diffImage)
  // Every bundled template, scaled to 1920 pixels wide, for a wider view of render cost.
  print("")
  let templatesDir = root.appendingPathComponent("Templates").path
  for file in (try FileManager.default.contentsOfDirectory(atPath: templatesDir)).sorted()
  where file.hasSuffix(".json5") {
    guard let t = try? Template.load(path: templatesDir + "/" + file) else { continue }
    let scale = 1920 / t.scene.size.width
    let r = Renderer(scale: scale)
    let mid = t.scene.duration / 2
    var size = ""
    let ms = try median {
      let f = try r.render(t.scene.renderTree(at: mid))
      size = "\(f.width)×\(f.height)"
    }
    row("render \(file) at 50% (\(size))", ms)
  }
  print("\ncompare/render ratio: identical \(String(format: "%.2f", same / renderMs)), "
    + "recoloured card \(String(format: "%.2f", card / renderMs)), "
    + "every pixel \(String(format: "%.2f", all / renderMs))")
} catch {
  FileHandle.standardError.write(Data("bench failed: \(error)\n".utf8))
  exit(3)
}
