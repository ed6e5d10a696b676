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
  // A real copy (a write forces it), so the identical case compares two buffers.
  var copiedPixels = frame.pixels
  copiedPixels[0] = frame.pixels[0] ^ 0
  copiedPixels.withUnsafeMutableBufferPointer { _ in }
  let copy = Frame(width: frame.width, height: frame.height, bytesPerRow: frame.bytesPerRow, pixels: copiedPixels)

  let comparator = ImageComparator(options: .perceptual)
  var result = comparator.compare(frame, copy)
  let same = median { result = comparator.compare(frame, copy) }
  row("compare identical pixels (fast path)", same, "\(result.verdict)")
  let card = median { result = comparator.compare(frame, changed) }
  row("compare, one card recoloured", card, "\(result.differingPixels) px differ")
  let motion = median { result = comparator.compare(midway, moved) }
  row(
    "compare, card mid-glide vs half a frame later", motion,
    "\(result.differingPixels) px, \(result.antiAliasedPixels) AA")
  let all = median { result = comparator.compare(frame, everything) }
  row("compare, background changed (every pixel)", all, "\(result.differingPixels) px differ")
  let exact = ImageComparator(options: .exact)
  let cardExact = median { result = exact.compare(frame, changed) }
  row("compare exactly, one card recoloured", cardExact, "\(result.differingPixels) px differ")
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
  row("compare files, identical bytes (both decoded)", bytes, "\(result.verdict)")
  let decode = try median { _ = try PNGImage(contentsOf: a) }
  row("decode one 1080p PNG (PNGImage: pre-check + libpng)", decode)
  let cairoDecode = try median { _ = try Frame(pngAt: a) }
  row("decode one 1080p PNG (Cairo/libpng, for scale)", cairoDecode)
  let files = try median { result = try comparator.compareFiles(expected: a, actual: c) }
  row("compare files, one card recoloured (+decode)", files, "\(result.differingPixels) px differ")
  // A 20000×20000 header over a tiny data chunk: refused from the header.
  var huge = [UInt8](try Data(contentsOf: URL(fileURLWithPath: a)))
  huge.replaceSubrange(16..<24, with: [0, 0, 0x4E, 0x20, 0, 0, 0x4E, 0x20])
  var crc: UInt32 = 0xFFFF_FFFF
  for byte in huge[12..<29] {
    crc ^= UInt32(byte)
    for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
  }
  crc = ~crc
  huge.replaceSubrange(
    29..<33, with: [UInt8(crc >> 24), UInt8((crc >> 16) & 0xFF), UInt8((crc >> 8) & 0xFF), UInt8(crc & 0xFF)])
  let hugePath = dir.appendingPathComponent("huge.png").path
  try Data(huge).write(to: URL(fileURLWithPath: hugePath))
  let refused = median { _ = try? comparator.compareFiles(expected: hugePath, actual: hugePath) }
  row("refuse a 20000×20000 header (limit check)", refused)
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
  print(
    "\ncompare/render ratio: identical \(String(format: "%.2f", same / renderMs)), "
      + "recoloured card \(String(format: "%.2f", card / renderMs)), "
      + "every pixel \(String(format: "%.2f", all / renderMs))")
} catch {
  FileHandle.standardError.write(Data("bench failed: \(error)\n".utf8))
  exit(3)
}
