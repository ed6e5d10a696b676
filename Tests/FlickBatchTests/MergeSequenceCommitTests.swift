import FlickExpectations
import FlickTestSupport
import Foundation
import Testing

/// `flick merge` commits a PNG sequence the way a render does: its folder gets the
/// `.flick-sequence` marker, so the merged folder equals a single render's (frames and marker,
/// byte for byte), and a folder holding anything Flick did not write (a file, a sub-folder, a
/// link) is updated in place with those left alone. The merge once exchanged the whole folder
/// for its own and removed the old one with everything in it, and wrote no marker.
@Suite struct MergeSequenceCommitTests {
  typealias F = BatchFixtures

  static func manifest(frames: String) -> String {
    """
    { flick: 1, output: "out", renders: [
      { template: "slide.json5", name: "seq", sizes: [0.25], frames: \(frames), chunk: 2, formats: ["png"] },
    ] }
    """
  }

  /// Plans, runs and merges `manifest(frames:)` in `dir`; returns the sequence's folder.
  static func planRunMerge(_ dir: URL, frames: String) throws -> URL {
    try manifest(frames: frames).write(to: dir.appendingPathComponent("m.json5"), atomically: true, encoding: .utf8)
    for args in [["plan", "m.json5", "-o", "plan.json"], ["run", "plan.json", "-q"], ["merge", "plan.json", "-q"]] {
      let r = try F.flick(args, in: dir, environment: F.cleanEnvironment)
      expectEqual(r.status, 0, "flick \(args[0]): \(r.stderr)")
    }
    let variant = dir.appendingPathComponent("out/seq/default")
    let sizes = try FileManager.default.contentsOfDirectory(atPath: variant.path).filter { !$0.hasPrefix(".") }
    expectEqual(sizes.count, 1, "\(sizes)")
    return variant.appendingPathComponent(sizes.first ?? "?")
  }

  /// Every entry of `folder`, hidden ones included, with its bytes (nil for anything but a
  /// regular file).
  static func entries(_ folder: URL) throws -> [String: Data?] {
    var out: [String: Data?] = [:]
    for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
      var info = stat()
      let path = folder.appendingPathComponent(name).path
      lstat(path, &info)
      out[name] = (info.st_mode & S_IFMT) == S_IFREG ? try Data(contentsOf: URL(fileURLWithPath: path)) : nil
    }
    return out
  }

  @Test func aMergedSequenceEqualsASingleRenderMarkerIncluded() throws {
    let dir = try F.workspace()
    defer { try? FileManager.default.removeItem(at: dir) }
    let merged = try Self.planRunMerge(dir, frames: "[0, 5]")
    let single = try F.flick(
      ["render", "slide.json5", "--scale", "0.25", "--frames", "0..5", "-o", "single/", "-q"], in: dir)
    expectEqual(single.status, 0, "\(single.stderr)")
    let mergedEntries = try Self.entries(merged)
    #expect(mergedEntries[".flick-sequence"] != nil, "\(mergedEntries.keys.sorted())")
    try expectEqual(mergedEntries, Self.entries(dir.appendingPathComponent("single")))
  }

  @Test func aMergeKeepsWhatItDidNotWriteInTheSequencesFolder() throws {
    let dir = try F.workspace()
    defer { try? FileManager.default.removeItem(at: dir) }
    let folder = try Self.planRunMerge(dir, frames: "[0, 3]")
    try Data("mine".utf8).write(to: folder.appendingPathComponent("notes.txt"))
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent("sub"), withIntermediateDirectories: false)
    try Data("x".utf8).write(to: folder.appendingPathComponent("sub/y"))
    try FileManager.default.createSymbolicLink(
      atPath: folder.appendingPathComponent("lnk").path, withDestinationPath: "notes.txt")
    var before = stat()
    lstat(folder.path, &before)
    _ = try Self.planRunMerge(dir, frames: "[0, 5]")
    var after = stat()
    lstat(folder.path, &after)
    expectEqual(before.st_ino, after.st_ino, "updated in place, not exchanged")
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    expectEqual(
      names,
      [
        ".flick-sequence", "0000.png", "0001.png", "0002.png", "0003.png", "0004.png", "0005.png", "lnk", "notes.txt",
        "sub",
      ])
    try expectEqual(Data(contentsOf: folder.appendingPathComponent("notes.txt")), Data("mine".utf8))
    try expectEqual(Data(contentsOf: folder.appendingPathComponent("sub/y")), Data("x".utf8))
    try expectEqual(
      FileManager.default.destinationOfSymbolicLink(atPath: folder.appendingPathComponent("lnk").path), "notes.txt")
    let marker = try String(contentsOf: folder.appendingPathComponent(".flick-sequence"), encoding: .utf8)
    expectEqual(
      marker.split(separator: "\n").dropFirst().map(String.init),
      ["0000.png", "0001.png", "0002.png", "0003.png", "0004.png", "0005.png"])
  }
}
