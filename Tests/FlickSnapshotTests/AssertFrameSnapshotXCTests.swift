import FlickMotion
import FlickScene
import FlickSnapshot
import FlickTesting
import Foundation
import XCTest

/// The XCTest side of `assertFrameSnapshot`: failures go through `XCTFail`. This is the one XCTest
/// case in the package (Swift Testing is the rule); it overrides `recordFailure` to capture the
/// failures it provokes instead of failing.
final class AssertFrameSnapshotXCTests: XCTestCase {
  private var failures: [String] = []
  private var capturing = false

  override func recordFailure(
    withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool
  ) {
    if capturing {
      failures.append(description)
    } else {
      super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
    }
  }

  func testFailuresAreReportedWithXCTFail() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("flick-xct-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: dir) }
    var card = Layer(id: "card")
    card.bounds = Rect(x: 0, y: 0, width: 10, height: 10)
    card.position = Point(x: 12, y: 8)
    card.backgroundColor = Color(red: 1, green: 0, blue: 0)
    var scene = Scene(size: Size(width: 24, height: 16), fps: 10, duration: 1, layers: [card])

    capturing = true
    assertFrameSnapshot(of: scene, at: [.end], named: "x", record: .missing, snapshotDirectory: dir)
    let recorded = failures
    failures = []
    assertFrameSnapshot(of: scene, at: [.end], named: "x", record: .missing, snapshotDirectory: dir)
    let matched = failures
    scene.layers[0].backgroundColor = Color(red: 0, green: 0, blue: 1)
    failures = []
    assertFrameSnapshot(of: scene, at: [.end], named: "x", record: RecordMode.none, snapshotDirectory: dir)
    let changed = failures
    capturing = false

    XCTAssertEqual(recorded.count, 1)
    XCTAssertTrue(recorded.first?.contains("recorded") ?? false, "\(recorded)")
    XCTAssertEqual(matched, [])
    XCTAssertEqual(changed.count, 1)
    XCTAssertTrue(changed.first?.contains("100 pixels differ") ?? false, "\(changed)")
  }
}
