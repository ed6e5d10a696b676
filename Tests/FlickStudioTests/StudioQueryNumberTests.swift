import FlickExpectations
import FlickTestSupport
import Foundation
import Testing

@testable import FlickStudio

/// Every number a studio endpoint reads from its query is checked at both ends: NaN, infinities,
/// negatives, tiny and huge values are a 400 naming the parameter, never a 500 from the renderer
/// nor a value silently taken for another.
@Suite struct StudioQueryNumberTests {
  static func refused(_ h: StudioHarness, _ path: String, _ words: String) throws {
    let response = try h.get(path)
    expectEqual(response.status, 400, "\(path): \(response.text)")
    #expect(response.text.contains(words), "\(path): \(response.text)")
    #expect(try JSONSerialization.jsonObject(with: response.body) is [String: Any], "\(path)")
  }

  @Test func aScaleGivingASideUnderOnePixelIsRefused() throws {
    let h = try StudioHarness()
    // pulse.json5 is 160×90: 0.005 draws 1×0 (0.45 rounds to 0), 0.001 and 1e-300 0×0.
    for scale in ["0.001", "1e-300", "0.005", "4.9e-324"] {
      try Self.refused(h, "/api/frame.png?template=pulse.json5&t=0&scale=\(scale)", "each side must be 1…16384 pixels")
    }
    for scale in ["0", "-1", "nan", "inf", "-inf", "1e300", "17", "x"] {
      try Self.refused(
        h, "/api/frame.png?template=pulse.json5&t=0&scale=\(scale)", "scale= expects a number in (0, 16]")
    }
    // The smallest scale that draws a pixel each way, and the largest allowed.
    for scale in ["0.006", "16"] {
      let response = try h.get("/api/frame.png?template=pulse.json5&t=0&scale=\(scale)")
      expectEqual(response.status, 200, "\(scale): \(response.text)")
    }
  }

  @Test func timesAndSequencesAreCheckedOnEveryEndpoint() throws {
    let h = try StudioHarness()
    for endpoint in ["frame.png", "hit", "layer"] {
      let base = "/api/\(endpoint)?template=pulse.json5&x=1&y=1&layer=card"
      for t in ["nan", "inf", "-inf", "-1", "1e300", "-1e-300"] { try Self.refused(h, base + "&t=\(t)", "t=") }
      for frame in ["-1", "20", "1e3", "nan", "1.5"] { try Self.refused(h, base + "&frame=\(frame)", "frame=") }
      for at in ["nan%25", "-1%25", "101%25", "1e300%25", "inf"] { try Self.refused(h, base + "&at=\(at)", "at=") }
      // Two of the three: refused as the command refuses --time with --frame.
      try Self.refused(h, base + "&t=0&frame=1", "give one of t=, frame= and at=")
      let tiny = try h.get(base + "&t=1e-300")
      expectEqual(tiny.status, 200, "\(endpoint): \(tiny.text)")
    }
    for seq in ["nan", "-1", "1e3", "99999999999999999999", "x"] {
      try Self.refused(h, "/api/frame.png?template=pulse.json5&t=0&seq=\(seq)", "seq= expects a whole number")
    }
    for (x, y) in [("nan", "1"), ("1", "inf"), ("-inf", "1"), ("x", "1")] {
      try Self.refused(h, "/api/hit?template=pulse.json5&t=0&x=\(x)&y=\(y)", "hit needs x= and y=")
    }
    for fps in ["nan", "inf", "0", "-1", "1e300", "10001"] {
      try Self.refused(h, "/api/trace?template=pulse.json5&layer=card&property=opacity&fps=\(fps)", "fps=")
    }
    let slow = try h.get("/api/trace?template=pulse.json5&layer=card&property=opacity&fps=1e-300")
    expectEqual(slow.status, 200, "\(slow.text)")
    #expect(try JSONSerialization.jsonObject(with: slow.body) is [String: Any])
  }
}
