import FlickExpectations
import FlickTestSupport
import Foundation
import Testing

/// A plan file comes from the same place as its manifest (a pull request may carry both): the
/// manifest it names stays in the plan's folder, and a file it names instead is never quoted.
@Suite struct PlanFileTrustTests {
  typealias F = BatchFixtures
  static let secret = ManifestConfinementTests.secret

  /// `m/plan.json`, planned from the usual manifest; the plan's text with `manifest` replaced.
  static func plan(_ l: ManifestConfinementTests.Layout) throws -> String {
    try ManifestConfinementTests.manifest().write(
      to: l.folder.appendingPathComponent("batch.json5"), atomically: true, encoding: .utf8)
    let planned = try F.flick(["plan", "batch.json5", "-o", "plan.json"], in: l.folder)
    expectEqual(planned.status, 0, "\(planned.stderr)")
    return try String(contentsOf: l.folder.appendingPathComponent("plan.json"), encoding: .utf8)
  }

  static func naming(_ manifest: String, in plan: String) -> String {
    plan.replacingOccurrences(of: "\"manifest\" : \"batch.json5\"", with: "\"manifest\" : \"\(manifest)\"")
  }

  @Test func theManifestAPlanNamesStaysInThePlansFolder() throws {
    let l = try ManifestConfinementTests.Layout()
    defer { try? FileManager.default.removeItem(at: l.root) }
    let plan = try Self.plan(l)
    let s = Self.secret
    try "{\"flick\": 1, \"api_\(s)\": \"x\"}".write(
      to: l.victim.appendingPathComponent("config.json"), atomically: true, encoding: .utf8)
    let config = l.victim.appendingPathComponent("config.json").path
    var messages: [String] = []
    for manifest in [config, "../victim/config.json", "link/config.json", "dangling", "/nonexistent/config.json"] {
      try Self.naming(manifest, in: plan).write(
        to: l.folder.appendingPathComponent("evil.json"), atomically: true, encoding: .utf8)
      for command in [["run", "evil.json", "--list"], ["merge", "evil.json"], ["status", "evil.json"]] {
        let r = try F.flick(command, in: l.folder, environment: F.cleanEnvironment)
        expectEqual(r.status, 2, "\(command) \(manifest): \(r.stderr)")
        #expect(r.stderr.contains("the manifest the plan names is outside the plan's folder"), "\(r.stderr)")
        #expect(!r.stderr.contains(s) && !r.text.contains(s), "\(command) \(manifest): \(r.stderr)")
        messages.append(r.stderr)
      }
    }
    // Whether anything is there does not change the answer.
    expectEqual(Set(messages).count, 1, "\(Set(messages))")
  }

  /// A file the plan may name (in its folder, or anywhere with --allow-outside-manifest) is not
  /// quoted when it is not a manifest that plans: no key, value or path found in it is shown.
  @Test(arguments: [
    "{\"flick\": 1, \"api_\(secret)\": \"x\"}", "{\"flick\": 1, \"output\": \"../\(secret)\", \"renders\": []}",
    "{\"flick\": 1, \"renders\": [{\"template\": \"\(secret)\"}]}",
    "{\"flick\": 1, \"output\": \"\(secret)\", \"renders\": [1]}",
  ])
  func aFileThePlanNamesIsNotQuoted(_ text: String) throws {
    let l = try ManifestConfinementTests.Layout()
    defer { try? FileManager.default.removeItem(at: l.root) }
    let plan = try Self.plan(l)
    try text.write(to: l.folder.appendingPathComponent("config.json"), atomically: true, encoding: .utf8)
    try text.write(to: l.victim.appendingPathComponent("config.json"), atomically: true, encoding: .utf8)
    for (manifest, options) in [("config.json", [String]()), ("../victim/config.json", ["--allow-outside-manifest"])] {
      try Self.naming(manifest, in: plan).write(
        to: l.folder.appendingPathComponent("evil.json"), atomically: true, encoding: .utf8)
      for command in [["run", "evil.json", "--list"], ["merge", "evil.json"], ["status", "evil.json"]] {
        let r = try F.flick(command + options, in: l.folder, environment: F.cleanEnvironment)
        expectEqual(r.status, 2, "\(command) \(manifest): \(r.stderr)")
        #expect(!r.stderr.contains(Self.secret) && !r.text.contains(Self.secret), "\(command): \(r.stderr)")
      }
    }
  }

  /// A plan written outside its manifest's folder says what `run` will need, and works with it.
  @Test func aPlanBelowItsManifestNeedsTheOption() throws {
    let l = try ManifestConfinementTests.Layout()
    defer { try? FileManager.default.removeItem(at: l.root) }
    try ManifestConfinementTests.manifest().write(
      to: l.folder.appendingPathComponent("batch.json5"), atomically: true, encoding: .utf8)
    let planned = try F.flick(["plan", "batch.json5", "-o", "sub/plan.json"], in: l.folder)
    expectEqual(planned.status, 0, "\(planned.stderr)")
    #expect(planned.stderr.contains("--allow-outside-manifest"), "\(planned.stderr)")
    let refused = try F.flick(["run", "sub/plan.json", "--list"], in: l.folder, environment: F.cleanEnvironment)
    expectEqual(refused.status, 2, "\(refused.stderr)")
    let listed = try F.flick(
      ["run", "sub/plan.json", "--list", "--allow-outside-manifest"], in: l.folder, environment: F.cleanEnvironment)
    expectEqual(listed.status, 0, "\(listed.stderr)")
  }
}
