// Template compile time against the number of animated layers (5 animations each), release
// build. Run with `make bench-compile`. Each row is the median of several runs; the ratio column
// compares a row with the one before it (double the entries: 2.0 is linear, 4.0 quadratic).
import FlickTemplates
import FlickTestSupport
import Foundation

func milliseconds(_ d: Duration) -> Double {
  Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15
}

let runs = 5
print("Flick template compile benchmark: median of \(runs) runs, 5 animations per layer")
print("layers  animations   parse+compile ms   ratio to previous row")
var previous: Double?
for layers in [125, 250, 500, 1000, 2000] {
  let text = AnimatedLayersTemplate.text(layers: layers)
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
