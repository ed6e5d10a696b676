import FlickExpectations
import Foundation
import Testing

@testable import FlickStudio

/// `/api/template`: the compiled state the page draws its panels from.
@Suite struct StudioTemplateStateTests {
  struct State: Decodable {
    struct Track: Decodable {
      struct Segment: Decodable {
        var start: Double
        var end: Double?
        var kind: String
        var label: String
      }
      var layer: String
      var property: String
      var segments: [Segment]
      var joins: [Double]
    }
    struct Layer: Decodable {
      var id: String
      var parent: String?
      var kind: String
    }
    struct Parameter: Decodable {
      var name: String
      var type: String
    }
    var name: String
    var revision: Int
    var ok: Bool
    var layers: [Layer]
    var tracks: [Track]
    var parameters: [Parameter]
  }

  /// One session per template, however the page or a script spells its name: a session per
  /// spelling was compiled, kept and recompiled at every change of its files.
  @Test func everySpellingOfANameIsOneSession() throws {
    let h = try StudioHarness()
    for name in ["pulse.json5", "./pulse.json5", ".//pulse.json5", "././pulse.json5"] {
      let answer = try h.get(
        "/api/template?template=\(name.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)")
      expectEqual(answer.status, 200, "\(name): \(answer.text)")
    }
    expectEqual(h.studio.sessions.withLock { Array($0.keys) }, ["pulse.json5"])
  }

  @Test func tracksLayersAndParametersAreListed() throws {
    let h = try StudioHarness()
    let response = try h.get("/api/template?template=pulse.json5")
    #expect(response.text.contains(#""error":null"#))
    let state = try JSONDecoder().decode(State.self, from: response.body)
    #expect(state.ok)
    expectEqual(state.name, "pulse.json5")
    expectEqual(state.revision, 1)
    expectEqual(state.layers.map(\.id), ["card", "dot", "picture"])
    expectEqual(state.layers.map(\.parent), [nil, "card", nil])
    #expect(state.parameters.map(\.name) == ["accent"] && state.parameters[0].type == "color")
    let kinds = Dictionary(
      uniqueKeysWithValues: state.tracks.map { ("\($0.layer).\($0.property)", $0.segments.map(\.kind)) })
    expectEqual(kinds["card.position"], ["tween"])
    expectEqual(kinds["card.rotation"], ["spring"])
    let position = try #require(state.tracks.first { $0.property == "position" })
    expectEqual(position.segments[0].start, 0.2)
    expectLess(abs((position.segments[0].end ?? 0) - 1.4), 1e-9)
  }

  @Test func aDragHandsOverToAReleaseAtAJoin() throws {
    let h = try StudioHarness()
    let source = """
      { flick: 1, canvas: { width: 100, height: 100, fps: 30, duration: 3 },
        layers: [{ id: "card", size: [10, 10], position: [20, 50], backgroundColor: "#FFFFFF" }],
        timeline: [
          { id: "d", at: 0.1, target: "card", drag: { by: [[0, 0], [40, 0]], duration: 0.3 } },
          { after: "d", target: "card", release: { decay: { deceleration: 0.998 } } },
        ] }
      """
    try Data(source.utf8).write(to: h.folder.appendingPathComponent("drag.json5"))
    let response = try h.get("/api/template?template=drag.json5")
    let state = try JSONDecoder().decode(State.self, from: response.body)
    #expect(state.ok, "\(response.text)")
    let track = try #require(state.tracks.first { $0.layer == "card" && $0.property == "position" }, "\(response.text)")
    expectEqual(track.segments.map(\.kind), ["drag", "release"], "\(response.text)")
    expectEqual(track.joins, [track.segments[1].start])
    #expect(track.segments[1].label.hasPrefix("release (decay)"))
  }
}
