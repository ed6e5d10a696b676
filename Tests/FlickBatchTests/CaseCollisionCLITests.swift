import FlickExpectations
import FlickTestSupport
import Foundation
import Testing

/// `flick plan` refuses names that differ only by case, which a file system that ignores case
/// (macOS, Windows) would make one folder: render names `A` and `a`, variant names from
/// `#ff0000` and `#FF0000`. Exit 2, located in the manifest, naming both; no plan written.
@Suite struct CaseCollisionCLITests {
  typealias F = BatchFixtures

  @Test(arguments: [
    (
      #"{ flick: 1, renders: [ { template: "slide.json5", name: "A", formats: ["gif"] }, "#
        + #"{ template: "slide.json5", name: "a", formats: ["gif"] } ] }"#,
      "m.json5:1:82: renders[1]: renders are named 'a' and 'A' (renders[0]), which differ only by case"
    ),
    (
      #"{ flick: 1, renders: [ { template: "slide.json5", variantName: "accent", "#
        + ##"variants: [ { accent: "#ff0000" }, { accent: "#FF0000" } ], formats: ["gif"] } ] }"##,
      "m.json5:1:64: renders[0].variantName: variants 1 and 2 are named '_ff0000' and '_FF0000', which differ only by case"
    ),
  ])
  func namesThatDifferOnlyByCaseAreRefused(_ manifest: String, _ expected: String) throws {
    let dir = try F.workspace()
    defer { try? FileManager.default.removeItem(at: dir) }
    try manifest.write(to: dir.appendingPathComponent("m.json5"), atomically: true, encoding: .utf8)
    let r = try F.flick(["plan", "m.json5", "-o", "plan2.json"], in: dir, environment: F.cleanEnvironment)
    expectEqual(r.status, 2, "\(r.stderr)")
    #expect(r.stderr.contains(expected), "\(r.stderr)")
    #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("plan2.json").path))
  }
}
