import FlickExpectations
import FlickTestSupport
import Foundation
import Testing

@testable import FlickBatch

/// `flick merge` copies each chunk's frame into a file of its own through the bounded reader
/// (``FlickScene/AssetFile``): one open that refuses a link and does not wait on a FIFO, and a
/// size cap checked on the open file. A frame swapped for one of these after the chunk checks
/// ran is refused, with nothing written in its place.
@Suite struct ChunkFrameCopyTests {
  static func folder() throws -> String { try ProcessRunner.temporaryDirectory(prefix: "flick-copy").path }

  @Test func aRegularFrameIsCopiedByteForByte() throws {
    let dir = try Self.folder()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let bytes = Data((0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
    try bytes.write(to: URL(fileURLWithPath: dir + "/0000.png"))
    try BatchMerger.copyFrame(dir + "/0000.png", to: dir + "/copy.png")
    expectEqual(try Data(contentsOf: URL(fileURLWithPath: dir + "/copy.png")), bytes)
  }

  @Test(arguments: ["link", "fifo", "huge"])
  func aFrameThatIsNotARegularFileWithinTheCapIsRefused(kind: String) throws {
    let dir = try Self.folder()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let source = dir + "/0000.png"
    switch kind {
    case "link":
      try Data("secret".utf8).write(to: URL(fileURLWithPath: dir + "/outside.txt"))
      try FileManager.default.createSymbolicLink(atPath: source, withDestinationPath: dir + "/outside.txt")
    case "fifo": try FIFOGuard.make(source)
    default: try FIFOGuard.sparseFile(source, bytes: (256 << 20) + 1)
    }
    let run = FIFOGuard.ends(fifo: source) { try BatchMerger.copyFrame(source, to: dir + "/copy.png") }
    #expect(run.ended && run.threw, "the copy of a \(kind) ended with an error: \(run)")
    #expect(!FileManager.default.fileExists(atPath: dir + "/copy.png"), "nothing was written for a \(kind)")
  }
}
