import FlickExpectations
import Foundation
import Testing

@testable import FlickStudio

/// `/api/template`'s timeline: the template's events (entries with an id), each join read from
/// both sides with the velocity jumps flagged, and the kinds with their colours.
@Suite struct StudioTimelineTests {
  struct State: Decodable {
    struct Side: Decodable {
      var value: [Double]
      var velocity: [Double]
    }
    struct HandOver: Decodable {
      var time: Double
      var before: Side
      var after: Side
      var velocityJump: Double
      var tolerance: Double
      var discontinuous: Bool
    }
    struct Track: Decodable {
      var layer: String
      var property: String
      var joins: [Double]
      var handOvers: [HandOver]
    }
    struct Event: Decodable {
      var time: Double
      var name: String
      var end: Double?
    }
    struct Kind: Decodable {
      var name: String
      var color: String
    }
    var ok: Bool
    var tracks: [Track]
    var events: [Event]
    var kinds: [Kind]
  }

  /// `a` is interrupted by a spring told to start from rest (`velocity: [0, 0]`: its velocity
  /// jumps); `b` by a spring, which takes the velocity over (continuous); `c` is dragged and
  /// released (continuous).
  static let joins = """
    { flick: 1, canvas: { width: 100, height: 100, fps: 30, duration: 2 },
      layers: [
        { id: "a", size: [10, 10], position: [0, 20], backgroundColor: "#FFFFFF" },
        { id: "b", size: [10, 10], position: [0, 50], backgroundColor: "#FFFFFF" },
        { id: "c", size: [10, 10], position: [0, 80], backgroundColor: "#FFFFFF" },
      ],
      timeline: [
        { id: "go", target: "a", property: "position", to: [100, 20], at: 0, duration: 1, curve: "easeInEaseOut" },
        { id: "stop", target: "a", property: "position", to: [20, 20], at: 0.5, velocity: [0, 0],
          spring: { bounciness: 4, speed: 12 } },
        { target: "b", property: "position", to: [100, 50], at: 0, duration: 1, curve: "easeInEaseOut" },
        { target: "b", property: "position", to: [20, 50], at: 0.5, spring: { bounciness: 4, speed: 12 } },
        { id: "d", at: 0.1, target: "c", drag: { by: [[0, 0], [40, 0]], duration: 0.3 } },
        { after: "d", target: "c", release: { decay: { deceleration: 0.998 } } },
      ] }
    """

  static func state(_ h: StudioHarness, _ name: String) throws -> State {
    let response = try h.get("/api/template?template=\(name)")
    expectEqual(response.status, 200, "\(response.text)")
    return try JSONDecoder().decode(State.self, from: response.body)
  }

  @Test func joinsAreReadFromBothSidesAndJumpsFlagged() throws {
    let h = try StudioHarness(files: ["joins.json5": Self.joins])
    let state = try Self.state(h, "joins.json5")
    #expect(state.ok)
    func handOver(_ layer: String) throws -> State.HandOver {
      let track = try #require(state.tracks.first { $0.layer == layer && $0.property == "position" })
      expectEqual(track.handOvers.map(\.time), track.joins)
      return try #require(track.handOvers.first)
    }
    // a: moving right at the join, then a spring from rest: the velocity drops to 0.
    let a = try handOver("a")
    expectEqual(a.time, 0.5)
    expectGreater(a.before.velocity[0], 100, "\(a.before)")
    #expect(abs(a.after.velocity[0]) < 1e-9 && abs(a.after.velocity[1]) < 1e-9, "\(a.after)")
    expectEqual(a.before.value, a.after.value)
    #expect(a.discontinuous)
    expectGreater(a.velocityJump, a.tolerance)
    // b: the spring takes the velocity over.
    let b = try handOver("b")
    expectLess(abs(b.before.velocity[0] - b.after.velocity[0]), 1e-6, "\(b.before) \(b.after)")
    #expect(!b.discontinuous)
    expectLessOrEqual(b.velocityJump, b.tolerance)
    // c: the release takes the drag's velocity.
    let c = try handOver("c")
    expectGreater(c.before.velocity[0], 0)
    #expect(!c.discontinuous, "\(c.before) \(c.after)")
  }

  @Test func theToleranceIsStated() {
    // 0.001 units/s plus 2 % of the larger speed on either side.
    expectEqual(JoinLimit.tolerance([0, 0], [0, 0]), 0.001)
    expectLess(abs(JoinLimit.tolerance([300, 400], [0, 0]) - 10.001), 1e-12)
    expectLess(abs(JoinLimit.tolerance([3], [-4]) - 0.081), 1e-12)
  }

  @Test func eventsAreTheEntriesWithAnID() throws {
    let h = try StudioHarness(files: ["joins.json5": Self.joins])
    let state = try Self.state(h, "joins.json5")
    expectEqual(state.events.map(\.name), ["go", "stop", "d"])
    expectEqual(state.events.map(\.time), [0, 0.5, 0.1])
    expectEqual(state.events[0].end, 1)
    // A repeated group: one event per iteration.
    let repeated = """
      { flick: 1, canvas: { width: 100, height: 100, fps: 10, duration: 3 },
        layers: [{ id: "a", size: [10, 10], position: [0, 20], backgroundColor: "#FFFFFF" }],
        timeline: [{ group: [{ id: "hop", target: "a", property: "positionY", to: 40, duration: 0.5 }], repeat: 3 }] }
      """
    try Data(repeated.utf8).write(to: h.folder.appendingPathComponent("repeat.json5"))
    let again = try Self.state(h, "repeat.json5")
    #expect(again.ok)
    expectEqual(again.events.map(\.name), ["hop", "hop", "hop"], "\(again.events)")
    expectEqual(again.events.map(\.time), [0, 0.5, 1])
  }

  @Test func kindsComeWithTheirColoursAndNewKindsGetOne() throws {
    let h = try StudioHarness(files: ["joins.json5": Self.joins])
    let state = try Self.state(h, "joins.json5")
    expectEqual(state.kinds.map(\.name), ["drag", "release", "spring", "tween"])
    #expect(state.kinds.allSatisfy { $0.color.count == 7 && $0.color.hasPrefix("#") })
    expectEqual(SegmentKindColor.color(for: "spring"), "#4f9dff")
    // A kind no one chose a colour for yet (a new curve's kindName) still gets one, stable.
    let spin = SegmentKindColor.color(for: "spin")
    expectEqual(spin.count, 7)
    #expect(spin.hasPrefix("#"))
    expectEqual(spin, SegmentKindColor.color(for: "spin"))
    #expect(SegmentKindColor.legend([]).isEmpty)
  }
}
