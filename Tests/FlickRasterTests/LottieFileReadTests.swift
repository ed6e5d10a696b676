import FlickExpectations
import FlickScene
import FlickTestSupport
import Foundation
import Testing

/// A Lottie file is read once through the bounded reader (``FlickScene/AssetFile``): the sniff
/// that tells it from a template (every `flick render`, `still` and `info`) read up to 64 MiB of
/// any file through `FileHandle` after a `stat`, and the loader asked `FileManager` for the
/// attributes and then opened the file again.
@Suite struct LottieFileReadTests {
  static let header = #"{"v":"5.7.0","fr":30,"ip":0,"op":10,"w":10,"h":10,"layers":["#

  /// A fresh folder with a Lottie header padded (sparse) to `bytes` bytes and a FIFO.
  static func files(bytes: Int) throws -> (dir: String, big: String, fifo: String) {
    let dir = try ProcessRunner.temporaryDirectory(prefix: "flick-lottie-read").path
    let big = dir + "/big.json"
    try Data(header.utf8).write(to: URL(fileURLWithPath: big))
    try expectEqual(truncate(big, off_t(bytes)), 0)
    let fifo = dir + "/pipe.json"
    try FIFOGuard.make(fifo)
    return (dir, big, fifo)
  }

  @Test func aFileOverTheCapIsKnownByItsFirstMiBAndRefusedByItsSize() throws {
    let (dir, big, _) = try Self.files(bytes: 3 << 30)
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let head = try LottieFile.readSource(big)
    expectEqual(head.size, 3 << 30)
    expectEqual(head.bytes.count, LottieFile.sniffBytes)
    #expect(LottieFile.isLottie(head, path: big))
    #expect(LottieFile.isLottie(path: big))
    let refusal = "Lottie file \(big): is 3072 MiB; Lottie files up to 64 MiB are read"
    expectEqual(
      thrownDescription { () throws(LottieFileError) in
        _ = try LottieFile.loadChecked(path: big, head: head, maximumPixels: LottieFile.defaultMaximumPixels)
      }, refusal)
    expectEqual(thrownDescription { () throws(LottieFileError) in _ = try LottieFile.load(path: big) }, refusal)
  }

  @Test func aFileWithinTheCapIsReadWholeOnceAndLoadedFromThoseBytes() throws {
    let path = LottieTests.fixture("shapes-trim")
    let head = try LottieFile.readSource(path)
    #expect(head.isWhole)
    #expect(LottieFile.isLottie(head, path: path))
    let fromHead = try LottieFile.loadChecked(path: path, head: head, maximumPixels: LottieFile.defaultMaximumPixels)
    let fromPath = try LottieFile.loadChecked(path: path, maximumPixels: LottieFile.defaultMaximumPixels)
    expectEqual(fromHead.file, fromPath.file)
    expectEqual(fromHead.json, fromPath.json)
  }

  @Test func aFIFOIsNotALottieFileAndIsRefusedNotWaitedOn() throws {
    let (dir, _, fifo) = try Self.files(bytes: 0)
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let sniff = FIFOGuard.ends(fifo: fifo) {
      guard !LottieFile.isLottie(path: fifo) else { throw CocoaError(.fileReadUnknown) }
    }
    #expect(sniff.ended && !sniff.threw, "isLottie(path:) on a FIFO: \(sniff)")
    let load = FIFOGuard.ends(fifo: fifo) { _ = try LottieFile.load(path: fifo) }
    #expect(load.ended && load.threw, "load(path:) on a FIFO: \(load)")
    guard load.ended else { return }
    expectEqual(
      thrownDescription { () throws(LottieFileError) in _ = try LottieFile.load(path: fifo) },
      "Lottie file \(fifo): is not a regular file (a FIFO or a device), not a Lottie file")
  }

  @Test func aFolderOrNothingKeepsItsMessage() throws {
    let (dir, _, _) = try Self.files(bytes: 0)
    defer { try? FileManager.default.removeItem(atPath: dir) }
    #expect(!LottieFile.isLottie(path: dir))
    expectEqual(
      thrownDescription { () throws(LottieFileError) in _ = try LottieFile.load(path: dir) },
      "Lottie file \(dir): is a folder, not a Lottie file")
    expectEqual(
      thrownDescription { () throws(LottieFileError) in _ = try LottieFile.load(path: dir + "/none.json") },
      "Lottie file \(dir)/none.json: no such file")
  }
}
