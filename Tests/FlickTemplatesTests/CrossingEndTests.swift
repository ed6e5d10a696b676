import FlickExpectations
import FlickScene
@testable import FlickTemplates
import Testing

/// `when` sees a motion that ends exactly at the level: the search reads the settled value at a
/// segment's end, whatever the decimals of its begin and length (0.2 + 0.5 is 0.7, but 0.7 − 0.2
/// is 0.49999999999999994, where a linear tween to 100 read just under 100). Every kind of
/// segment that ends on the level is tried on a grid of begin times and lengths.
@Suite struct CrossingEndTests {
  /// `a` moves by `entry` (placed with `at` and lasting `duration`); `dot` waits for `when`.
  static func template(_ entry: String, when: String) throws -> Template {
    try Template.decode(
      """
      { flick: 1, canvas: { width: 200, height: 100, fps: 10, duration: 10 },
        layers: [ { id: "a", size: [10, 10], position: [0, 0] }, { id: "dot", size: [10, 10], opacity: 0 } ],
        timeline: [
          \(entry),
          { when: { target: "a", \(when) }, target: "dot", set: { opacity: 1 } },
        ] }
      """, file: "when-end.json5")
  }

  /// The begin of `dot`'s entry, and the end of the last animation of `a` (its settle time).
  static func crossing(_ entry: String, when: String) throws -> (begin: Double, end: Double) {
    let t = try template(entry, when: when)
    let begin = try #require(t.scene.animations.first { $0.layerID == "dot" }).beginTime
    let end = t.scene.animations.filter { $0.layerID == "a" }.map { $0.beginTime + $0.duration }.max() ?? 0
    return (begin, end)
  }

  /// Begin times 0…1 s and lengths 0.05…1 s on a 0.05 s grid, written as decimals.
  static let grid: [(at: String, duration: String)] = (0...20).flatMap { i in
    (1...20).map { j in (decimal(i), decimal(j)) }
  }

  static func decimal(_ twentieths: Int) -> String {
    let s = "\(Double(twentieths) * 5 / 100)"
    return s.hasSuffix(".0") ? String(s.dropLast(2)) : s
  }

  /// Expects every `entry(at, duration)` of the grid to cross at its end (within `tolerance` s).
  static func expectCrossingAtEnd(
    _ grid: [(at: String, duration: String)], when: String, tolerance: Double = 1e-9,
    _ entry: (String, String) -> String, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    var misses: [String] = []
    for (at, duration) in grid {
      do {
        let found = try crossing(entry(at, duration), when: when)
        if !(found.begin <= found.end + 1e-12 && found.end - found.begin <= tolerance) {
          misses.append("at \(at) for \(duration): \(found.begin)")
        }
      } catch {
        misses.append("at \(at) for \(duration): \(error)")
      }
    }
    #expect(
      misses.isEmpty, "\(misses.count) of \(grid.count) missed: \(misses.prefix(3))", sourceLocation: sourceLocation)
  }

  /// The reviewer's case: a linear tween to 100 at 0.2 s for 0.5 s.
  @Test func linearTweenEndingOnTheLevel() throws {
    let found = try Self.crossing(
      #"{ at: 0.2, target: "a", animate: { positionX: 100 }, curve: "linear", duration: 0.5 }"#,
      when: #"property: "positionX", crosses: 100"#)
    expectLess(abs(found.begin - 0.7), 1e-9)
    Self.expectCrossingAtEnd(Self.grid, when: #"property: "positionX", crosses: 100"#) { at, d in
      #"{ at: \#(at), target: "a", animate: { positionX: 100 }, curve: "linear", duration: \#(d) }"#
    }
  }

  /// A fade to 0 (easeOut), watched going down (w1z.json5). easeOut arrives with zero speed, so
  /// its value rounds to 0 a few nanoseconds before its end, where the crossing is found.
  @Test func fadeEndingAtZero() {
    Self.expectCrossingAtEnd(
      Self.grid, when: #"property: "opacity", crosses: 0, direction: "down""#, tolerance: 1e-6
    ) { at, d in
      #"{ at: \#(at), target: "a", animate: { opacity: 0 }, curve: "easeOut", duration: \#(d) }"#
    }
  }

  /// Keyframes of values whose last key is the level.
  @Test func keyframesEndingOnTheLevel() {
    Self.expectCrossingAtEnd(Self.grid, when: #"property: "positionX", crosses: 100"#) { at, d in
      #"{ at: \#(at), target: "a", animate: { positionX: { keyframes: { values: [0, 40, 100], keyTimes: [0, 0.5, 1] }, duration: \#(d) } } }"#
    }
  }

  /// A critically damped spring from rest never reaches its target before it settles: it
  /// crosses it at its settle time, where it snaps to it.
  @Test func springSettlingOnTheLevel() {
    let grid = (0...20).map { (Self.decimal($0), "") }
    Self.expectCrossingAtEnd(grid, when: #"property: "positionX", crosses: 100"#) { at, _ in
      #"{ at: \#(at), target: "a", animate: { positionX: 100 }, spring: { response: 0.3, dampingRatio: 1 } }"#
    }
  }

  /// A decay thrown past its `max` comes back to it and settles on it: watched going down, it
  /// crosses it at the latest when it settles.
  @Test func boundedDecaySettlingOnTheLevel() throws {
    for i in 0...20 {
      let found = try Self.crossing(
        #"{ at: \#(Self.decimal(i)), target: "a", animate: { positionX: { decay: { velocity: 3000, min: 0, max: 100 } } } }"#,
        when: #"property: "positionX", crosses: 100, direction: "down""#)
      expectLessOrEqual(found.begin, found.end + 1e-9, "at \(Self.decimal(i))")
    }
  }

  /// A repeated group and a sequence whose last run ends on the level.
  @Test func repeatsAndSequencesEndingOnTheLevel() {
    let grid = (0...10).flatMap { i in (1...20).map { j in (Self.decimal(2 * i), Self.decimal(j)) } }
    Self.expectCrossingAtEnd(grid, when: #"property: "positionX", crosses: 100"#) { at, d in
      #"{ at: \#(at), repeat: 2, group: [ { target: "a", animate: { positionX: { by: 50 } }, curve: "linear", duration: \#(d) } ] }"#
    }
    Self.expectCrossingAtEnd(grid, when: #"property: "positionX", crosses: 100"#) { at, d in
      #"{ at: \#(at), sequence: [ { target: "a", animate: { positionX: 50 }, curve: "linear", duration: \#(d) }, { target: "a", animate: { positionX: 100 }, curve: "easeIn", duration: \#(d) } ] }"#
    }
    Self.expectCrossingAtEnd(grid, when: #"property: "positionX", crosses: 100"#) { at, d in
      #"{ at: \#(at), target: "a", animate: { positionX: { to: 100, curve: "linear", duration: \#(d), repeatCount: 2 } } }"#
    }
  }
}
