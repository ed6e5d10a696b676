import FlickExpectations
import FlickScene
import Foundation
import Testing

/// ``SVGDocumentCheck`` counts the dashes a picture's `stroke-dasharray` cuts its paths and text
/// into, wherever the pattern is given and however references multiply what it strokes: Cairo
/// walks and keeps every dash (a pattern of 0.01 along a 300,000-unit path took `flick still` 8.7 s
/// and 866 MB), so
/// more than ``SVGDocumentCheck/maximumDashes`` are refused at the pattern, with its line and
/// column, before librsvg is given the picture.
@Suite struct SVGDashTests {
  static func problem(_ body: String) -> SVGDocumentCheck.Problem? {
    SVGDocumentCheckTests.problem(SVGDocumentCheckTests.svg(body))
  }

  static let long = "<path d=\"M0 0 L100000 0 L0 1 L100000 1\" stroke=\"black\""

  @Test func aDenseDashAlongALongPathIsRefusedAtItsAttribute() throws {
    let body = Self.long + " stroke-dasharray=\"0.01\"/>"
    let problem = try #require(Self.problem(body))
    expectEqual(
      problem.message,
      "<path stroke-dasharray>: a dash pattern of 0.01 user units over paths up to 3e+05 user units long "
        + "(1.5e+07 dashes; up to 1e+06 are drawn)")
    expectEqual(problem.line, 2)
    let column = try SVGScanBoundsTests.column(of: "stroke-dasharray=", in: body)
    expectEqual(problem.column, column)
  }

  /// The pattern counts where it is given: a `style` declaration (any case, comments and
  /// `!important` aside), a sheet (for the whole picture), a group above the path, a `<use>` of
  /// it, and in absolute units; a scale above the path changes nothing (Cairo dashes in the
  /// path's own user space). Shapes count at their size however it is given (librsvg reads
  /// `width`, `height` and `r` in CSS too), an arc at the size its radii are scaled up to.
  @Test(arguments: [
    #"<path d="M0 0 L100000 0 L0 1 L100000 1" style="stroke: black; STROKE-DASHARRAY: /* x */ 0.01 !important"/>"#,
    #"<style>path { stroke-dasharray: 0.01 }</style><path d="M0 0 L100000 0 L0 1 L100000 1" stroke="black"/>"#,
    #"<g stroke-dasharray="0.01 0.01"><g transform="scale(0.001)"><path d="M0 0 L100000 0 L0 1 L100000 1"/></g></g>"#,
    #"<g stroke-dasharray="0.1" transform="scale(10 0.01)"><path d="M0 0 L100000 0 L0 1 L100000 1"/></g>"#,
    #"<g stroke-dasharray="0.01mm"><rect width="1e5" height="1e5"/></g>"#,
    #"<defs><path id="p" d="M0 0 L10000 0"/></defs><g stroke-dasharray="0.1">"#
      + String(repeating: ##"<use href="#p"/>"##, count: 30) + "</g>",
    #"<circle r="40000" stroke-dasharray="0.1"/>"#,
    #"<circle style="r: 40000px" stroke-dasharray="0.1"/>"#,
    #"<style>rect { width: 1e5px; height: 1e5px !important }</style><rect stroke-dasharray="0.1"/>"#,
    #"<polyline points="0,0 100000,0 0,0" stroke-dasharray="0.05"/>"#,
    #"<path d="M0 0 A 1e-9 1 0 1 1 10 0" stroke-dasharray="1"/>"#,
  ])
  func aDenseDashIsRefusedWhereverItIsGiven(body: String) throws {
    let problem = try #require(Self.problem(body), "\(body)")
    #expect(problem.message.contains("dashes; up to 1e+06 are drawn)"), "\(problem.message)")
  }

  /// A pattern on a path drawn many times is counted each time it is drawn: 21 times 50,000 dashes.
  @Test func referencesThatMultiplyDashedStrokesAreRefused() throws {
    let body =
      #"<defs><path id="p" d="M0 0 L10000 0" stroke-dasharray="0.1"/></defs>"#
      + String(repeating: ##"<use href="#p"/>"##, count: 20)
    let problem = try #require(Self.problem(body))
    expectEqual(
      problem.message,
      "<svg> makes the picture's dashed strokes more than 1e+06 dashes (every <use> and url(#id) "
        + "drawn where it is used)")
  }

  /// Stroked text is bounded by its characters at the largest font size the picture gives.
  @Test func denselyDashedLargeTextIsRefused() throws {
    let body = #"<text x="0" y="100" font-size="10000" stroke="black" stroke-dasharray="0.5">WWWWWWWWWW</text>"#
    let problem = try #require(Self.problem(body))
    #expect(problem.message.hasPrefix("<text stroke-dasharray>: a dash pattern of 0.5 user units over paths and text"))
    let relative =
      #"<g font-size="10em"><g font-size="1000%"><text font-size="10em" stroke-dasharray="1">WWWWWWWWWW</text></g></g>"#
    #expect(Self.problem(relative) != nil, "relative sizes compound")
    #expect(Self.problem(#"<text font-size="16" stroke-dasharray="4 2">Dashed label</text>"#) == nil)
  }

  @Test(arguments: ["4 two", "calc(1px)", "1vw", "2ch 1"])
  func aDashLengthThatIsNotALengthLibrsvgResolvesIsRefused(pattern: String) throws {
    let problem = try #require(Self.problem(#"<line x2="10" stroke-dasharray="\#(pattern)"/>"#))
    expectEqual(
      problem.message,
      "<line stroke-dasharray> \"\(pattern)\": expected dash and gap lengths (numbers, or px, pt, pc, mm, cm, in, "
        + "%, em, ex)")
  }

  /// Lengths in `%` (of the viewport's normalized diagonal) and `em` or `ex` (of the font size)
  /// count at the least they resolve to: the smallest viewport and font size the picture can
  /// give. A sheet's relative font size counts once per level the document nests, not without
  /// bound.
  @Test func relativeDashLengthsAreAccepted() {
    let body = """
      <style>text { font-size: 120% } .f { stroke-dasharray: 1em 0.5em }</style>
      <line x2="60" stroke="black" stroke-dasharray="5%"/>
      <path d="M0 0 L100000 0" stroke-dasharray="0.5em 1em"/>
      <g font-size="smaller"><rect class="f" width="50" height="20"/></g>
      <svg viewBox="0 0 10 10" width="20%"><circle r="4" stroke-dasharray="2% 1ex"/></svg>
      <marker id="m"><path d="M0 0 L3 3" stroke-dasharray="10%"/></marker>
      <text font-size="16" stroke="black" stroke-dasharray="4 2">Dashed label</text>
      <g font-size="0"><path d="M0 0 L100000 0" stroke-dasharray="1em"/></g>
      """
    #expect(Self.problem(body) == nil)
  }

  /// A relative pattern is still refused where its least size cuts what it strokes past the
  /// cap: a tiny percentage of the root's or of a small nested viewport, em of a small or
  /// shrinking font size.
  @Test(arguments: [
    (#"<path d="M0 0 L100000 0 L0 1 L100000 1" stroke-dasharray="0.01%"/>"#, "at least 0.0064 user units"),
    (#"<svg viewBox="0 0 0.01 0.01"><path d="M0 0 L1000 0" stroke-dasharray="1%"/></svg>"#, "at least 0.0001 "),
    (#"<g font-size="0.001"><path d="M0 0 L100000 0" stroke-dasharray="1em"/></g>"#, "at least 0.001 "),
    (
      #"<svg width="10%" height="5%"><svg width="1%" height="1%"><path d="M0 0 L1000 0" stroke-dasharray="1%"/>"#
        + "</svg></svg>", "at least 0.00032 "
    ),
    (
      String(repeating: #"<g font-size="1%">"#, count: 8) + #"<path d="M0 0 L1000 0" stroke-dasharray="1ex"/>"#
        + String(repeating: "</g>", count: 8), "at least 6e-16 "
    ),
    (
      #"<style>g { font-size: 10% }</style><g><g><text stroke-dasharray="1em">WWWWWWWWWW</text></g></g>"#,
      "at least 0.0012 "
    ),
  ])
  func aDenseRelativePatternIsRefused(body: String, least: String) throws {
    let problem = try #require(Self.problem(body), "\(body)")
    #expect(problem.message.contains("a dash pattern of \(least)"), "\(problem.message)")
    #expect(problem.message.contains("dashes; up to 1e+06 are drawn)"), "\(problem.message)")
  }

  /// A percentage of a viewport whose size has no bound above 0 (a side in em beside one in %)
  /// is refused with what is expected, where no dash would be short enough to matter too.
  @Test func aPercentageOfAViewportOfNoKnownSizeIsRefused() throws {
    let body = #"<svg width="1em" height="50%"><path d="M0 0 L10 0" stroke-dasharray="5%"/></svg>"#
    let problem = try #require(Self.problem(body))
    expectEqual(
      problem.message,
      "<path stroke-dasharray> \"5%\": its lengths in %, em or ex have no size above 0 here (a viewport or a font "
        + "size of the picture can shrink without bound) over paths up to 10 user units long; expected lengths in "
        + "user units, or % of viewports of a given size (a viewBox, or width and height) and em of font sizes "
        + "above 0")
    expectEqual(problem.line, 2)
    #expect(Self.problem(body.replacingOccurrences(of: "5%", with: "5")) == nil)
  }

  /// Ordinary dashed pictures are accepted: patterns of a few units along an icon's or a
  /// poster's outlines, a pattern that draws no dashes, and a dense pattern on a short path.
  @Test func ordinaryDashesAreAccepted() {
    let body = """
      <style>.border { stroke-dasharray: 4 2; }</style>
      <rect class="border" width="2000" height="1000" fill="none" stroke="black"/>
      <g stroke-dasharray="6,3,1,3" transform="scale(100)"><path d="M0 0 C 10 10 20 10 30 0 S 50 -10 60 0"/>
      <circle cx="30" cy="30" r="20"/></g>
      <line x1="0" y1="0" x2="100" y2="0" stroke-dasharray="0.01"/>
      <path d="M0 0 L100000 0" stroke-dasharray="none"/><path d="M0 0 L100000 0" stroke-dasharray="0 0"/>
      <path d="M0 0 L100000 0" stroke-dasharray="-1 2"/>
      <text font-size="24" style="stroke-dasharray: 2px 1px">A dashed title</text>
      """
    #expect(Self.problem(body) == nil)
  }
}
