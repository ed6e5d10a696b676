import FlickExpectations
import FlickTestSupport
import Foundation
import Testing

/// The manifest confinement through the real `flick` binary: exit codes, the one-line located
/// message, the `--allow-*` options on `plan`, `run` and `merge`, and a victim file whose secret
/// word must never be printed.
@Suite struct ManifestConfinementCLITests {
  typealias F = BatchFixtures
  static let secret = ManifestConfinementTests.secret

  @Test func outsidePathsAreRefusedWithExit2AndNeverQuoted() throws {
    let l = try ManifestConfinementTests.Layout()
    defer { try? FileManager.default.removeItem(at: l.root) }
    let manifest = l.folder.appendingPathComponent("batch.json5")
    try ManifestConfinementTests.manifest(extra: " data: \"../victim/secret.json5\"").write(
      to: manifest, atomically: true, encoding: .utf8)
    let refused = try F.flick(["plan", "batch.json5", "-o", "plan.json"], in: l.folder)
    expectEqual(refused.status, 2)
    #expect(
      refused.stderr.hasPrefix("flick: batch.json5:3:64: renders[0].data: data file \"../victim/secret.json5\": '"),
      "\(refused.stderr)")
    #expect(refused.stderr.contains("is outside the manifest's folder"), "\(refused.stderr)")
    expectEqual(refused.stderr.split(separator: "\n").count, 1)
    let allowed = try F.flick(["plan", "batch.json5", "-o", "plan.json", "--allow-outside-manifest"], in: l.folder)
    expectEqual(allowed.status, 2, "\(allowed.stderr)")
    #expect(allowed.stderr.contains("secret.json5:1:1: unexpected word (strings need quotes)"), "\(allowed.stderr)")
    for r in [refused, allowed] {
      #expect(!r.stderr.contains(Self.secret))
      #expect(!r.text.contains(Self.secret))
    }
    #expect(!FileManager.default.fileExists(atPath: l.folder.appendingPathComponent("plan.json").path))
  }

  @Test func runAndMergeReadTheManifestUnderTheSamePolicy() throws {
    let l = try ManifestConfinementTests.Layout()
    defer { try? FileManager.default.removeItem(at: l.root) }
    let manifest = l.folder.appendingPathComponent("batch.json5")
    try FileManager.default.copyItem(
      at: l.folder.appendingPathComponent("slide.json5"), to: l.victim.appendingPathComponent("t.json5"))
    try ManifestConfinementTests.manifest(template: "../victim/t.json5").write(
      to: manifest, atomically: true, encoding: .utf8)
    let planned = try F.flick(["plan", "batch.json5", "-o", "plan.json", "--allow-outside-manifest"], in: l.folder)
    expectEqual(planned.status, 0, "\(planned.stderr)")
    for command in ["run", "merge"] {
      let refused = try F.flick([command, "plan.json", "-q"], in: l.folder, environment: F.cleanEnvironment)
      expectEqual(refused.status, 2, "\(command): \(refused.stderr)")
      // The plan named this manifest, so its text (the path it gives) is not quoted: `flick plan` shows why.
      #expect(refused.stderr.contains("batch.json5:3:25: the plan's manifest does not plan here"), "\(refused.stderr)")
      #expect(!refused.stderr.contains("victim"), "\(command): \(refused.stderr)")
    }
    let merged = try F.flick(["merge", "plan.json", "-q", "--allow-outside-manifest"], in: l.folder)
    expectEqual(merged.status, 0, "\(merged.stderr)")
  }

  /// A plan file that is not one is refused without quoting it, and a FIFO is not read.
  @Test func aForeignPlanFileIsNeverQuoted() throws {
    let l = try ManifestConfinementTests.Layout()
    defer { try? FileManager.default.removeItem(at: l.root) }
    expectEqual(mkfifo(l.folder.appendingPathComponent("fifo.json").path, 0o600), 0)
    for plan in [l.victim.appendingPathComponent("secret.json5").path, "fifo.json"] {
      for command in ["run", "merge"] {
        let r = try F.flick([command, plan], in: l.folder)
        expectEqual(r.status, 2, "\(command) \(plan): \(r.stderr)")
        #expect(!r.stderr.contains(Self.secret), "\(command) \(plan): \(r.stderr)")
      }
    }
  }

  @Test func helpStatesTheCapsAndOptions() throws {
    let help = try F.flick(["plan", "--help"], in: F.root).text
    for word in ["--allow-outside-manifest", "--allow-outside-assets", "4 MiB", "10,001 rows", "100,000 jobs"] {
      #expect(help.contains(word), "\(word)")
    }
    #expect(try F.flick(["run", "--help"], in: F.root).text.contains("--allow-outside-manifest"))
    #expect(try F.flick(["merge", "--help"], in: F.root).text.contains("--allow-outside-manifest"))
  }
}
