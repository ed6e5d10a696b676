import FlickExpectations
import FlickScene
import Foundation
import Testing

/// ``SVGDocumentCheck``'s CSS reading: `url(` is found in either case, and a capital `U` that
/// does not start one (a name, a font, a comment) is only a letter.
@Suite struct SVGCSSURLTests {
  @Test(arguments: [
    #"<g data-name="Union"><rect width="4" height="4"/></g>"#,
    #"<text font-family="Ubuntu">U</text>"#,
    #"<style>/* Ultra */ rect { font-family: Ubuntu; fill: #f00 }</style>"#,
    #"<rect style="font-family: Ubuntu" width="4" height="4"/>"#,
  ])
  func aCapitalUIsNotAURL(body: String) {
    let problem = SVGDocumentCheckTests.problem(SVGDocumentCheckTests.svg(body))
    #expect(problem == nil, "\(String(describing: problem))")
  }

  @Test(arguments: [
    #"<rect style="fill: URL(other.svg#p)" width="4" height="4"/>"#,
    #"<style>rect { fill: Url(x.svg#a) }</style>"#,
    #"<rect fill="uRl(x.svg#a)" width="4" height="4"/>"#,
  ])
  func aURLInAnyCaseIsStillRead(body: String) throws {
    let problem = try #require(SVGDocumentCheckTests.problem(SVGDocumentCheckTests.svg(body)))
    expectEqual(problem.line, 2, "\(problem)")
  }
}
