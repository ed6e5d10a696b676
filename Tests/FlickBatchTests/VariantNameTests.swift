import FlickExpectations
import Foundation
import Testing

@testable import FlickBatch

/// `variantName` names each variant by one parameter's value, whatever gave the variant: an inline
/// object, a params file, a CSV row or a JSON5 data row. A value from a file that only
/// `--allow-outside-manifest` let in names its folder but is never quoted.
@Suite struct VariantNameTests {
  typealias Layout = ManifestConfinementTests.Layout

  /// Writes `text` as `name` in the manifest's folder.
  static func write(_ text: String, _ name: String, in l: Layout) throws {
    try text.write(to: l.folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
  }

  @Test func everySourceIsNamedByTheParameter() throws {
    let l = try Layout()
    defer { try? FileManager.default.removeItem(at: l.root) }
    try Self.write("{ accent: \"#111111\", distance: 20 }", "p.json5", in: l)
    try Self.write("accent,distance\n#222222,30\n#333333,40\n", "d.csv", in: l)
    try Self.write("[{ accent: \"#444444\", distance: 50 }]", "d.json5", in: l)
    try Self.write(
      """
      {
        flick: 1,
        renders: [
          { template: "slide.json5", name: "a", variants: [{ distance: 10 }, "p.json5"], data: "d.csv",
            variantName: "distance", formats: ["png"], frames: [0, 0] },
          { template: "slide.json5", name: "b", data: "d.json5", variantName: "distance", formats: ["png"],
            frames: [0, 0] },
        ],
      }
      """, "batch.json5", in: l)
    let plan = try BatchPlan(manifest: try Manifest.load(path: l.manifest), flickVersion: "test")
    expectEqual(
      plan.jobs.map(\.spec.name), ["a/10/128x72", "a/20/128x72", "a/30/128x72", "a/40/128x72", "b/50/128x72"])
  }

  /// Without `variantName` a params file still names its variant by its file name, and a data
  /// row (even an empty one) by its number.
  @Test func withoutVariantNameAParamsFileGivesItsFileName() throws {
    let l = try Layout()
    defer { try? FileManager.default.removeItem(at: l.root) }
    try Self.write("{ distance: 20 }", "near.json5", in: l)
    try Self.write("[{}, { distance: 5 }]", "rows.json5", in: l)
    let error = try l.plan(
      ManifestConfinementTests.manifest(extra: " variants: [{ distance: 10 }, \"near.json5\"], data: \"rows.json5\""))
    expectEqual(error, nil)
    let plan = try BatchPlan(manifest: try Manifest.load(path: l.manifest), flickVersion: "test")
    expectEqual(plan.jobs.map(\.spec.variant), ["1", "near", "3", "4"])
  }

  @Test func aParamsFileWithoutTheParameterIsRefused() throws {
    let l = try Layout()
    defer { try? FileManager.default.removeItem(at: l.root) }
    try Self.write("{ accent: \"#111111\" }", "p.json5", in: l)
    let error = try #require(
      try l.plan(
        ManifestConfinementTests.manifest(
          extra: " variants: [{ distance: 10 }, \"p.json5\"], variantName: \"distance\"")
      ))
    #expect(error.contains("variant 2 has no value for 'distance', which names the variants"), "\(error)")
  }

  /// Two variants from a file outside the folder that get the same name: refused without the name.
  @Test(arguments: [
    "variants: [\"../victim/n.json5\", \"../victim/n.json5\"], variantName: \"label\"",
    "data: \"link/n.csv\", variantName: \"label\"", "data: \"../victim/rows.json5\", variantName: \"label\"",
  ])
  func aNameFromAForeignFileIsNotQuoted(_ extra: String) throws {
    let l = try Layout()
    defer { try? FileManager.default.removeItem(at: l.root) }
    let s = ManifestConfinementTests.secret
    try "{ label: \"\(s)\" }".write(to: l.victim.appendingPathComponent("n.json5"), atomically: true, encoding: .utf8)
    try "label\n\(s)\n\(s)\n".write(to: l.victim.appendingPathComponent("n.csv"), atomically: true, encoding: .utf8)
    try "[{ label: \"\(s)\" }, { label: \"\(s)\" }]".write(
      to: l.victim.appendingPathComponent("rows.json5"), atomically: true, encoding: .utf8)
    let error = try #require(
      try l.plan(
        ManifestConfinementTests.manifest(extra: " " + extra), policy: ManifestPolicy(allowOutsideFolder: true)))
    #expect(error.contains("variants 1 and 2 are both named alike"), "\(error)")
    #expect(!error.contains(s), "\(error)")
  }
}
