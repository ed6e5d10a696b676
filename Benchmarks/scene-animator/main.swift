// `make bench-scene-animator`: the per-frame cost of a scene driven by ONE Animator with 40
// animated properties, against the same motion as 40 per-layer animations (Scene.animations),
// side by side in one process, alternating, best of several runs. Reports the layer-tree
// evaluation (renderTree) alone and with rasterisation, and the ratio animator / per-layer.
//
//     flick-bench-scene-animator [--frames 240] [--runs 5] [--properties 40]
import FlickMotion
import FlickRaster
import FlickScene
import FlickTestSupport
import Foundation

let frames = BenchmarkOption.int("--frames", 240)
let runs = BenchmarkOption.int("--runs", 5)
let properties = BenchmarkOption.int("--properties", 40)

/// 20 cards; each animates position and opacity (40 properties at the default).
let cards = (properties + 1) / 2
let base = Scene(
  size: Size(width: 640, height: 360), fps: 60, duration: Double(frames) / 60, backgroundColor: Color(0x0B1020),
  layers: (0..<cards).map { (i: Int) -> Layer in
    let column = Double(i % 10)
    let row = Double(i / 10)
    let red: Double = Double(i) / Double(cards)
    return Layer(
      id: "card\(i)", bounds: Rect(x: 0, y: 0, width: 60, height: 40),
      position: Point(x: 40 + column * 60, y: 80 + row * 120),
      backgroundColor: Color(red: red, green: 0.5, blue: 0.8), cornerRadius: 8)
  })

func target(_ i: Int) -> Point { Point(x: 40 + Double((i * 7) % 10) * 60, y: 140 + Double(i / 10) * 120) }
func begin(_ i: Int) -> Double { 0.05 * Double(i % 10) }

var viaAnimator = base
var viaLayers = base
var count = 0
for i in 0..<cards {
  let id = "card\(i)"
  let from = base.layers[i].position
  viaAnimator.pop[id].add(.spring(to: target(i)), for: \.position, at: begin(i))
  let spring = SpringAnimation(from: from, to: target(i), parameters: .popDefault, restThreshold: 0.5)
  viaLayers.animations.append(
    LayerAnimation(layerID: id, property: .position, beginTime: begin(i), duration: spring.duration) {
      spring.value(at: $0)
    })
  count += 1
  guard count < properties else { break }
  viaAnimator.pop[id].add(.tween(to: 0.4, duration: 1), for: .opacity, at: begin(i))
  let tween = BasicAnimation(from: 1.0, to: 0.4, duration: 1, timingFunction: .default)
  viaLayers.animations.append(
    LayerAnimation(layerID: id, property: .opacity, beginTime: begin(i), duration: 1) { tween.value(at: $0) })
  count += 1
  guard count < properties else { break }
}
do {
  try viaAnimator.validate()
  try viaLayers.validate()
} catch {
  print("bench: \(error)")
  exit(2)
}
// Same frames from both: the comparison is of equal work.
for f in stride(from: 0, to: frames, by: 17) {
  let t = base.time(ofFrame: f)
  precondition(
    viaAnimator.renderTree(at: t).layers.map(\.position) == viaLayers.renderTree(at: t).layers.map(\.position))
}

func seconds(_ body: () -> Void) -> Double {
  let start = DispatchTime.now().uptimeNanoseconds
  body()
  return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

/// Seconds per frame of evaluating the layer tree at every frame (the result is used, so it is not optimised away).
func treeOnly(_ scene: Scene) -> Double {
  var sink = 0.0
  let s = seconds {
    for f in 0..<frames { sink += scene.renderTree(at: scene.time(ofFrame: f)).layers[0].position.x }
  }
  precondition(!sink.isNaN)
  return s / Double(frames)
}
/// Seconds per frame of evaluating and rasterising every fourth frame.
func withRaster(_ scene: Scene) -> Double {
  let renderer = Renderer()
  var sink = 0
  let s = seconds {
    for f in stride(from: 0, to: frames, by: 4) {
      if let frame = try? renderer.render(scene.renderTree(at: scene.time(ofFrame: f))) { sink += frame.width }
    }
  }
  precondition(sink > 0)
  return s / Double((frames + 3) / 4)
}

var best: [String: Double] = [:]
for _ in 0..<runs {
  for (name, value) in [
    ("tree, animator", treeOnly(viaAnimator)), ("tree, per-layer", treeOnly(viaLayers)),
    ("raster, animator", withRaster(viaAnimator)), ("raster, per-layer", withRaster(viaLayers)),
  ] {
    best[name] = min(best[name] ?? .infinity, value)
  }
}
print("scene: \(cards) layers, \(count) animated properties, \(frames) frames at 60 fps; best of \(runs) runs")
for kind in ["tree", "raster"] {
  let a = best["\(kind), animator"]!, l = best["\(kind), per-layer"]!
  print(
    String(
      format: "%-7@ one Animator %9.1f µs/frame   per-layer animations %9.1f µs/frame   ratio %.2f", kind as NSString,
      a * 1e6, l * 1e6, a / l))
}
