import FlickExpectations
import FlickTemplates
import Foundation
import Testing

/// Bare angles above a full turn get a warning suggesting the degree form (issue 15, item 8).
@Suite struct AngleLintTests {
  @Test func bareAnglesAboveATurnAreNamedWithTheirPlace() {
    let text = """
      { flick: 1, canvas: { width: 100, height: 100, duration: 1 },
        layers: [{ id: "card", size: [10, 10], transform: { rotation: 45, rotationY: 3.1 },
                   path: { arc: [0, 0], radius: 4, startAngle: 0, endAngle: 360 } }],
        timeline: [{ target: "card", property: "rotationX", to: 90, duration: 0.5 },
                   { target: "card", animate: { rotation: { from: -720, to: "90deg" } } },
                   { target: "card", animate: { rotation: { keyframes: { values: [0, 6.2, 12] } } } },
                   { target: "card", set: { rotation: 1.5 } }] }
      """
    let w = Template.angleWarnings(in: text, file: "t.json5")
    expectEqual(w.count, 5, "\(w)")
    expectEqual(
      w.first,
      "t.json5:2:65: layers[0].transform.rotation: 45 is in radians (2578°, more than a full turn); for degrees write \"45deg\""
    )
    #expect(w.contains { $0.contains("layers[0].path.endAngle: 360") })
    #expect(w.contains { $0.contains("timeline[0].to: 90") && $0.contains("\"90deg\"") })
    #expect(w.contains { $0.contains("timeline[1].animate.rotation.from: -720") })
    #expect(w.contains { $0.contains("timeline[2].animate.rotation.keyframes.values[2]: 12") })
  }

  @Test func bundledTemplatesHaveNone() throws {
    for url in FixturePaths.json5Files(in: FixturePaths.templates) {
      let text = try String(contentsOf: url, encoding: .utf8)
      expectEqual(Template.angleWarnings(in: text, file: url.lastPathComponent), [], "\(url.lastPathComponent)")
    }
  }
}
