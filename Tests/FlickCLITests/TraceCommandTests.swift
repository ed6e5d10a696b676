import FlickExpectations
import FlickTestSupport
import Foundation
import Testing

/// `flick trace`: value and velocity of any property of any layer, through the built binary;
/// used here to check every hand-over kind at 24, 30, 60 and 120 fps (left limit = right limit).
@Suite struct TraceCommandTests {
  static func run(_ args: [String]) throws -> CLITests.Result { try CLITests.run(CLITests.flick, ["trace"] + args) }

  /// A template file with layer `a` and the given timeline, at `fps`.
  static func file(fps: Int, _ timeline: String) throws -> String {
    let dir = try ProcessRunner.temporaryDirectory(prefix: "flick-trace")
    let url = dir.appendingPathComponent("t.json5")
    try """
    { flick: 1, canvas: { width: 400, height: 300, fps: \(fps), duration: 3 },
      layers: [{ id: "a", size: [40, 40], position: [100, 100] }, { id: "label", type: "text", string: "x", size: [40, 20] }],
      timeline: \(timeline) }
    """.write(to: url, atomically: true, encoding: .utf8)
    return url.path
  }

  /// (value, velocity) rows of a CSV trace.
  static func rows(_ csv: String) -> [[Double]] {
    csv.split(separator: "\n").dropFirst().map { $0.split(separator: ",").compactMap { Double($0) } }
  }

  @Test func csvAndJSONThroughAnAlias() throws {
    let path = try Self.file(
      fps: 30, "[{ target: \"a\", animate: { position: [300, 200] }, curve: \"linear\", duration: 1 }]")
    let r = try Self.run([path, "--layer", "a", "--property", "positionX", "--times", "0,0.5,1,2"])
    expectEqual(r.status, 0, "\(r.stderr)")
    #expect(r.stdout.hasPrefix("t,value,velocity\n"))
    expectEqual(Self.rows(r.stdout), [[0, 100, 200], [0.5, 200, 200], [1, 300, 0], [2, 300, 0]])
    let point = try Self.run([path, "--layer", "a", "--property", "position", "--times", "0.5", "--format", "json"])
    expectEqual(point.status, 0, "\(point.stderr)")
    let object = try #require(try JSONSerialization.jsonObject(with: Data(point.stdout.utf8)) as? [String: Any])
    #expect(object["property"] as? String == "position" && object["type"] as? String == "point")
    let samples = try #require(object["samples"] as? [[String: Any]])
    expectEqual(samples.first?["value"] as? [Double], [200, 150])
    expectEqual(samples.first?["velocity"] as? [Double], [200, 100])
    let frames = try Self.run([path, "--layer", "a", "--property", "opacity", "--fps", "10"])
    expectEqual(Self.rows(frames.stdout).count, 30)  // 3 s at 10 samples per second
  }

  @Test func mistakesAreUsageErrors() throws {
    let path = try Self.file(fps: 30, "[]")
    let noLayer = try Self.run([path, "--layer", "b", "--property", "opacity"])
    expectEqual(noLayer.status, 2)
    #expect(noLayer.stderr.contains("no layer with id 'b'"))
    let typo = try Self.run([path, "--layer", "a", "--property", "opacty"])
    expectEqual(typo.status, 2)
    #expect(typo.stderr.contains("did you mean 'opacity'?"))
    let kind = try Self.run([path, "--layer", "a", "--property", "fontSize"])
    expectEqual(kind.status, 2)
    #expect(kind.stderr.contains("'a' is not a text layer"))
    let both = try Self.run([path, "--layer", "a", "--property", "opacity", "--fps", "2", "--times", "1"])
    expectEqual(both.status, 2)
    let badTime = try Self.run([path, "--layer", "a", "--property", "opacity", "--times", "1,x"])
    expectEqual(badTime.status, 2)
    #expect(badTime.stderr.contains("--times"))
    let text = try Self.run([path, "--layer", "label", "--property", "fontSize", "--times", "0"])
    expectEqual(text.status, 0, "\(text.stderr)")
  }

  /// Every hand-over kind, at each rate, with the join on a frame: the trace's left limit
  /// (the motion arriving) equals its right limit (what the next motion starts with).
  @Test(arguments: [24, 30, 60, 120]) func everyHandOverIsContinuous(fps: Int) throws {
    let q = Double(fps / 4) / Double(fps)  // a quarter second on the frame grid
    let cases: [(timeline: String, property: String, join: Double)] = [
      // tween → release into a decay
      (
        """
        [ { id: "t", target: "a", animate: { positionX: 300 }, curve: "easeIn", duration: \(q) },
          { after: "t", target: "a", release: { property: "positionX", decay: {} } } ]
        """, "positionX", q
      ),
      // spring → retarget
      (
        """
        [ { target: "a", animate: { position: { to: [300, 250], spring: { response: 0.5, dampingRatio: 0.6 } } } },
          { at: \(q), target: "a", animate: { position: { to: [50, 50], spring: { bounciness: 10, speed: 8 } } } } ]
        """, "position", q
      ),
      // drag → release into a spring, read through an alias
      (
        """
        [ { id: "d", target: "a", drag: { by: [[0, 0], [50, 20], [150, 40]], duration: \(q), curve: "easeIn" } },
          { after: "d", target: "a", release: { to: [100, 100] } } ]
        """, "positionY", q
      ),
      // property animator: continue with a new spring from running
      (
        """
        [ { animator: { duration: 1, curve: "easeInEaseOut", target: "a", animate: { positionX: 300 },
            events: [ { at: 0, do: "start" }, { at: \(q), do: "continue", curve: "spring(dampingRatio: 0.3)" } ] } } ]
        """, "positionX", q
      ),
    ]
    for c in cases {
      let path = try Self.file(fps: fps, c.timeline)
      var sides: [[Double]] = []
      for side in ["left", "right"] {
        let r = try Self.run([path, "--layer", "a", "--property", c.property, "--times", "\(c.join)", "--side", side])
        expectEqual(r.status, 0, "\(r.stderr)")
        sides.append(try #require(Self.rows(r.stdout).first))
      }
      let (l, r) = (sides[0], sides[1])
      expectEqual(l.count, r.count)
      expectGreaterOrEqual(l.count, 3)
      // Columns: t, value…, velocity… (the printed values have 10 significant digits).
      for i in 1..<l.count {
        expectLessOrEqual(
          abs(l[i] - r[i]), 1e-6 * max(abs(l[i]), 200), "\(c.property) column \(i): \(l[i]) → \(r[i]) at \(fps) fps")
      }
      let velocities = l[(1 + (l.count - 1) / 2)...]
      #expect(velocities.contains { abs($0) > 1 }, "\(c.property): no motion arrives at \(fps) fps")
    }
  }
}
