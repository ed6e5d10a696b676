import FlickExpectations
import FlickTestSupport
import Foundation
import Testing

@testable import FlickBatch

/// The manifest example in docs/scale-out.md plans, with small stand-ins for the files it names,
/// so the documentation cannot drift from the decoder.
@Suite struct ScaleOutDocumentationTests {
  static let doc = BatchFixtures.root.appendingPathComponent("docs/scale-out.md")

  @Test func manifestExamplePlans() throws {
    let text = try String(contentsOf: Self.doc, encoding: .utf8)
    let start = try #require(text.range(of: "```json5\n"))
    let end = try #require(text.range(of: "```", range: start.upperBound..<text.endIndex))
    let example = String(text[start.upperBound..<end.lowerBound])
    let dir = try ProcessRunner.temporaryDirectory(prefix: "flick-doc")
    defer { try? FileManager.default.removeItem(at: dir) }
    try FileManager.default.createDirectory(at: dir.appendingPathComponent("params"), withIntermediateDirectories: true)
    try """
    { flick: 1,
      parameters: { title: { type: "string", default: "" }, accent: { type: "color", default: "#FFFFFF" },
                    locale: { type: "string", default: "en" } },
      canvas: { width: 640, height: 360, fps: 30, duration: 10 },
      layers: [{ id: "t", type: "text", string: "$title", size: [200, 40], position: [320, 180], textColor: "$accent" }] }
    """.write(to: dir.appendingPathComponent("cards.json5"), atomically: true, encoding: .utf8)
    try "{ accent: \"#111827\", locale: \"dark\" }".write(
      to: dir.appendingPathComponent("params/dark.json5"), atomically: true, encoding: .utf8)
    try "locale,title\nde,Morgenlauf\nfr,Course du matin\n".write(
      to: dir.appendingPathComponent("locales.csv"), atomically: true, encoding: .utf8)
    let path = dir.appendingPathComponent("batch.json5").path
    try example.write(toFile: path, atomically: true, encoding: .utf8)
    let plan = try BatchPlan(manifest: try Manifest.load(path: path), flickVersion: "test")
    // 4 variants × 3 sizes, each 300 frames in chunks of 120: 3 chunks and a merge per clip.
    expectEqual(plan.merges.count, 12)
    expectEqual(plan.jobs.count, 36)
    expectEqual(
      plan.jobs.map(\.spec.name).prefix(3),
      [
        "cards/1/1280x720 frames 0..119", "cards/1/1280x720 frames 120..239", "cards/1/1280x720 frames 240..299",
      ])
  }
}
