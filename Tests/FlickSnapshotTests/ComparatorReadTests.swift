import FlickExpectations
import FlickRaster
import FlickTestSupport
import Foundation
import Testing

@testable import FlickSnapshot

/// The byte comparisons before decoding (`flick diff`'s identical files, `verify`'s golden that
/// holds exactly what the frame encodes to) read a file only when `fstat` says it is a regular file
/// within the decode limit: they read it whole first, so a sparse file of a gigabyte was read into
/// memory before the decoder refused it.
@Suite struct ComparatorReadTests {
  @Test func aFIFOInPlaceOfAnImageIsRefusedNotRead() throws {
    let dir = try VerifyCommandTests.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let png = dir + "/a.png"
    try Data(TinyPNG.solid(width: 4, height: 4, rgb: (255, 0, 0))).write(to: URL(fileURLWithPath: png))
    let fifo = dir + "/b.png"
    try expectEqual(mkfifo(fifo, 0o600), 0)
    let frame = try Frame(pngAt: png)
    let comparator = ImageComparator()
    let files = FIFOGuard.ends(fifo: fifo) { _ = try comparator.compareFiles(expected: png, actual: fifo) }
    #expect(files.ended, "compareFiles read the FIFO")
    #expect(files.threw)
    let golden = FIFOGuard.ends(fifo: fifo) { _ = try comparator.compare(expectedFile: fifo, actual: frame) }
    #expect(golden.ended, "compare(expectedFile:) read the FIFO")
    #expect(golden.threw)
  }

  /// A temporary folder with a 4 × 4 PNG (`a.png`) and a copy of it (`big.png`) to pad.
  static func pngAndPaddedCopy() throws -> (dir: String, png: String, big: String) {
    let dir = try VerifyCommandTests.temporaryDirectory()
    let png = dir + "/a.png"
    try Data(TinyPNG.solid(width: 4, height: 4, rgb: (255, 0, 0))).write(to: URL(fileURLWithPath: png))
    let big = dir + "/big.png"
    try FileManager.default.copyItem(atPath: png, toPath: big)
    return (dir, png, big)
  }

  @Test func diffDoesNotReadAFileOverTheLimit() throws {
    let (dir, png, big) = try Self.pngAndPaddedCopy()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try expectEqual(truncate(big, 1 << 30), 0)  // sparse: no disk space used
    // The peak resident size of the command (GNU time's %M, KiB): it read the gigabyte whole.
    let r = try ProcessRunner.run(
      "/usr/bin/time", ["-f", "peak %M", VerifyCommandTests.flick, "diff", png, big, "--max-image-bytes", "4096"])
    expectEqual(r.status, 3, "\(r.stderr)")
    #expect(r.stderr.contains("decode limit"), "\(r.stderr)")
    let peak = r.stderr.split(separator: "\n").last.flatMap { Int($0.dropFirst(5)) } ?? Int.max
    #expect(peak < 400_000, "peak \(peak) KiB")
  }

  @Test func aFileOverTheLimitIsNotReadForTheByteComparison() throws {
    let (dir, png, big) = try Self.pngAndPaddedCopy()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try expectEqual(truncate(big, 4096), 0)
    let limits = DecodeLimits(maxFileBytes: 1024)
    #expect(PNGImage.boundedBytes(of: png, limits: limits) != nil)
    #expect(PNGImage.boundedBytes(of: big, limits: limits) == nil)
  }
}
