import FlickExpectations
import FlickRaster
import FlickTestSupport
import Foundation
import Testing

@testable import FlickSnapshot

/// Goldens folders edited by someone else's pull request: what the folder's own files say wins
/// over the manifest, every golden file in the folder is checked or fails the run, and a run that
/// checks nothing fails.
@Suite struct UntrustedGoldensTests {
  typealias V = VerifyCommandTests

  static func snapshot(_ args: [String], in dir: String) throws -> String {
    let golden = dir + "/golden"
    let s = try V.run(["snapshot", V.twoCards] + args + ["--out", golden], in: dir)
    expectEqual(s.status, 0, "\(s.stderr)")
    return golden
  }

  static func editManifest(_ golden: String, _ edit: (inout SnapshotManifest) -> Void) throws {
    var manifest = try #require(try SnapshotManifest.read(from: golden))
    edit(&manifest)
    try manifest.write(to: golden)
  }

  static func summary(_ report: String) throws -> [String: Any] {
    try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report + "/summary.json")))
        as? [String: Any])
  }

  @Test func aManifestWhoseRendererTheGoldensDoNotCarryIsRefused() throws {
    let dir = try V.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let golden = try Self.snapshot(["--at", "0,end"], in: dir)
    // Only manifest.json changes: another renderer, with and without the stored inputs. The
    // goldens' own chunks still name this renderer.
    for dropInputs in [false, true] {
      try Self.editManifest(golden) {
        $0.renderer.cairo = "1.16.1"
        if dropInputs { $0.inputs = nil }
      }
      let v = try V.run(["verify", V.twoCards, "--against", golden] + V.recolour, in: dir)
      expectEqual(v.status, 2, "inputs dropped \(dropInputs): \(v.stderr)")
      #expect(v.stderr.contains("manifest.json"), "\(v.stderr)")
      #expect(v.stderr.contains("0s.png") || v.stderr.contains("end.png"), "\(v.stderr)")
      #expect(v.stderr.contains("record them again"), "\(v.stderr)")
      #expect(!v.stderr.contains("WARNING"), "\(v.stderr)")
    }
  }

  @Test func aGoldenWithoutTheRendererChunkIsComparedExactlyWhateverTheManifestSays() throws {
    let dir = try V.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let golden = try Self.snapshot(["--at", "0"], in: dir)
    // The chunk stripped (the same pixels written without it) and the manifest set to another renderer.
    try Frame(pngAt: golden + "/0s.png").writePNG(to: golden + "/0s.png")
    try expectEqual(PNGImage.recordedRenderer(atPath: golden + "/0s.png"), nil)
    try Self.editManifest(golden) { $0.renderer.cairo = "1.16.1" }
    let same = try V.run(["verify", V.twoCards, "--against", golden], in: dir)
    expectEqual(same.status, 0, "\(same.stderr)")
    #expect(same.stderr.contains("renderer is unknown"), "\(same.stderr)")
    let changed = try V.run(["verify", V.twoCards, "--against", golden] + V.recolour, in: dir)
    expectEqual(changed.status, 1, "\(changed.stderr)")
    #expect(!changed.stderr.contains("re-rendering"), "\(changed.stderr)")
  }

  @Test func storedInputsThatDoNotRenderAtTheGoldensSizeFailTheFrame() throws {
    let dir = try V.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let template = try RendererChangeTests.makeTemplate(in: dir)
    let golden = dir + "/golden"
    try expectEqual(V.run(["snapshot", template, "--at", "0", "--out", golden], in: dir).status, 0)
    try RendererChangeTests.fakeRendererChange(golden)
    // The pull request widens the template and stores the new one as the goldens' input.
    let wider = try String(contentsOfFile: template, encoding: .utf8)
      .replacingOccurrences(of: "width: 160", with: "width: 161")
    try wider.write(toFile: template, atomically: true, encoding: .utf8)
    let bytes = [UInt8](wider.utf8), sha = SnapshotManifest.hash(bytes)
    try Data(bytes).write(to: URL(fileURLWithPath: "\(golden)/inputs/\(sha)"))
    try Self.editManifest(golden) {
      $0.inputs?.template.sha256 = sha
      $0.inputs?.template.bytes = bytes.count
      $0.templateHash = sha
    }
    let v = try V.run(["verify", template, "--against", golden, "--report", dir + "/r"], in: dir)
    expectEqual(v.status, 1, "\(v.stderr)")
    #expect(v.stderr.contains("✗ 0s"), "\(v.stderr)")
    #expect(v.stderr.contains("stored inputs render at 161×90, but the golden is 160×90"), "\(v.stderr)")
    let frame = try #require((try Self.summary(dir + "/r")["frames"] as? [[String: Any]])?.first)
    expectEqual(frame["status"] as? String, "sizeMismatch")
  }

  @Test func aRunThatComparesNothingFailsAndSaysSo() throws {
    let dir = try V.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let golden = try Self.snapshot(["--at", "0"], in: dir)
    try Self.editManifest(golden) { $0.frames = [] }
    try FileManager.default.removeItem(atPath: golden + "/0s.png")
    let v = try V.run(["verify", V.twoCards, "--against", golden, "--report", dir + "/r"], in: dir)
    expectEqual(v.status, 1, "\(v.stderr)")
    #expect(v.stderr.contains("0 of 0 match"), "\(v.stderr)")
    #expect(v.stderr.contains("nothing was compared"), "\(v.stderr)")
    expectEqual(try Self.summary(dir + "/r")["passed"] as? Bool, false)
  }

  @Test func goldenFilesTheManifestDoesNotListFailTheRun() throws {
    let dir = try V.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let golden = try Self.snapshot(["--at", "0,end", "--motion"], in: dir)
    // A pull request drops the failing frame's entry and the motion entry, leaving their files.
    try Self.editManifest(golden) {
      $0.frames.removeAll { $0.file == "end.png" }
      $0.motion = nil
    }
    let v = try V.run(["verify", V.twoCards, "--against", golden, "--report", dir + "/r"], in: dir)
    expectEqual(v.status, 1, "\(v.stderr)")
    #expect(v.stderr.contains("✗ end.png: unlisted: "), "\(v.stderr)")
    #expect(v.stderr.contains("✗ motion.txt: unlisted: "), "\(v.stderr)")
    #expect(v.stderr.contains("list it"), "\(v.stderr)")
    let counts = try #require(try Self.summary(dir + "/r")["counts"] as? [String: Int])
    expectEqual(counts["unlisted"], 2)
    // Deleting them is the other way out.
    try FileManager.default.removeItem(atPath: golden + "/end.png")
    try FileManager.default.removeItem(atPath: golden + "/motion.txt")
    try expectEqual(V.run(["verify", V.twoCards, "--against", golden], in: dir).status, 0)
  }

  @Test func aMotionGoldenThatLacksSamplesIsInvalidInput() throws {
    let dir = try V.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let template = try MotionGoldenTests.springy(bounciness: 8, in: dir)
    let golden = dir + "/golden"
    try expectEqual(V.run(["snapshot", template, "--at", "0", "--motion", "--out", golden], in: dir).status, 0)
    let text = try String(contentsOfFile: golden + "/motion.txt", encoding: .utf8)
    let lines = text.split(separator: "\n").map(String.init)
    var firstSamples: [String] = []
    for (i, line) in lines.enumerated() where line.hasPrefix("property") {
      firstSamples += [line, lines[i + 1]]
    }
    let edits = [
      ("no samples", lines.filter { !$0.first!.isNumber }, "has no samples"),
      ("one sample", [lines[0]] + firstSamples, "has no sample at t = "),
    ]
    for (what, kept, message) in edits {
      let edited = kept.joined(separator: "\n") + "\n"
      try edited.write(toFile: golden + "/motion.txt", atomically: true, encoding: .utf8)
      try Self.editManifest(golden) { $0.motion?.sha256 = SnapshotManifest.hash(Array(edited.utf8)) }
      // Whatever the motion now is (bounciness 8 → 2).
      let changed = try MotionGoldenTests.springy(bounciness: 2, in: dir)
      let v = try V.run(["verify", changed, "--against", golden, "--motion"], in: dir)
      expectEqual(v.status, 2, "\(what): \(v.stderr)")
      #expect(v.stderr.contains("motion.txt") && v.stderr.contains(message), "\(what): \(v.stderr)")
      #expect(v.stderr.contains("record it again"), "\(what): \(v.stderr)")
      _ = try MotionGoldenTests.springy(bounciness: 8, in: dir)
    }
  }
}
