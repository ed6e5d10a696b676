import Foundation

extension MotionComparison {
  /// An HTML section: one line per changed property and, for each changed one, inline SVG plots
  /// of the golden's value and velocity (grey) against today's (red) for the component that
  /// moved most, with a marker at the first differing time.
  package func html() -> String {
    var html =
      "<section class=\(passed ? "pass" : "fail")><h2><span class=badge>\(passed ? "match" : "changed")"
      + "</span> motion</h2>\n"
    if passed {
      return html + "<p class=msg>every animated property matches the motion golden (\(golden.tracks.count) "
        + "properties × \(golden.times.count) times)</p></section>\n"
    }
    for d in differences {
      html += "<p class=msg>\(SnapshotReport.xml(d.summary))</p>\n"
      guard d.kind == "changed",
        let old = golden.tracks.first(where: { $0.layerID == d.layerID && $0.property == d.property }),
        let new = actual.tracks.first(where: { $0.layerID == d.layerID && $0.property == d.property })
      else { continue }
      let c = Self.mostChangedComponent(old.samples.map(\.value), new.samples.map(\.value))
      let times = old.samples.map(\.time)
      html += "<div class=views>"
      html += Self.svg(
        title: "value[\(c)]", times: times, old: old.samples.map { $0.value[c] },
        new: new.samples.map { $0.value.count > c ? $0.value[c] : .nan }, mark: d.firstTime)
      html += Self.svg(
        title: "velocity[\(c)]", times: times, old: old.samples.map { $0.velocity[c] },
        new: new.samples.map { $0.velocity.count > c ? $0.velocity[c] : .nan }, mark: d.firstTime)
      html += "</div>\n"
    }
    return html + "</section>\n"
  }

  static func mostChangedComponent(_ a: [[Double]], _ b: [[Double]]) -> Int {
    guard let width = a.first?.count, width > 0 else { return 0 }
    var best = 0, largest = -1.0
    for c in 0..<width {
      let d = zip(a, b).map { $1.count > c ? abs($0[c] - $1[c]) : 0 }.max() ?? 0
      if d > largest {
        largest = d
        best = c
      }
    }
    return best
  }

  /// A 480 × 160 plot of two series against time: `old` grey, `new` red.
  static func svg(title: String, times: [Double], old: [Double], new: [Double], mark: Double?) -> String {
    let w = 480.0, h = 160.0, pad = 24.0
    let finite = (old + new).filter(\.isFinite)
    let lo = finite.min() ?? 0, hi = finite.max() ?? 1
    let span = hi - lo > 0 ? hi - lo : 1
    let t0 = times.first ?? 0, t1 = max(times.last ?? 1, t0 + 1e-9)
    func x(_ t: Double) -> Double { pad + (t - t0) / (t1 - t0) * (w - 2 * pad) }
    func y(_ v: Double) -> Double { h - pad - (v - lo) / span * (h - 2 * pad) }
    func line(_ values: [Double], _ colour: String, _ width: Double) -> String {
      let points = zip(times, values).filter { $0.1.isFinite }.map { String(format: "%.1f,%.1f", x($0.0), y($0.1)) }
      return "<polyline fill=none stroke=\"\(colour)\" stroke-width=\"\(width)\" "
        + "points=\"\(points.joined(separator: " "))\"/>"
    }
    var svg =
      "<figure><figcaption>\(SnapshotReport.xml(title)): golden grey, now red</figcaption>"
      + "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(w))\" height=\"\(Int(h))\" "
      + "style=\"background:#1f2937\">"
    if let mark {
      svg += String(
        format: "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"0\" y2=\"%.0f\" stroke=\"#f59e0b\"/>", x(mark), x(mark), h)
    }
    svg += line(old, "#9ca3af", 3) + line(new, "#ef4444", 1.5)
    svg += String(format: "<text x=\"4\" y=\"12\" fill=\"#9ca3af\" font-size=\"10\">%.4g</text>", hi)
    svg += String(format: "<text x=\"4\" y=\"%.0f\" fill=\"#9ca3af\" font-size=\"10\">%.4g</text>", h - 4, lo)
    return svg + "</svg></figure>"
  }
}
