import FlickExpectations
import FlickRaster
import FlickTestSupport
import Foundation
import Testing

@testable import FlickSnapshot

/// Goldens from a pull request whose manifest claims `inputs.allowOutsideAssets` and whose stored
/// template names a picture outside: only the command line's `--allow-outside-assets` lets a
/// re-render read it; what the manifest records is reported, never granted.
@Suite struct StoredInputsPolicyTests {
  typealias V = VerifyCommandTests
  typealias R = RendererChangeTests

  /// Goldens of the button template (at 0) whose stored template shows `secret` instead of its
  /// logo, whose manifest says it was loaded with `--allow-outside-assets`, and whose renderer
  /// fingerprint is another's (so `verify` re-renders the stored inputs).
  static func hostileGoldens(in dir: String, secret: String) throws -> (template: String, golden: String) {
    var picture = Frame(width: 16, height: 16)
    for i in stride(from: 0, to: picture.pixels.count, by: 4) {
      picture.pixels[i] = 0xFF
      picture.pixels[i + 2] = 0xFF
      picture.pixels[i + 3] = 0xFF
    }
    try FileManager.default.createDirectory(
      atPath: (secret as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try picture.writePNG(to: secret)
    let template = try R.makeTemplate(in: dir + "/project")
    let golden = dir + "/golden"
    try expectEqual(V.run(["snapshot", template, "--at", "0", "--out", golden]).status, 0)
    let text = try String(contentsOfFile: template, encoding: .utf8)
      .replacingOccurrences(of: "\"assets/logo.png\"", with: "\"\(secret)\"")
    let bytes = Data(text.utf8)
    let hash = SnapshotManifest.hash([UInt8](bytes))
    try bytes.write(to: URL(fileURLWithPath: golden + "/inputs/" + hash))
    let path = golden + "/manifest.json"
    var json = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
    var inputs = try #require(json["inputs"] as? [String: Any])
    var stored = try #require(inputs["template"] as? [String: Any])
    stored["sha256"] = hash
    stored["bytes"] = bytes.count
    inputs["template"] = stored
    inputs["allowOutsideAssets"] = true
    json["inputs"] = inputs
    var renderer = try #require(json["renderer"] as? [String: Any])
    renderer["cairo"] = "1.0.0"
    json["renderer"] = renderer
    try JSONSerialization.data(withJSONObject: json).write(to: URL(fileURLWithPath: path))
    // The goldens' own chunks say the same renderer (a manifest alone is refused).
    var other = RendererFingerprint.current
    other.cairo = "1.0.0"
    for entry in try #require(try SnapshotManifest.read(from: golden)).frames {
      let file = golden + "/" + entry.file
      try PNGFile.write(try PNGImage(contentsOf: file).frame, to: file, renderer: other)
    }
    return (template, golden)
  }

  @Test func theManifestCannotGrantAssetsOutsideTheStoredInputs() throws {
    let dir = try V.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let secret = dir + "/victim/secret.png"
    let (template, golden) = try Self.hostileGoldens(in: dir, secret: secret)
    let report = dir + "/rep"
    let v = try V.run(["verify", template, "--against", golden, "--report", report])
    #expect(v.stderr.contains("--allow-outside-assets"), "\(v.stderr)")
    #expect(!FileManager.default.fileExists(atPath: report + "/0s/rerendered.png"), "\(v.stderr)")
    #expect(!FileManager.default.fileExists(atPath: report + "/0s/expected.png"), "\(v.stderr)")
    // In the library too: the stored inputs load without access outside unless the caller grants it.
    let manifest = try #require(try SnapshotManifest.read(from: golden))
    let inputs = try #require(manifest.inputs)
    #expect(inputs.allowOutsideAssets)
    #expect(throws: SnapshotError.self) {
      _ = try inputs.rerender(from: golden, at: manifest.frames.map(\.time), scale: manifest.scale)
    }
  }

  @Test func theCommandLineStillGrantsIt() throws {
    let dir = try V.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let (template, golden) = try Self.hostileGoldens(in: dir, secret: dir + "/victim/secret.png")
    let report = dir + "/rep"
    let v = try V.run(["verify", template, "--against", golden, "--report", report, "--allow-outside-assets"])
    #expect(FileManager.default.fileExists(atPath: report + "/0s/rerendered.png"), "\(v.stderr)")
  }
}
