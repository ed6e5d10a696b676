import FlickExpectations
import FlickSnapshot
import Testing

@Suite struct SnapshotTimeTests {
  @Test func parsesEveryForm() throws {
    let times = try SnapshotTime.list("0,25%,50%,75%,end,1.2s,frame:30, 2")
    expectEqual(
      times, [.seconds(0), .percent(25), .percent(50), .percent(75), .end, .seconds(1.2), .frame(30), .seconds(2)])
    expectEqual(times.map(\.label), ["0s", "25pct", "50pct", "75pct", "end", "1.2s", "frame30", "2s"])
    for t in times {
      expectEqual(SnapshotTime(label: t.label), t)
      try expectEqual(SnapshotTime(parsing: t.description), t)
    }
  }

  @Test func resolvesAgainstTheScene() throws {
    // 3 s at 30 fps: 90 frames, the last at 89/30 s.
    try expectEqual(SnapshotTime.percent(25).seconds(duration: 3, fps: 30), 0.75)
    try expectEqual(SnapshotTime.percent(100).seconds(duration: 3, fps: 30), 3)
    try expectEqual(SnapshotTime.end.seconds(duration: 3, fps: 30), 89.0 / 30)
    try expectEqual(SnapshotTime.frame(30).seconds(duration: 3, fps: 30), 1)
    #expect(throws: SnapshotError.self) { try SnapshotTime.frame(90).seconds(duration: 3, fps: 30) }
    #expect(throws: SnapshotError.self) { try SnapshotTime.seconds(3.5).seconds(duration: 3, fps: 30) }
  }

  @Test func rejectsBadInput() {
    for bad in [
      "", "abc", "120%", "-1", "frame:-2", "frame:x", "1.2ms", "0,0s", "0x10", "0x1p4s", "nan", "infs",
      "1e999", "frame:0x1", "frame:+1", "nan%", "0x10%",
    ] {
      #expect(throws: SnapshotError.self, "\(bad)") { try SnapshotTime.list(bad) }
    }
  }
}
