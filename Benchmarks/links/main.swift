// `make bench-links`: what links and text changes cost per frame (issue 15: "less than 5 % extra
// per frame on the card-swap template"). Renders Templates/card-swap.json5 as bundled and a copy
// with seven links (each sheen's opacity follows its card's x, each waiting card's shadow radius
// its y) and text changes (a card's detail line becomes a springing `number` with a `format`,
// the subheading's `string` is set twice), side by side in one process, alternating, every frame,
// best and median of several runs. Reports the layer-tree evaluation alone (where links and
// formatted numbers are computed) and the render path (tree + rasteriser, no encoding), and the
// ratios variant / bundled.
//
//     flick-bench-links [--runs 7] [--every 1]
import FlickRaster
import FlickScene
import FlickTemplates
import Foundation

func option(_ name: String, _ fallback: Int) -> Int {
  let args = CommandLine.arguments
  guard let i = args.firstIndex(of: name), i + 1 < args.count, let v = Int(args[i + 1]), v > 0 else { return fallback }
  return v
}
let runs = option("--runs", 7)
let every = option("--every", 1)

let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
let path = root.appendingPathComponent("Templates/card-swap.json5").path

/// `text` with `insertion` put right after the first occurrence of `marker` (which must exist).
func inserting(_ insertion: String, after marker: String, in text: String) -> String {
  guard let r = text.range(of: marker) else {
    print("bench: card-swap.json5 has no \(marker.debugDescription); update Benchmarks/links/main.swift")
    exit(2)
  }
  return text.replacingCharacters(in: r.upperBound..<r.upperBound, with: insertion)
}

func replacing(_ old: String, with new: String, in text: String) -> String {
  guard text.contains(old) else {
    print("bench: card-swap.json5 has no \(old.debugDescription); update Benchmarks/links/main.swift")
    exit(2)
  }
  return text.replacingOccurrences(of: old, with: new)
}

let bundledText: String
do {
  bundledText = try String(contentsOfFile: path, encoding: .utf8)
} catch {
  print("bench: cannot read \(path): \(error)")
  exit(3)
}
var variantText = replacing(
  #"{ id: "detail1", style: "cardDetail", string: "$detail1" }"#,
  with: #"{ id: "detail1", style: "cardDetail", number: 5.2, format: "%.1f of 7 km" }"#, in: bundledText)
let links = (1...4).map { i in
  #"    { at: 0, target: "sheen\#(i)", link: { opacity: { from: "c\#(i).positionX", input: [480, 900], output: [1, 0.2] } } },"#
} + (2...4).map { i in
  #"    { at: 0, target: "c\#(i)", link: { shadowRadius: { from: "positionY", input: [244, 310], output: [14, 22] } } },"#
}
let text = [
  #"    { at: 0.3, target: "detail1", animate: { number: 6.1 }, curve: "spring(response: 0.6, dampingRatio: 0.6)" },"#,
  #"    { at: 1.5, target: "subheading", set: { string: "Two to go" } },"#,
  #"    { at: 3.2, target: "subheading", set: { string: "One to go" } },"#,
]
variantText = inserting("\n" + (links + text).joined(separator: "\n"), after: "  timeline: [", in: variantText)

let bundled: Template
let variant: Template
do {
  bundled = try Template.decode(bundledText, file: path)
  variant = try Template.decode(variantText, file: path)
} catch {
  print("bench: \(error)")
  exit(2)
}
precondition(variant.scene.animations.count == bundled.scene.animations.count + links.count + text.count)
let frames = Array(stride(from: 0, to: bundled.scene.frameCount, by: every))

func seconds(_ body: () throws -> Void) rethrows -> Double {
  let start = DispatchTime.now().uptimeNanoseconds
  try body()
  return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

/// Seconds per frame of evaluating the layer tree at every frame.
func treeOnly(_ scene: Scene) -> Double {
  var sink = 0.0
  let s = seconds {
    for f in frames { sink += scene.renderTree(at: scene.time(ofFrame: f)).layers[0].position.x }
  }
  precondition(!sink.isNaN)
  return s / Double(frames.count)
}

/// Seconds per frame of evaluating and rasterising every frame (one renderer, as a render does).
func render(_ scene: Scene, _ renderer: Renderer) throws -> Double {
  var sink = 0
  let s = try seconds {
    for f in frames { sink += try renderer.render(scene.renderTree(at: scene.time(ofFrame: f))).width }
  }
  precondition(sink > 0)
  return s / Double(frames.count)
}

var samples: [String: [Double]] = [:]
do {
  let (a, b) = (Renderer(), Renderer())
  // One untimed pass each: caches warm as they would after the first frames of a render.
  _ = try render(bundled.scene, a)
  _ = try render(variant.scene, b)
  for run in 0..<runs {
    // Alternate which goes first, so drift on a shared machine falls on both.
    let order = run % 2 == 0 ? [("bundled", bundled.scene, a), ("variant", variant.scene, b)]
      : [("variant", variant.scene, b), ("bundled", bundled.scene, a)]
    for (name, scene, renderer) in order {
      samples["tree, \(name)", default: []].append(treeOnly(scene))
      samples["render, \(name)", default: []].append(try render(scene, renderer))
    }
  }
} catch {
  print("bench: \(error)")
  exit(3)
}

func median(_ v: [Double]) -> Double {
  let s = v.sorted()
  return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
}
print(
  "card-swap: \(bundled.scene.animations.count) animations; with links and text: \(variant.scene.animations.count) "
    + "(\(links.count) links, \(text.count) text changes); \(frames.count) frames, \(runs) runs, alternating")
for kind in ["tree", "render"] {
  let a = samples["\(kind), bundled"]!, b = samples["\(kind), variant"]!
  print(
    String(
      format: "%-6@ bundled best %8.1f median %8.1f µs/frame   links+text best %8.1f median %8.1f µs/frame   ratio best %.3f median %.3f",
      kind as NSString, a.min()! * 1e6, median(a) * 1e6, b.min()! * 1e6, median(b) * 1e6, b.min()! / a.min()!,
      median(b) / median(a)))
}
