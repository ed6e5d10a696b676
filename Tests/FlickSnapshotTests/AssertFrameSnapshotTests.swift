import FlickExpectations
import FlickMotion
import FlickRaster
import FlickScene
import FlickSnapshot
import FlickTesting
import Foundation
import Testing

/// `assertFrameSnapshot` records, passes and fails as documented.
@Suite struct AssertFrameSnapshotTests {
  static func scene(card color: Color) -> Scene {
    var card = Layer(id: "card")
    card.bounds = Rect(x: 0, y: 0, width: 20, height: 20)
    card.position = Point(x: 16, y: 16)
    card.backgroundColor = color
    card.cornerRadius = 4
    return Scene(size: Size(width: 48, height: 32), fps: 10, duration: 1, backgroundColor: .white, layers: [card])
  }

  static func temporaryDirectory() throws -> String {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("flick-assert-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    return dir.path
  }

  @Test func recordsAMissingGoldenFailsThenPasses() throws {
    let dir = try Self.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let scene = Self.scene(card: Color(red: 1, green: 0.5, blue: 0))
    // First run: no golden. It is written and the test fails.
    var first: [FrameVerdict] = []
    withKnownIssue {
      first = assertFrameSnapshot(
        of: scene, at: [.percent(0), .end], named: "card", record: .missing, snapshotDirectory: dir)
    }
    expectEqual(first.map(\.status), [.recorded, .recorded])
    #expect(FileManager.default.fileExists(atPath: "\(dir)/card.0pct.png"))
    #expect(FileManager.default.fileExists(atPath: "\(dir)/card.end.png"))
    // Second run: matches.
    let v = assertFrameSnapshot(
      of: scene, at: [.percent(0), .end], named: "card", record: .missing, snapshotDirectory: dir)
    expectEqual(v.map(\.status), [.match, .match])
  }

  @Test func aChangedColourFailsAndWritesArtefacts() throws {
    let dir = try Self.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let before = Self.scene(card: Color(red: 1, green: 0.5, blue: 0))
    withKnownIssue {
      assertFrameSnapshot(of: before, at: [.percent(0)], named: "c", record: .missing, snapshotDirectory: dir)
    }
    let after = Self.scene(card: Color(red: 0.2, green: 0.4, blue: 1))
    var verdicts: [FrameVerdict] = []
    withKnownIssue {
      verdicts = assertFrameSnapshot(
        of: after, at: [.percent(0)], named: "c", record: RecordMode.none, snapshotDirectory: dir)
    }
    let v = try #require(verdicts.first)
    expectEqual(v.status, .changed)
    let box = try #require(v.comparison?.boundingBox)
    #expect(PixelRegion(x: 6, y: 6, width: 20, height: 20).contains(x: box.x, y: box.y))
    for kind in ["actual", "expected", "diff", "sideBySide", "flicker"] {
      let path = try #require(v.artifacts[kind], "\(kind)")
      #expect(FileManager.default.fileExists(atPath: path))
    }
    // The golden was not touched in record mode none.
    let golden = try Frame(pngAt: "\(dir)/c.0pct.png")
    expectEqual(golden.rgba(x: 16, y: 16).r, 255)
  }

  @Test func templateParametersChangeTheFrame() throws {
    let dir = try Self.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("Fixtures/two-cards.json5").path
    withKnownIssue {
      assertFrameSnapshot(of: fixture, at: [.percent(100)], named: "t", record: .missing, snapshotDirectory: dir)
    }
    let same = assertFrameSnapshot(
      of: fixture, at: [.percent(100)], named: "t", record: RecordMode.none, snapshotDirectory: dir)
    expectEqual(same.first?.status, .match)
    var v: [FrameVerdict] = []
    withKnownIssue {
      v = assertFrameSnapshot(
        of: fixture, parameters: ["rightColor": "#3B82F6"], at: [.percent(100)], named: "t", record: RecordMode.none,
        snapshotDirectory: dir)
    }
    expectEqual(v.first?.status, .changed)
    expectEqual(v.first?.comparison?.boundingBox, PixelRegion(x: 180, y: 50, width: 100, height: 100))
  }

  @Test func recordNoneNeverWritesAMissingGolden() throws {
    let dir = try Self.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    var v: [FrameVerdict] = []
    withKnownIssue {
      v = assertFrameSnapshot(
        of: Self.scene(card: .white), at: [.end], named: "x", record: RecordMode.none, snapshotDirectory: dir)
    }
    expectEqual(v.first?.status, .missing)
    #expect(!FileManager.default.fileExists(atPath: "\(dir)/x.end.png"))
  }

  @Test func aTimeOutsideTheSceneIsAnError() throws {
    let dir = try Self.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    var v: [FrameVerdict] = []
    withKnownIssue {
      v = assertFrameSnapshot(
        of: Self.scene(card: .white), at: [.seconds(5)], named: "x", record: .missing, snapshotDirectory: dir)
    }
    expectEqual(v.first?.status, .error)
    expectEqual(v.first?.message.contains("after the end of the scene"), true)
  }
}
