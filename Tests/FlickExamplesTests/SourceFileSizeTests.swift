import FlickExpectations
import Foundation
import Testing

/// The style guide's file size: no Swift file under Sources/ longer than 400 lines (a type that
/// grows past it is split with `Type+Aspect.swift`, docs/design.md "Code style and lint").
@Suite struct SourceFileSizeTests {
  static let limit = 400

  /// The Swift files under `folder` with more than `limit` lines, as "path: N lines", sorted.
  static func oversized(in folder: URL, limit: Int) throws -> [String] {
    let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
    var found: [String] = []
    while let url = files?.nextObject() as? URL {
      guard url.pathExtension == "swift" else { continue }
      let text = try String(contentsOf: url, encoding: .utf8)
      var lines = text.split(separator: "\n", omittingEmptySubsequences: false).count
      if text.hasSuffix("\n") { lines -= 1 }
      if lines > limit {
        found.append("\(url.path.dropFirst(folder.path.count + 1)): \(lines) lines")
      }
    }
    return found.sorted()
  }

  @Test func noSourceFileIsLongerThanTheLimit() throws {
    let sources = ExamplesTests.root.appendingPathComponent("Sources")
    let oversized = try Self.oversized(in: sources, limit: Self.limit)
    expectEqual(oversized, [], "split these with Type+Aspect.swift: \(oversized.joined(separator: ", "))")
  }

  /// The count is `wc -l`'s for a file ending in a newline: a file of exactly `limit` lines passes,
  /// one more line fails.
  @Test func theCountIsTheFilesLineCount() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("file-size-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder.appendingPathComponent("A"), withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let line = "let x = 1\n"
    try String(repeating: line, count: 3).write(
      to: folder.appendingPathComponent("A/Short.swift"), atomically: true, encoding: .utf8)
    try String(repeating: line, count: 4).write(
      to: folder.appendingPathComponent("A/Long.swift"), atomically: true, encoding: .utf8)
    try String(repeating: line, count: 9).write(
      to: folder.appendingPathComponent("A/notes.txt"), atomically: true, encoding: .utf8)
    try expectEqual(Self.oversized(in: folder, limit: 3), ["A/Long.swift: 4 lines"])
  }
}
