import FlickExpectations
import FlickMotion
import FlickScene
import FlickSnapshot
import Testing

/// A time made in code is held to what the parser accepts (frame ≥ 0, a percentage 0…100,
/// seconds ≥ 0): `.frame(-1)` and `.percent(250)` used to resolve to times before the start
/// and past the end; and every frame count is the scene's own, which never traps.
@Suite struct SnapshotTimeRangeTests {
  @Test(arguments: [
    SnapshotTime.frame(-1), .percent(250), .percent(-5), .percent(.nan), .seconds(-1), .seconds(.nan),
  ])
  func aTimeTheParserRefusesIsRefusedWhenResolved(time: SnapshotTime) {
    #expect(throws: SnapshotError.self, "\(time)") { try time.seconds(duration: 3, fps: 30) }
  }

  @Test func everyFrameOfAnUnrenderableDurationIsOneFrameNotATrap() {
    for duration in [1e300, .nan, .infinity, -5] {
      expectEqual(SnapshotTime.everyFrame(duration: duration, fps: 30).count, 1, "duration \(duration)")
    }
    expectEqual(SnapshotTime.everyFrame(duration: 3, fps: 30).count, 90)
    expectEqual(
      SnapshotTime.everyFrame(duration: 3, fps: 30).count,
      Scene(size: Size(width: 1, height: 1), fps: 30, duration: 3).frameCount)
  }
}
