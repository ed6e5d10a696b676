import FlickExpectations
@testable import FlickVideo
import Foundation
import Testing

/// A temporary kept under a second name (``EncodedFile/keep(_:as:)``, a `--max-size` search's
/// ffmpeg file for its lossy steps) comes back only as itself: when a link or another file has
/// taken the second name in between, nothing comes back and nothing outside the output is read.
@Suite struct EncodedFileKeepTests {
  @Test func aKeptFileComesBackOnlyAsItself() throws {
    let dir = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let file = try EncodedFile(destination: dir.appendingPathComponent("out.gif").path, format: .gif)
    let candidate = file.partial("budget.gif")
    let second = file.partial("encoded.gif")
    defer { for path in [candidate, second] { EncodedFile.discard(path) } }
    func contents(_ path: String) -> String? { try? String(contentsOfFile: path, encoding: .utf8) }
    try "ffmpeg's file".write(toFile: candidate, atomically: false, encoding: .utf8)
    let kept = try #require(file.keep(candidate, as: second))
    // The candidate replaced by renaming, as gifsicle's file replaces it: the kept bytes stay.
    let optimized = file.partial("gifsicle.gif")
    try "gifsicle's file".write(toFile: optimized, atomically: false, encoding: .utf8)
    try file.replace(candidate, with: optimized)
    expectEqual(contents(candidate), "gifsicle's file")
    #expect(file.restore(kept, to: candidate))
    expectEqual(contents(candidate), "ffmpeg's file")
    expectEqual(contents(second), "ffmpeg's file")

    let outside = dir.appendingPathComponent("outside.txt").path
    try "not Flick's".write(toFile: outside, atomically: false, encoding: .utf8)
    // The second name taken by a link to a file outside the output: refused, the candidate gone.
    unlink(second)
    expectEqual(symlink(outside, second), 0)
    #expect(!file.restore(kept, to: candidate))
    #expect(!FileManager.default.fileExists(atPath: candidate))
    // By another name for that file: not the file kept either.
    unlink(second)
    expectEqual(link(outside, second), 0)
    #expect(!file.restore(kept, to: candidate))
    #expect(!FileManager.default.fileExists(atPath: candidate))
    // A link where the candidate should be is never kept.
    unlink(second)
    expectEqual(symlink(outside, candidate), 0)
    #expect(file.keep(candidate, as: second) == nil)
    #expect(!FileManager.default.fileExists(atPath: second))
    expectEqual(contents(outside), "not Flick's")
  }
}
