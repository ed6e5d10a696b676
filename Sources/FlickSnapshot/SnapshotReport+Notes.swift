import Foundation

extension SnapshotReport {
  /// The notes the run printed, as the terminal showed them; a banner first when the comparison
  /// fell back to perceptual because the goldens store no inputs.
  func notesHTML() -> String {
    guard !notes.isEmpty else { return "" }
    var html = ""
    if let warning = notes.first(where: { $0.hasPrefix("WARNING") }) {
      html +=
        "<div class=banner style=\"background:#7f1d1d;color:#fff;padding:10px 14px;border-radius:6px;"
        + "font-weight:600\">\(Self.xml(warning))</div>\n"
    }
    html += "<ul class=notes>\n"
    for note in notes { html += "<li>\(Self.xml(note))</li>\n" }
    return html + "</ul>\n"
  }

  /// The renderer's drift of one frame (recorded golden against its inputs re-rendered here),
  /// with the enlarged region, when the golden came from another renderer.
  func driftHTML(_ v: FrameVerdict, relativeTo directory: String) -> String {
    guard let drift = v.rendererDrift else { return "" }
    var html =
      "<p class=meta>\(Self.xml(drift.summary)) (not a design change; "
      + "'flick accept --renderer' takes it in)</p>\n"
    if let zoom = v.artifacts["driftZoom"].map({ Self.xml(Self.relative($0, to: directory)) }) {
      html +=
        "<figure><figcaption>renderer drift, enlarged: recorded golden | difference | re-rendered golden"
        + "</figcaption><a href=\"\(zoom)\"><img src=\"\(zoom)\" alt=\"renderer drift enlarged\"></a></figure>\n"
    }
    return html
  }

  /// With many frames (`--at all`), a filmstrip of the failing range: every frame from the first
  /// failing one to the last, failing ones as their diff image, matching ones as a tick.
  func filmstripHTML(relativeTo directory: String) -> String {
    let failing = verdicts.indices.filter { !verdicts[$0].isPass }
    guard verdicts.count > 5, let first = failing.first, let last = failing.last else { return "" }
    var html =
      "<h2>failing range: \(Self.xml(verdicts[first].name)) … \(Self.xml(verdicts[last].name)) "
      + "(\(failing.count) of \(last - first + 1) frames fail)</h2>\n"
      + "<div class=filmstrip style=\"display:flex;gap:4px;overflow-x:auto\">\n"
    for v in verdicts[first...last] {
      let image = (v.artifacts["diff"] ?? v.artifacts["actual"]).map { Self.xml(Self.relative($0, to: directory)) }
      html += "<figure style=\"margin:0;text-align:center\"><figcaption>\(Self.xml(v.name))</figcaption>"
      if let image, !v.isPass {
        html +=
          "<a href=\"\(image)\"><img src=\"\(image)\" style=\"height:90px;width:auto\" "
          + "alt=\"\(Self.xml(v.status.rawValue))\"></a>"
      } else {
        html += "<div style=\"height:90px;line-height:90px;min-width:40px\">\(v.isPass ? "✓" : "✗")</div>"
      }
      html += "</figure>\n"
    }
    return html + "</div>\n"
  }
}
