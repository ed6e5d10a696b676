import FlickTestSupport
import Foundation

/// Where test fixtures and the bundled templates are, found from this file.
enum FixturePaths {
  static let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  static let fixtures = tests.appendingPathComponent("Fixtures")
  static let broken = fixtures.appendingPathComponent("broken")
  static let root = tests.deletingLastPathComponent().deletingLastPathComponent()
  static let templates = root.appendingPathComponent("Templates")

  /// Every `*.json5` file of a folder, sorted by name.
  static func json5Files(in folder: URL) -> [URL] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    return names.filter { $0.hasSuffix(".json5") }.sorted().map { folder.appendingPathComponent($0) }
  }

  /// A fresh temporary folder.
  static func temporaryFolder() throws -> URL { try ProcessRunner.temporaryDirectory(prefix: "flick-templates") }
}
