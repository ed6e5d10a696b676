import FlickExpectations
import FlickTestSupport
import Foundation
import Testing

/// `flick curve`: sampling, formats, plots and errors, through the built binary.
@Suite struct CurveCommandTests {
  static func run(_ args: [String]) throws -> CLITests.Result { try CLITests.run(CLITests.flick, ["curve"] + args) }

  @Test func csvSamplesStartAtTheOriginAndSettleOnTheTarget() throws {
    let r = try Self.run(["spring(bounciness: 4, speed: 12)", "--from", "0", "--to", "100", "--fps", "60"])
    expectEqual(r.status, 0, "\(r.stderr)")
    let lines = r.stdout.split(separator: "\n")
    expectEqual(lines.first, "t,value,velocity")
    expectEqual(lines.dropFirst().first, "0,0,0")
    let last = try #require(lines.last?.split(separator: ","))
    #expect(last.count == 3 && last[1] == "100")
    // Pop's default spring (342.10/30.49/1) overshoots a little: some sample exceeds the target.
    let values = lines.dropFirst().compactMap { Double($0.split(separator: ",")[1]) }
    #expect(values.contains { $0 > 100 } && values.allSatisfy { $0 < 110 })
  }

  /// A spring from 10²⁰⁰ to −10²⁰⁰ has as many samples as one from 1 to −1, its values those
  /// scaled (a distance squared past the largest Double once made its rest threshold infinite,
  /// and it printed one line, already at its target).
  @Test func springFarFromItsTargetIsTheUnitSpringScaled() throws {
    func rows(_ from: String, _ to: String) throws -> [[Double]] {
      let r = try Self.run(["spring", "--from", from, "--to", to, "--fps", "30"])
      expectEqual(r.status, 0, "\(r.stderr)")
      return r.stdout.split(separator: "\n").dropFirst().map { $0.split(separator: ",").compactMap { Double($0) } }
    }
    let unit = try rows("1", "-1")
    let big = try rows("1e200", "-1e200")
    expectEqual(big.count, unit.count)
    expectGreater(unit.count, 10)
    for (u, b) in zip(unit, big) {
      expectEqual(b[0], u[0])
      expectLess(abs(b[1] / 1e200 - u[1]), 1e-8, "t = \(u[0])")
      expectLess(abs(b[2] / 1e200 - u[2]), 1e-6 * max(1, abs(u[2])), "t = \(u[0])")
    }
  }

  @Test func jsonIsParseableAndCarriesTheDuration() throws {
    let r = try Self.run([
      "easeInEaseOut(duration: 0.5)", "--from", "10", "--to", "20", "--format", "json", "--fps", "10",
    ])
    expectEqual(r.status, 0, "\(r.stderr)")
    let object = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
    expectEqual(object["duration"] as? Double, 0.5)
    let samples = try #require(object["samples"] as? [[String: Double]])
    expectEqual(samples.count, 6)  // t = 0, 0.1, …, 0.5
    let mid = try #require(samples[3]["value"])  // t = 0.3 s: past the curve's half-way point
    expectGreater(mid, 15)
    expectLess(mid, 20)
    expectEqual(samples.last?["value"], 20)
  }

  @Test func plotWritesAPNG() throws {
    let dir = try CLITests.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let png = dir.appendingPathComponent("curve.png").path
    let r = try Self.run(["decay(velocity: 1000)", "--plot", png])
    expectEqual(r.status, 0, "\(r.stderr)")
    let frame = try PNGFile(path: png)
    expectGreaterOrEqual(frame.width, 400)
    expectGreaterOrEqual(frame.height, 200)
  }

  @Test(arguments: [
    (["sprung"], "did you mean 'spring'"),
    (["spring(bounciness: 30)"], "must be in 0…20"),
    (["linear", "--format", "xml"], "--format"),
    ([String](), "SPEC"),
  ])
  func badInputExitsWith2(args: [String], fragment: String) throws {
    let r = try Self.run(args)
    expectEqual(r.status, 2)
    #expect(r.stderr.contains(fragment), "\(r.stderr)")
  }

  /// Issue 11: Pop's tension/friction/mass, stepping, continuous settle time, structured errors.
  @Test func popDynamicsAndStepping() throws {
    let r = try Self.run(["spring(tension: 300, friction: 12, mass: 3)", "--format", "json"])
    expectEqual(r.status, 0, "\(r.stderr)")
    let stepped = try Self.run(["spring(bounciness: 8, stepping: pop, fps: 120)", "--format", "json", "--fps", "120"])
    expectEqual(stepped.status, 0, "\(stepped.stderr)")
    let object = try #require(try JSONSerialization.jsonObject(with: Data(stepped.stdout.utf8)) as? [String: Any])
    let stepping = try #require(object["stepping"] as? [String: Any])
    #expect(stepping["engine"] as? String == "pop" && stepping["fps"] as? Double == 120)
    let samples = try #require(object["samples"] as? [[String: Double]])
    expectEqual(samples.last?["value"], 100)
    let gpu = try Self.run(["spring(stiffness: 200, damping: 10, stepping: gpuanimation, fps: 30)", "--fps", "30"])
    expectEqual(gpu.status, 0, "\(gpu.stderr)")
    #expect(gpu.stdout.contains("\n0.1,85.87105624,"))  // GPUAnimation's one Euler step per frame at 30 fps
  }

  @Test func settleTimeIsContinuousAtCriticalDamping() throws {
    func duration(_ damping: String) throws -> Double {
      let r = try Self.run(["spring(stiffness: 100, damping: \(damping))", "--format", "json"])
      let object = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
      return try #require(object["duration"] as? Double)
    }
    let critical = try duration("20")
    expectLess(abs(try duration("19.999") - critical), 0.002)
    expectLess(abs(try duration("19.99999999") - critical), 0.000_01)
  }

  @Test func deepSpecIsAnInvalidInputError() throws {
    let r = try Self.run([String(repeating: "a(", count: 10_000)])  // (100k-deep: SpecBuilderTests; argv is bounded)
    expectEqual(r.status, 2)
    #expect(
      r.stderr.contains("… (20000 characters)': column 65: the spec nests calls or lists more than 32 deep"),
      "\(r.stderr)")
    expectLess(r.stderr.count, 300)
  }

  /// `timeOffset` wraps the end too: an easeOut of 0.5 s started 0.2 s in ends at local 0.2
  /// (57.09) and holds there, at every frame rate; it read 100 at the end.
  @Test(arguments: ["20", "24", "60", "120"])
  func timeOffsetEndsAtTheWrappedTime(fps: String) throws {
    let r = try Self.run(["easeOut(duration: 0.5, timeOffset: 0.2)", "--format", "json", "--fps", fps])
    expectEqual(r.status, 0, "\(r.stderr)")
    let object = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
    let samples = try #require(object["samples"] as? [[String: Double]])
    let last = try #require(samples.last)
    expectEqual(last["t"], 0.5)
    let value = try #require(last["value"])
    expectLess(abs(value - 57.09), 0.01)
    let before = try #require(samples.dropLast().last?["value"])
    expectLess(before, value)
    expectGreater(before, 40)
  }
}
