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

  /// Flick's temporaries of every kind are recognised by the PID they name, among them a GIF's
  /// palettes of one kind (`.NAME.PID.lookahead.palette.png`, `….budget.palette.pam`) and the
  /// files of an encoder whose destination is a merge's temporary (`..NAME.gif.PID.merge.PID.…`);
  /// names that are not Flick's stay whatever PID they hold.
  @Test func palettesOfAKindAndAMergeEncodersFilesAreSwept() throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    func names(_ pid: Int32) -> [String] {
      [
        ".clip.gif.\(pid).lookahead.palette.png", ".clip.gif.\(pid).budget.palette.pam",
        "..clip.gif.\(pid).merge.\(pid).frames", "..clip.gif.\(pid).merge.\(pid).partial",
        "..clip.gif.\(pid).merge.\(pid).palette.pam", "..clip.webm.\(pid).merge.\(pid).passlog-0.log",
      ]
    }
    let dead = Self.unusedPID()
    let foreign = [
      ".clip.gif.\(dead).look4head.palette.png", "..clip.txt.\(dead).merge.\(dead).partial",
      "..clip.gif.x.merge.\(dead).frames",
    ]
    for name in names(dead) + names(getpid()) + foreign {
      try Data("x".utf8).write(to: folder.appendingPathComponent(name))
    }
    let removed = Cleanup.removeStale(in: folder.path).map { URL(fileURLWithPath: $0).lastPathComponent }
    expectEqual(Set(removed), Set(names(dead)))
    try expectEqual(
      Set(FileManager.default.contentsOfDirectory(atPath: folder.path)), Set(names(getpid()) + foreign))
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
