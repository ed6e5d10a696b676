// Template compile time against the number of animated layers (5 animations each), release
// build. Run with `make bench-compile`. Each row is the median of several runs; the ratio column
// compares a row with the one before it (double the entries: 2.0 is linear, 4.0 quadratic).
import FlickTemplates
import Foundation

/// `layers` layers with 5 animations each (a drag and its release into a decay, a rotation tween
/// handed to a decay, a spring on opacity), as in Tests/FlickTemplatesTests/CompileCostTests.swift.
func template(layers: Int) -> String {
  var layerList: [String] = []
  var timeline: [String] = []
  for i in 0..<layers {
    layerList.append("{ id: \"l\(i)\", size: [20, 20], position: [\(i % 40 * 20), \(i / 40 * 20)] }")
    timeline.append(
      """
      { id: "d\(i)", target: "l\(i)", drag: { by: [[0, 0], [40, -10], [120, -30]], duration: 0.3 } },
      { after: "d\(i)", target: "l\(i)", release: { decay: { deceleration: 0.998 } } },
      { at: 0.1, id: "r\(i)", target: "l\(i)", animate: { rotation: "20deg" }, duration: 0.2 },
      { after: "r\(i)", target: "l\(i)", release: { property: "rotation", decay: {} } },
      { at: 0.2, target: "l\(i)", animate: { opacity: { to: 0.5, spring: { response: 0.3, dampingRatio: 0.6 } } } }
      """)
  }
  return """
    { flick: 1, canvas: { width: 800, height: 600, duration: 3 },
      layers: [\(layerList.joined(separator: ",\n"))],
      timeline: [\(timeline.joined(separator: ",\n"))] }
    """
}

func milliseconds(_ d: Duration) -> Double {
  Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15
}

let runs = 5
print("Flick template compile benchmark: median of \(runs) runs, 5 animations per layer")
print("layers  animations   parse+compile ms   ratio to previous row")
var previous: Double?
for layers in [125, 250, 500, 1000, 2000] {
  let text = template(layers: layers)
  var samples: [Double] = []
  var count = 0
  for _ in 0..<runs {
    let start = ContinuousClock.now
    let t = try Template.decode(text)
    samples.append(milliseconds(ContinuousClock.now - start))
    count = t.scene.animations.count
  }
  let ms = samples.sorted()[runs / 2]
  let ratio = previous.map { String(format: "%.2f", ms / $0) } ?? "-"
  print(String(format: "%6d  %10d   %16.1f   %s", layers, count, ms, ratio))
  previous = ms
}
