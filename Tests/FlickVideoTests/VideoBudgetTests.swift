@testable import FlickVideo
import FlickExpectations
import Testing

/// `--max-size` for an MP4 or WebM: the ladder's stated order (rate, then width), the first
/// target bitrate from the budget and the duration, lowering by the measured ratio, and the
/// quality floor that moves to the next rung instead of encoding under it.
@Suite struct VideoBudgetTests {
  typealias Rung = VideoBudget.Rung

  @Test func theLadderLowersTheRateThenTheWidth() {
    let ladder = VideoBudget.ladder(fps: 60, width: 640, height: 360)
    expectEqual(ladder.prefix(6).map(\.fps), [60, 30, 20, 15, 12, 10])
    #expect(ladder.prefix(6).allSatisfy { $0.width == 640 && $0.height == 360 })
    expectEqual(ladder.dropFirst(6).map(\.width), [560, 480, 400, 320, 240, 160])
    expectEqual(ladder.dropFirst(6).map(\.height), [314, 270, 224, 180, 134, 90])
    #expect(ladder.dropFirst(6).allSatisfy { $0.fps == 10 && $0.width % 2 == 0 && $0.height % 2 == 0 })
    // Only whole divisions of the rate (every k-th frame), not below 10 fps; not below 120 px.
    expectEqual(VideoBudget.ladder(fps: 25, width: 320, height: 180).map(\.fps), [25, 25, 25, 25, 25, 25])
    expectEqual(VideoBudget.ladder(fps: 25, width: 320, height: 180).map(\.width), [320, 280, 240, 200, 160, 120])
    expectEqual(
      VideoBudget.ladder(fps: 24, width: 100, height: 100),
      [
        Rung(fps: 24, width: 100, height: 100),
        Rung(fps: 12, width: 100, height: 100),
      ])
    expectEqual(VideoBudget.ladder(fps: 8, width: 64, height: 48), [Rung(fps: 8, width: 64, height: 48)])
  }

  @Test func theFirstTargetIsTheBudgetOverTheDurationLessTheContainer() {
    let budget = VideoBudget(budget: OutputBudget(bytes: 1_000_000), format: .mp4)
    // (1,000,000 − 2,000 − 24 × 60) bytes × 8 × 0.97 over 2 s.
    expectEqual(budget.bitrate(frames: 60, duration: 2), Int((1_000_000.0 - 3_440) * 8 * 0.97 / 2))
    expectEqual(VideoBudget(budget: OutputBudget(bytes: 1_000), format: .mp4).bitrate(frames: 60, duration: 2), 0)
    // Over by 10 %: the next target is about 10 % lower, always lower.
    let next = budget.retarget(4_000_000, measured: 1_100_000, frames: 60)
    expectLess(next, 4_000_000 * 91 / 100)
    expectGreater(next, 4_000_000 * 86 / 100)
    expectLess(budget.retarget(4_000_000, measured: 1_000_001, frames: 60), 4_000_000)
  }

  /// Sizes proportional to the bitrate, 5 % over the target (and at least `minimum` bytes): the
  /// search measures what it must.
  @Test func theSearchRetriesLowerThenMovesDownTheLadderBelowTheFloor() {
    let ladder = VideoBudget.ladder(fps: 30, width: 320, height: 180)
    let frames: (Rung) -> Int = { 30 * $0.fps / 30 }
    func search(_ bytes: Int, minimum: Int = 0) -> (VideoBudget.Found, [(Rung, Int)]) {
      var encoded: [(Rung, Int)] = []
      let found = VideoBudget(budget: OutputBudget(bytes: bytes), format: .mp4).search(
        ladder, frames: frames, duration: 1
      ) { rung, bitrate in
        encoded.append((rung, bitrate))
        return max(minimum, Int(Double(bitrate) / 8 * 1.05) + VideoBudget.overhead(frames: frames(rung)))
      }
      return (found, encoded)
    }
    // Enough bits at full rate and size: the first rung, after one lowered retry.
    let (big, bigEncodings) = search(200_000)
    expectEqual(big.rung, ladder[0])
    expectEqual(bigEncodings.count, 2)
    expectEqual(big.encodings, 2)
    expectLessOrEqual(big.bytes, 200_000)
    expectLess(bigEncodings[1].1, bigEncodings[0].1)
    // 30 fps at 320×180 is 1.73 M pixels a second: a budget under 0.02 bits a pixel there is not
    // encoded at full rate but at the first rung where it is over the floor.
    let (small, smallEncodings) = search(5_000)
    let first = try! #require(smallEncodings.first)
    expectNotEqual(first.0, ladder[0])
    expectGreaterOrEqual(VideoBudget.bitsPerPixel(first.1, first.0), VideoBudget.floor(.mp4))
    #expect(smallEncodings.allSatisfy { VideoBudget.bitsPerPixel($0.1, $0.0) >= VideoBudget.floor(.mp4) })
    expectEqual(small.rung, first.0)
    expectLessOrEqual(small.bytes, 5_000)
    // An encoder that never goes under 6,000 bytes: bounded attempts a rung, nothing found, the
    // smallest size reported; the last rung is tried whatever the floor.
    let (none, noneEncodings) = search(5_000, minimum: 6_000)
    #expect(none.rung == nil)
    expectEqual(none.bytes, 6_000)
    expectEqual(none.encodings, noneEncodings.count)
    expectEqual(noneEncodings.last?.0, ladder.last)
    #expect(Dictionary(grouping: noneEncodings, by: \.0).values.allSatisfy { $0.count <= VideoBudget.attempts })
    // The same inputs: the same encodings.
    expectEqual(search(5_000).1.map(\.1), smallEncodings.map(\.1))
  }

  /// A two-pass log left by a killed run is a temporary the sweep knows (by its owner's PID).
  @Test func passLogsAreTemporariesOfTheirOwner() {
    for suffix in ["-0.log", "-0.log.temp", "-0.log.mbtree", "-0.log.mbtree.temp"] {
      expectEqual(Cleanup.temporaryOwner(".a.mp4.1234.passlog" + suffix), 1234)
    }
    #expect(Cleanup.temporaryOwner(".a.mp4.1234.passlog-0.logs") == nil)
    #expect(Cleanup.temporaryOwner("a.mp4.passlog-0.log") == nil)
  }

  @Test func formatsTheBudgetCannotFitAreRefusedWithAReason() {
    for format in [OutputFormat.gif, .mp4, .webm] { #expect(OutputBudget.refusal(for: format) == nil) }
    for format in [OutputFormat.mov, .apng, .webp, .png, .bgra] { #expect(OutputBudget.refusal(for: format) != nil) }
    expectEqual(OutputBudget.refusal(for: .png)?.contains("many files"), true)
  }
}
