import FlickSnapshot
import FlickTemplates
import FlickTesting
import Foundation
import Testing

/// Every bundled template (`Templates/*.json5`) rendered at 0, 25, 50, 75 and 100 % of its duration
/// and compared with the goldens in `__Snapshots__/TemplateGoldenTests/<template>.<label>.png`.
///
/// Re-record after an intended change with `make snapshots` (see docs/snapshots.md).
@Suite struct TemplateGoldenTests {
  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  static let goldens = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("__Snapshots__/TemplateGoldenTests").path
  /// Goldens stay small: frames wider than this are rendered at a reduced scale.
  static let maxWidth = 320

  /// The template names (file names without `.json5`), sorted.
  static let templates: [String] = {
    let dir = root.appendingPathComponent("Templates").path
    return ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? [])
      .filter { $0.hasSuffix(".json5") && !$0.hasPrefix(".") }
      .map { String($0.dropLast(6)) }
      .sorted()
  }()

  @Test(arguments: templates) func template(_ name: String) {
    let path = Self.root.appendingPathComponent("Templates/\(name).json5").path
    // Flick's own goldens are drawn by this renderer on the same kind of machine as CI, so they
    // must match exactly: the default tolerance (threshold 0.1) let through rendering changes of up
    // to 6 % of a golden's pixels. Users' goldens, made elsewhere, keep the tolerant defaults.
    assertFrameSnapshot(
      of: path, at: SnapshotTime.quarters, named: name, maxWidth: Self.maxWidth, options: .exact)
  }

  @Test func templatesAreFound() {
    #expect(Self.templates.contains("hello"))
  }

  /// A golden whose template or time no longer exists fails here; with `FLICK_RECORD=all` (as
  /// `make snapshots` runs) it is deleted, and the test still fails once so the deletion is seen.
  @Test func noGoldenIsOrphaned() throws {
    let labels = Set(SnapshotTime.quarters.map(\.label))
    let files = (try? FileManager.default.contentsOfDirectory(atPath: Self.goldens)) ?? []
    var orphans: [String] = []
    for file in files.sorted() where !file.hasPrefix(".") {
      let parts = file.split(separator: ".").map(String.init)
      guard parts.count >= 3, parts.last == "png" else {
        orphans.append(file)
        continue
      }
      let label = parts[parts.count - 2]
      let name = parts.dropLast(2).joined(separator: ".")
      if !Self.templates.contains(name) || !labels.contains(label) { orphans.append(file) }
    }
    if RecordMode(text: ProcessInfo.processInfo.environment["FLICK_RECORD"] ?? "") == .all {
      for file in orphans { try FileManager.default.removeItem(atPath: "\(Self.goldens)/\(file)") }
    }
    #expect(orphans.isEmpty, "orphaned goldens (no such template or time) in \(Self.goldens): \(orphans)")
  }

  @Test func everyTemplateHasAllItsGoldens() {
    var missing: [String] = []
    for name in Self.templates {
      for time in SnapshotTime.quarters
      where
        !FileManager.default.fileExists(atPath: "\(Self.goldens)/\(name).\(time.label).png")
      {
        missing.append("\(name).\(time.label).png")
      }
    }
    #expect(missing.isEmpty, "missing goldens (run make snapshots): \(missing)")
  }
}
