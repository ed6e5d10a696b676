import FlickExpectations
import FlickRaster
import FlickTestSupport
import Foundation
import Testing

@testable import FlickSnapshot

/// A PNG the snapshot tools decode (`PNGImage(contentsOf:)`) and a golden whose renderer
/// fingerprint is read (`recordedRenderer(atPath:)`) are read once through the bounded reader:
/// opened non-blocking, `fstat` on the open descriptor, read once. Both did `stat` and then read
/// the path again with `FileManager` (what was read was not what was checked), and the
/// fingerprint's refusal did not say which option raises the limit.
@Suite struct PNGFileReadTests {
  /// A temporary folder with a 4 × 4 PNG padded (sparse) to 4097 bytes and a FIFO.
  static func files() throws -> (dir: String, big: String, fifo: String) {
    let dir = try VerifyCommandTests.temporaryDirectory()
    let big = dir + "/big.png"
    try Data(TinyPNG.solid(width: 4, height: 4, rgb: (255, 0, 0))).write(to: URL(fileURLWithPath: big))
    try expectEqual(truncate(big, 4097), 0)
    let fifo = dir + "/pipe.png"
    try FIFOGuard.make(fifo)
    return (dir, big, fifo)
  }

  static let limits = DecodeLimits(maxFileBytes: 4096)
  static let overTheLimit =
    "the file is 4097 bytes, over the decode limit of 4096 (--max-image-bytes, FLICK_MAX_IMAGE_BYTES)"

  @Test func aPNGOverTheLimitIsRefusedNamingTheLimitAndItsOption() throws {
    let (dir, big, _) = try Self.files()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    expectEqual(
      thrownDescription { () throws(SnapshotError) in _ = try PNGImage(contentsOf: big, limits: Self.limits) },
      "cannot read image \(big): \(Self.overTheLimit)")
    expectEqual(
      thrownDescription { () throws(SnapshotError) in
        _ = try PNGImage.recordedRenderer(atPath: big, limits: Self.limits)
      },
      "cannot read image \(big): \(Self.overTheLimit)")
  }

  @Test func aFIFOInPlaceOfAPNGIsRefusedNotWaitedOn() throws {
    let (dir, _, fifo) = try Self.files()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let decode = FIFOGuard.ends(fifo: fifo) { _ = try PNGImage(contentsOf: fifo) }
    #expect(decode.ended && decode.threw, "PNGImage(contentsOf:) on a FIFO: \(decode)")
    let renderer = FIFOGuard.ends(fifo: fifo) { _ = try PNGImage.recordedRenderer(atPath: fifo) }
    #expect(renderer.ended && renderer.threw, "recordedRenderer(atPath:) on a FIFO: \(renderer)")
    guard decode.ended, renderer.ended else { return }
    expectEqual(
      thrownDescription { () throws(SnapshotError) in _ = try PNGImage(contentsOf: fifo) },
      "cannot read image \(fifo): not a regular file")
    expectEqual(
      thrownDescription { () throws(SnapshotError) in _ = try PNGImage.recordedRenderer(atPath: fifo) },
      "cannot read image \(fifo): not a regular file")
  }

  @Test func aFolderOrNothingInPlaceOfAPNGIsNamed() throws {
    let (dir, _, _) = try Self.files()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    expectEqual(
      thrownDescription { () throws(SnapshotError) in _ = try PNGImage(contentsOf: dir) },
      "cannot read image \(dir): not a regular file")
    expectEqual(
      thrownDescription { () throws(SnapshotError) in _ = try PNGImage(contentsOf: dir + "/none.png") },
      "cannot read image \(dir)/none.png: no such file or directory")
  }
}
