// `make bench-links`: what links and text changes cost per frame (issue 15: "less than 5 % extra
// per frame on the card-swap template"). Renders Templates/card-swap.json5 as bundled and two
// copies, each with seven links and three text changes put first in its timeline, side by side
// in one process, interleaved frame by frame (the order rotating), best and median of several runs:
//
// - "same pictures": the links and text changes draw exactly card-swap's frames (checked), so
//   the difference is the cost of evaluating them;
// - "new pictures": links and text changes that change what is drawn (fading sheens, shadows
//   that grow, a counter that counts): what those pictures cost.
//
// Reports the layer-tree evaluation alone (where links and formatted numbers are computed) and
// the render path (tree + rasteriser, no encoding), with ratios to the bundled template.
//
//     flick-bench-links [--runs 7] [--every 1]
import FlickRaster
import FlickScene
import FlickTemplates
import FlickTestSupport
import Foundation

let runs = BenchmarkOption.int("--runs", 7)
let every = BenchmarkOption.int("--every", 1)

let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent()
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
/// The bundled template with `links` and `text` entries put first in its timeline (and the
/// detail line of card 1 made a number shown through a format).
func variant(_ links: [String], _ text: [String], number: String) -> String {
  let t = replacing(
    #"{ id: "detail1", style: "cardDetail", string: "$detail1" }"#,
    with: #"{ id: "detail1", style: "cardDetail", number: \#(number) }"#, in: bundledText)
  return inserting("\n" + (links + text).joined(separator: "\n"), after: "  timeline: [", in: t)
}

// Same pictures: each card's tilt follows its x (0 while it waits at x = 480; card 1's own
// rotation takes over when it is flicked, from the linked value and velocity, 0 and 0), and each
// card's ring follows its card's x the same way; the detail line is a number that springs from 5.2
// to 5.24 (it still reads "5.2 of 7 km") and the subheading is set to its own text twice. Every
// frame is the bundled one, so the difference is what links and text changes cost.
let sameLinks =
  (1...4).map { i in
    #"    { at: 0, target: "c\#(i)", link: { rotation: { from: "positionX", input: [200, 480], output: ["-12deg", "0deg"] } } },"#
  }
  + (1...3).map { i in
    #"    { at: 0, target: "bolt\#(i)", link: { rotation: { from: "c\#(i).positionX", input: [200, 480], output: ["-90deg", "0deg"] } } },"#
  }
let sameText = [
  #"    { at: 0.3, target: "detail1", animate: { number: 5.24 }, curve: "spring(response: 1.5, dampingRatio: 0.6)" },"#,
  #"    { at: 1.5, target: "subheading", set: { string: "$subheading" } },"#,
  #"    { at: 3.2, target: "subheading", set: { string: "$subheading" } },"#,
]
// Different pictures: the sheens fade as their cards leave, the waiting cards' shadows grow as
// they come forward (a shadow whose radius changes is blurred again on every frame), the detail
// line counts up and the subheading changes: what those pictures cost, links included.
let visibleLinks =
  (1...4).map { i in
    #"    { at: 0, target: "sheen\#(i)", link: { opacity: { from: "c\#(i).positionX", input: [480, 900], output: [1, 0.2] } } },"#
  }
  + (2...4).map { i in
    #"    { at: 0, target: "c\#(i)", link: { shadowRadius: { from: "positionY", input: [244, 310], output: [14, 22] } } },"#
  }
let visibleText = [
  #"    { at: 0.3, target: "detail1", animate: { number: 6.1 }, curve: "spring(response: 0.6, dampingRatio: 0.6)" },"#,
  #"    { at: 1.5, target: "subheading", set: { string: "Two to go" } },"#,
  #"    { at: 3.2, target: "subheading", set: { string: "One to go" } },"#,
]

let scenes: [(name: String, template: Template)]
do {
  let bundled = try Template.decode(bundledText, file: path)
  let same = try Template.decode(variant(sameLinks, sameText, number: #"5.2, format: "%.1f of 7 km""#), file: path)
  let visible = try Template.decode(
    variant(visibleLinks, visibleText, number: #"5.2, format: "%.1f of 7 km""#), file: path)
  scenes = [("bundled", bundled), ("same pictures", same), ("new pictures", visible)]
} catch {
  print("bench: \(error)")
  exit(2)
}
let bundled = scenes[0].template
for (_, t) in scenes.dropFirst() {
  precondition(t.scene.animations.count == bundled.scene.animations.count + 10)
}
let frames = Array(stride(from: 0, to: bundled.scene.frameCount, by: every))

func seconds(_ body: () throws -> Void) rethrows -> Double {
  let start = DispatchTime.now().uptimeNanoseconds
  try body()
  return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

/// One pass over every frame: each frame is evaluated (and, with `raster`, drawn) for every scene
/// in turn, the order rotating from frame to frame, so load from other processes falls on all of
/// them alike. Returns seconds per frame for each scene.
func pass(raster: Bool, _ renderers: [Renderer]) throws -> [Double] {
  var total = Array(repeating: 0.0, count: scenes.count)
  var sink = 0.0
  for (n, f) in frames.enumerated() {
    for k in 0..<scenes.count {
      let i = (k + n) % scenes.count
      let scene = scenes[i].template.scene
      total[i] += try seconds {
        let tree = scene.renderTree(at: scene.time(ofFrame: f))
        sink += raster ? Double(try renderers[i].render(tree).width) : tree.layers[0].position.x
      }
    }
  }
  precondition(!sink.isNaN)
  return total.map { $0 / Double(frames.count) }
}

var samples: [String: [Double]] = [:]
do {
  let renderers = scenes.map { _ in Renderer() }
  // The "same pictures" scene must draw exactly the bundled frames.
  for f in stride(from: 0, to: bundled.scene.frameCount, by: 5) {
    let t = bundled.scene.time(ofFrame: f)
    let a = try renderers[0].render(bundled.scene.renderTree(at: t))
    let b = try renderers[1].render(scenes[1].template.scene.renderTree(at: t))
    guard a.pixels == b.pixels else {
      print("bench: frame \(f) of the same-pictures copy differs from card-swap's; fix Benchmarks/links/main.swift")
      exit(1)
    }
  }
  // One untimed pass: caches warm as they would after the first frames of a render.
  _ = try pass(raster: true, renderers)
  for _ in 0..<runs {
    for (kind, raster) in [("tree", false), ("render", true)] {
      for (i, v) in try pass(raster: raster, renderers).enumerated() {
        samples["\(kind), \(scenes[i].name)", default: []].append(v)
      }
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
  "card-swap: \(bundled.scene.animations.count) animations; each copy adds 7 links and 3 text changes; "
    + "\(frames.count) frames, \(runs) runs, interleaved frame by frame; µs per frame, best / median")
for kind in ["tree", "render"] {
  let base = samples["\(kind), bundled"]!
  for (name, _) in scenes {
    let v = samples["\(kind), \(name)"]!
    print(
      String(
        format: "%-6@ %-14@ %9.1f / %9.1f   ratio to bundled %.3f / %.3f", kind as NSString, name as NSString,
        v.min()! * 1e6, median(v) * 1e6, v.min()! / base.min()!, median(v) / median(base)))
  }
}
