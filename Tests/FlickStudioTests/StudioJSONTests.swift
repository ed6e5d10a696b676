import FlickExpectations
import FlickTestSupport
import Foundation
import Testing

@testable import FlickStudio

/// The studio's JSON parses whatever names and numbers it carries.
@Suite struct StudioJSONTests {
  /// `/api/trace` writes what `flick trace` writes: JSON that parses for any layer id, and
  /// `null` for a velocity that overflows.
  @Test func traceJSONParsesForHostileIDsAndOverflows() throws {
    let ids = ["a\n\u{1}b", "q\"\\", "line\u{2028}sep", "esc\u{1B}[0m"]
    let layers = ids.map { id in
      let literal = id.unicodeScalars.map {
        $0.value < 0x20 || $0 == "\"" || $0 == "\\" ? String(format: "\\u%04X", $0.value) : String($0)
      }.joined()
      return #"{ id: "\#(literal)", size: [4, 4] }"#
    }
    let template = """
      { flick: 1, canvas: { width: 64, height: 64, fps: 10, duration: 1 }, layers: [\(layers.joined(separator: ", "))],
        timeline: [{ target: "q\\"\\\\", animate: { positionX: { from: 1e308, to: -1e308 } }, duration: 0.5, curve: "linear" }] }
      """
    let h = try StudioHarness(files: ["ids.json5": template])
    for id in ids {
      let query = try #require(id.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
      let response = try h.get("/api/trace?template=ids.json5&layer=\(query)&property=positionX")
      expectEqual(response.status, 200, "\(response.text)")
      let object = try #require(
        try JSONSerialization.jsonObject(with: response.body) as? [String: Any], "\(response.text)")
      expectEqual(object["layer"] as? String, id)
      if id == "q\"\\" {
        let samples = try #require(object["samples"] as? [[String: Any]])
        #expect(samples.contains { $0["velocity"] is NSNull }, "\(response.text)")
      }
    }
  }
}
