import FlickExpectations
import FlickTestSupport
import Foundation
import Testing

/// SVG pictures whose `stroke-dasharray` is in `%` (of the viewport's normalized diagonal) or
/// `em` and `ex` (of the font size) render through `flick still` exactly as the same pictures
/// with those lengths written in user units, and a dense pattern in `%` along a long path is
/// still refused before librsvg draws it.
@Suite struct SVGRelativeDashCommandTests {
  /// Renders `svg` as a 100 × 100 layer's contents to PNG bytes, or returns the failure.
  static func still(_ svg: String) throws -> (png: Data?, result: CLITests.Result) {
    let folder = try CLITests.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    try Data(svg.utf8).write(to: folder.appendingPathComponent("p.svg"))
    let template = folder.appendingPathComponent("t.json5")
    try Data(
      (#"{ flick: 1, canvas: { width: 100, height: 100, fps: 10, duration: 1 },"#
        + "\n  layers: [ { id: \"p\", contents: \"p.svg\", size: [100, 100] } ] }").utf8
    ).write(to: template)
    let out = folder.appendingPathComponent("o.png")
    let r = try CLITests.run(CLITests.flick, ["still", template.path, "--frame", "0", "-o", out.path])
    return (FileManager.default.contents(atPath: out.path), r)
  }

  static func svg(_ body: String) -> String {
    "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 100 100\" width=\"100\" height=\"100\">\n" + body
      + "\n</svg>"
  }

  /// Each picture beside the same one in user units: the viewBox's normalized diagonal is 100,
  /// so 5% is 5; at a font size of 10, 1em is 10 and 1ex 5; a sheet's 120% of the initial 12 is
  /// 14.4.
  @Test(arguments: [
    (
      #"<path d="M10 50 H90" stroke="black" stroke-width="4" stroke-dasharray="5%"/>"#
        + #"<circle cx="50" cy="50" r="30" fill="none" stroke="red" stroke-width="3" stroke-dasharray="3% 2%"/>"#,
      #"<path d="M10 50 H90" stroke="black" stroke-width="4" stroke-dasharray="5"/>"#
        + #"<circle cx="50" cy="50" r="30" fill="none" stroke="red" stroke-width="3" stroke-dasharray="3 2"/>"#
    ),
    (
      #"<g font-size="10"><path d="M10 20 H90" stroke="blue" stroke-width="3" stroke-dasharray="0.5em 1em"/>"#
        + #"<rect x="20" y="40" width="60" height="40" fill="none" stroke="green" style="stroke-dasharray: 1ex"/></g>"#,
      #"<g font-size="10"><path d="M10 20 H90" stroke="blue" stroke-width="3" stroke-dasharray="5 10"/>"#
        + #"<rect x="20" y="40" width="60" height="40" fill="none" stroke="green" style="stroke-dasharray: 5"/></g>"#
    ),
    (
      #"<style>text { font-size: 120% }</style><rect width="100" height="100" fill="white"/>"#
        + #"<text x="5" y="60" fill="none" stroke="black" stroke-dasharray="2 1">Dash</text>"#,
      #"<rect width="100" height="100" fill="white"/>"#
        + #"<text x="5" y="60" font-size="14.4" fill="none" stroke="black" stroke-dasharray="2 1">Dash</text>"#
    ),
  ])
  func aRelativePatternRendersAsItsLengthInUserUnits(relative: String, absolute: String) throws {
    let a = try Self.still(Self.svg(relative))
    expectEqual(a.result.status, 0, "\(a.result.stderr)")
    let b = try Self.still(Self.svg(absolute))
    expectEqual(b.result.status, 0, "\(b.result.stderr)")
    let png = try #require(a.png)
    #expect(png == b.png, "the relative pattern renders differently")
  }

  /// 0.001% of the diagonal (0.001 user units) along 300,000 units is 1.5 · 10⁸ dashes: refused
  /// at the attribute, exit 2, no output, at once.
  @Test func aDensePercentagePatternAlongALongPathIsRefusedQuickly() throws {
    let started = Date()
    let r = try Self.still(
      Self.svg(#"<path d="M0 0 L100000 0 L0 1 L100000 1" stroke="black" stroke-dasharray="0.001%"/>"#))
    #expect(Date().timeIntervalSince(started) < 5)
    expectEqual(r.result.status, 2, "\(r.result.stderr)")
    #expect(r.png == nil)
    #expect(
      r.result.stderr.contains(
        "image \"p.svg\", line 2, column 56: <path stroke-dasharray>: a dash pattern of at least 0.001 user units "
          + "over paths up to 3e+05 user units long (1.5e+08 dashes; up to 1e+06 are drawn)"), "\(r.result.stderr)")
  }
}
