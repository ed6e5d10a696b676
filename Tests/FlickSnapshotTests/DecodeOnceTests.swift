import FlickExpectations
import FlickMotion
import FlickRaster
import Foundation
import Testing

@testable import FlickSnapshot

/// A comparison reads and decodes each image file once, report or not: a golden was decoded up to
/// three times (renderer check, comparison, report), a `flick diff` pair twice each.
@Suite struct DecodeOnceTests {
  typealias V = VerifyCommandTests

  /// Counts the files `body` reads and decodes.
  static func decodes(_ body: () throws -> Void) rethrows -> Int {
    let count = Locked(0)
    try PNGImage.$fileDecodes.withValue(count) { try body() }
    return count.withLock { $0 }
  }

  static func frame(_ blue: UInt8) -> Frame {
    var f = Frame(width: 4, height: 4)
    for i in stride(from: 0, to: f.pixels.count, by: 4) { f.pixels[i...(i + 3)] = [blue, 0, 0, 255] }
    return f
  }

  @Test func aFailingComparisonDecodesEachImageOnce() throws {
    let dir = try V.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let verifier = GoldenVerifier(record: .none)
    let golden = dir + "/g.png"
    try verifier.writeGolden(Self.frame(10), to: golden)
    // verify: the golden once, report or not.
    for (i, report) in [nil, dir + "/r1"].enumerated() {
      let n = Self.decodes {
        let v = verifier.verify(
          .success(Self.frame(200)), goldenPath: golden, name: "0s", time: "0s", seconds: 0,
          artifactsDirectory: report)
        expectEqual(v.status, .changed)
      }
      expectEqual(n, 1, "case \(i)")
    }
    // Across a renderer change, with the stored inputs re-rendered and a drift: still once.
    var other = RendererFingerprint.current
    other.cairo = "0.0.1-other"
    let old = dir + "/old.png"
    try PNGFile.write(Self.frame(10), to: old, renderer: other)
    let n = Self.decodes {
      let v = verifier.verify(
        .success(Self.frame(200)), goldenPath: old, name: "0s", time: "0s", seconds: 0,
        artifactsDirectory: dir + "/r2", reference: .success(Self.frame(12)))
      expectEqual(v.status, .changed)
      #expect(v.rendererDrift != nil)
      #expect(v.artifacts["goldenRecorded"] != nil)
    }
    expectEqual(n, 1)
    // diff: each file once; the same bytes on both sides once in all.
    let actual = dir + "/a.png"
    try verifier.writeGolden(Self.frame(200), to: actual)
    let pair = Self.decodes {
      let v = verifier.comparePair(name: "a.png", expected: golden, actual: actual, folder: "a", into: dir + "/r3")
      expectEqual(v.status, .changed)
      #expect(v.artifacts["expected"] != nil)
    }
    expectEqual(pair, 2)
    let same = Self.decodes {
      _ = verifier.comparePair(name: "a.png", expected: golden, actual: golden, folder: "a", into: dir + "/r4")
    }
    expectEqual(same, 1)
  }
}
