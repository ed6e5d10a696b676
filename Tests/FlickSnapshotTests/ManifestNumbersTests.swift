import FlickExpectations
import Foundation
import Testing

/// A goldens manifest arrives in pull requests: every number verify renders with is checked, and
/// a refusal names the manifest and the field, exit 2, never a trap.
@Suite struct ManifestNumbersTests {
  typealias V = VerifyCommandTests

  /// Goldens of a small template (one frame at 0) in a new folder, and their manifest's path and
  /// text, which holds `written`. The caller removes the folder.
  static func goldens(containing written: String) throws -> (dir: String, manifest: String, text: String) {
    let dir = try V.temporaryDirectory()
    let template = """
      { flick: 1, canvas: { width: 64, height: 32, fps: 10, duration: 1, background: "#0F172A" },
        layers: [ { id: "a", size: [10, 10], position: [20, 16], backgroundColor: "#22C55E" } ] }
      """
    try template.write(toFile: dir + "/t.json5", atomically: true, encoding: .utf8)
    let made = try V.run(["snapshot", "t.json5", "--at", "0", "--out", "g"], in: dir)
    expectEqual(made.status, 0, "\(made.stderr)")
    let manifest = dir + "/g/manifest.json"
    let text = try String(contentsOfFile: manifest, encoding: .utf8)
    #expect(text.contains(written), "\(text)")
    return (dir, manifest, text)
  }

  @Test(arguments: [
    (#""scale" : 1"#, #""scale" : 1e300"#, "'scale' is 1e+300; expected a number in (0, 16]"),
    (#""scale" : 1"#, #""scale" : 0"#, "'scale' is 0.0; expected a number in (0, 16]"),
    (#""width" : 64"#, #""width" : 1e30"#, "not valid JSON, or a number out of range for its field"),
    (#""width" : 64"#, #""width" : 0"#, "'width' × 'height' is 0×32; expected 1…32767 each"),
    (#""fps" : 10"#, #""fps" : "ten""#, "a value that is not a whole number at 'fps'"),
    (#""duration" : 1"#, #""duration" : -1"#, "'fps' 10 or 'duration' -1.0 is out of range"),
  ])
  func aManifestNumberOutOfRangeIsRefused(written: String, hostile: String, message: String) throws {
    let (dir, manifest, text) = try Self.goldens(containing: written)
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try text.replacingOccurrences(of: written, with: hostile).write(toFile: manifest, atomically: true, encoding: .utf8)
    let verify = try V.run(["verify", "t.json5", "--against", "g"], in: dir)
    expectEqual(verify.status, 2, "\(verify.stderr)")
    #expect(verify.stderr.contains("manifest.json"), "\(verify.stderr)")
    #expect(verify.stderr.contains(message), "\(verify.stderr)")
  }

  /// A manifest that does not decode says FILE:LINE:COL of the value (or of the JSON mistake) and
  /// what was expected: `marker` is where in the edited file the location must point.
  @Test(arguments: [
    (#""fps" : 10"#, #""fps" : "ten""#, #""ten""#, "a value that is not a whole number at 'fps'"),
    (
      #""time" : "0s""#, #""time" : "500%""#, #""500%""#,
      "a value of the wrong form at 'frames[0].time', expected seconds (1.2s), a percentage (0…100%)"
    ),
    (#""fps" : 10,"#, #""fps" : 10,,"#, ",\n  \"frames\"", "not valid JSON"),
  ])
  func aManifestThatDoesNotDecodeIsLocated(written: String, hostile: String, marker: String, message: String) throws {
    let (dir, manifest, text) = try Self.goldens(containing: written)
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let edited = text.replacingOccurrences(of: written, with: hostile)
    try edited.write(toFile: manifest, atomically: true, encoding: .utf8)
    let before = try #require(edited.range(of: marker)).lowerBound
    let lines = edited[..<before].split(separator: "\n", omittingEmptySubsequences: false)
    let site = "manifest.json:\(lines.count):\((lines.last?.count ?? 0) + 1)"
    let verify = try V.run(["verify", "t.json5", "--against", "g"], in: dir)
    expectEqual(verify.status, 2, "\(verify.stderr)")
    #expect(verify.stderr.contains(site), "\(site): \(verify.stderr)")
    #expect(verify.stderr.contains(message), "\(verify.stderr)")
  }
}
