import FlickExpectations
import Foundation
import Testing

@testable import FlickVideo

/// ``Cleanup/removeStale(in:)`` lists an output folder with `readdir` and looks only at names
/// that start with a dot. The listing must hold every such name, and only those: "." and ".."
/// are not names, "..." and ".x" are, a name with a non-ASCII letter stays whole, and a folder
/// of many ordinary files (frames) gives nothing to look at.
@Suite struct CleanupStaleListingTests {
  @Test func hiddenNamesAreEveryDotNameAndNothingElse() throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let hidden = ["...", ".x", ".é.12.tmp", ".card.png.999999.tmp", ".seq.partial"]
    let plain = (0..<300).map { String(format: "frame-%04d.png", $0) } + ["a.mp4", "x.", "é"]
    for name in hidden + plain {
      try Data().write(to: folder.appendingPathComponent(name))
    }
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent(".dir.1.partial"), withIntermediateDirectories: false)
    let listed = try #require(Cleanup.hiddenNames(in: folder.path))
    expectEqual(Set(listed), Set(hidden + [".dir.1.partial"]))
    expectEqual(listed.count, hidden.count + 1)
    #expect(Cleanup.hiddenNames(in: folder.path + "/missing") == nil)
  }

  @Test func staleTemporariesAmongManyFilesAreRemovedAndLiveOnesKept() throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    for i in 0..<500 { try Data().write(to: folder.appendingPathComponent("frame-\(i).png")) }
    let dead = Self.unusedPID()
    let stale = folder.appendingPathComponent(".card.png.\(dead).tmp").path
    let live = folder.appendingPathComponent(".card.png.\(getpid()).tmp").path
    try Data("x".utf8).write(to: URL(fileURLWithPath: stale))
    try Data("y".utf8).write(to: URL(fileURLWithPath: live))
    let removed = Cleanup.removeStale(in: folder.path)
    expectEqual(removed, [stale])
    #expect(!FileManager.default.fileExists(atPath: stale))
    #expect(FileManager.default.fileExists(atPath: live))
    try expectEqual(FileManager.default.contentsOfDirectory(atPath: folder.path).count, 501)
  }

  /// A PID no process has: the largest one this kernel allows, minus one, checked with kill(0).
  static func unusedPID() -> Int32 {
    let max =
      (try? String(contentsOfFile: "/proc/sys/kernel/pid_max", encoding: .utf8))
      .flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) } ?? 32768
    var pid = max - 1
    while pid > 2, kill(pid, 0) == 0 || errno == EPERM { pid -= 1 }
    return pid
  }
}
