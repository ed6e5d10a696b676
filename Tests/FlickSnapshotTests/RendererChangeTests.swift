import FlickExpectations
import FlickRaster
import FlickTestSupport
import Foundation
import Testing

@testable import FlickSnapshot

/// Goldens that carry their inputs: a renderer change (faked by rewriting the fingerprint of the
/// manifest and of every golden PNG, as goldens recorded by another renderer hold it) re-renders the goldens' own inputs, so a
/// real change fails exactly as on the same renderer, in every mode, and the drift is reported apart.
@Suite struct RendererChangeTests {
  typealias V = VerifyCommandTests

  /// A template with an image asset and a recolourable button, written into `dir`.
  static func makeTemplate(in dir: String, colour: String = "#1D4ED8") throws -> String {
    var logo = Frame(width: 8, height: 8)
    for i in stride(from: 0, to: logo.pixels.count, by: 4) {
      logo.pixels[i] = 0x30
      logo.pixels[i + 1] = 0xA0
      logo.pixels[i + 2] = 0xF0
      logo.pixels[i + 3] = 0xFF
    }
    try FileManager.default.createDirectory(atPath: dir + "/assets", withIntermediateDirectories: true)
    try logo.writePNG(to: dir + "/assets/logo.png")
    let text = """
      {
        flick: 1, name: "button",
        parameters: { tint: { type: "color", default: "\(colour)", description: "button colour" } },
        canvas: { width: 160, height: 90, fps: 10, duration: 1, background: "#F8FAFC" },
        layers: [
          { id: "button", size: [100, 40], position: [80, 45], cornerRadius: 10, backgroundColor: "$tint" },
          { id: "logo", size: [16, 16], position: [20, 20], contents: "assets/logo.png" },
        ],
        timeline: [ { target: "button", property: "opacity", from: 0.6, to: 1, at: 0, duration: 1 } ],
      }
      """
    try text.write(toFile: dir + "/button.json5", atomically: true, encoding: .utf8)
    return dir + "/button.json5"
  }

  /// Makes the goldens another renderer's (a CI image update): the manifest's fingerprint and
  /// each listed golden's own `flick-renderer` chunk (pixels unchanged). Rewriting the manifest
  /// alone is refused by verify: the PNGs say who drew them.
  static func fakeRendererChange(_ golden: String) throws {
    let path = golden + "/manifest.json"
    var text = try String(contentsOfFile: path, encoding: .utf8)
    let cairo = RendererFingerprint.current.cairo
    text = text.replacingOccurrences(of: "\"cairo\" : \"\(cairo)\"", with: "\"cairo\" : \"0.0.1-fake\"")
    #expect(text.contains("0.0.1-fake"))
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    var fake = RendererFingerprint.current
    fake.cairo = "0.0.1-fake"
    for entry in try #require(try SnapshotManifest.read(from: golden)).frames {
      let file = golden + "/" + entry.file
      try PNGFile.write(try PNGImage(contentsOf: file).frame, to: file, renderer: fake)
    }
  }

  /// Alters a few pixels of a golden, as another renderer's anti-aliasing would.
  static func drift(_ file: String) throws {
    var frame = try Frame(pngAt: file)
    for x in 30..<34 { frame.pixels[25 * frame.bytesPerRow + x * 4] &+= 3 }
    try frame.writePNG(to: file)
  }

  @Test func aRecolourAfterARendererChangeFailsInEveryModeAndDriftAlonePasses() throws {
    let dir = try V.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let template = try Self.makeTemplate(in: dir)
    let golden = dir + "/golden"
    let s = try V.run(["snapshot", template, "--at", "0,50%,end", "--out", golden], in: dir)
    expectEqual(s.status, 0, "\(s.stderr)")
    let manifest = try #require(try SnapshotManifest.read(from: golden))
    let inputs = try #require(manifest.inputs)
    expectEqual(inputs.template.path, "button.json5")
    expectEqual(inputs.assets.map(\.path), ["assets/logo.png"])
    for file in inputs.files {
      #expect(FileManager.default.fileExists(atPath: "\(golden)/inputs/\(file.sha256)"), "\(file.path)")
    }
    try Self.drift(golden + "/0s.png")
    try Self.fakeRendererChange(golden)

    // No design change: passes, with the drift reported apart.
    let same = try V.run(["verify", template, "--against", golden, "--report", dir + "/r0"], in: dir)
    expectEqual(same.status, 0, "\(same.stderr)")
    #expect(same.stderr.contains("re-rendering the goldens' stored inputs"), "\(same.stderr)")
    #expect(same.stderr.contains("renderer drift: 4 pixels"), "\(same.stderr)")
    let html = try String(contentsOfFile: dir + "/r0/index.html", encoding: .utf8)
    #expect(html.contains("renderer drift"))
    #expect(html.contains("drift-zoom.png"))

    // The recolour #1D4ED8 → #2563EB fails in every mode.
    for mode in [[], ["--exact"], ["--perceptual"], ["--threshold", "0.5"]] {
      let v = try V.run(["verify", template, "--against", golden, "--set", "tint=#2563EB"] + mode, in: dir)
      expectEqual(v.status, 1, "\(mode): \(v.stderr)")
      #expect(v.stderr.contains("✗ 50pct"), "\(mode): \(v.stderr)")
    }
    // So does a changed asset: the stored one is re-rendered, not the file on disk.
    var logo = try Frame(pngAt: dir + "/assets/logo.png")
    logo.pixels[0] = 0
    try logo.writePNG(to: dir + "/assets/logo.png")
    let asset = try V.run(["verify", template, "--against", golden], in: dir)
    expectEqual(asset.status, 1, "\(asset.stderr)")
  }

  /// A failed report across a renderer change is not accepted frame by frame: the frames that
  /// matched would keep the old renderer's fingerprint beside the new one's, goldens verify
  /// refuses. The renderer update is taken first.
  @Test func aReportAcrossARendererChangeIsAcceptedOnlyAfterTheUpdate() throws {
    let dir = try V.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let template = try Self.makeTemplate(in: dir)
    let golden = dir + "/golden"
    expectEqual(try V.run(["snapshot", template, "--at", "0,50%,end", "--out", golden], in: dir).status, 0)
    try Self.fakeRendererChange(golden)
    let before = try Data(contentsOf: URL(fileURLWithPath: golden + "/manifest.json"))
    let v = try V.run(
      ["verify", template, "--against", golden, "--set", "tint=#2563EB", "--report", dir + "/r1"], in: dir)
    expectEqual(v.status, 1, "\(v.stderr)")
    let refused = try V.run(["accept", dir + "/r1", "--against", golden], in: dir)
    expectEqual(refused.status, 2, "\(refused.stderr)")
    #expect(refused.stderr.contains("take the renderer update first"), "\(refused.stderr)")
    expectEqual(try Data(contentsOf: URL(fileURLWithPath: golden + "/manifest.json")), before)
    // The update, then a new report of the same change, is accepted, and verify passes on it.
    expectEqual(try V.run(["accept", "--renderer", "--against", golden], in: dir).status, 0)
    let again = try V.run(
      ["verify", template, "--against", golden, "--set", "tint=#2563EB", "--report", dir + "/r2"], in: dir)
    expectEqual(again.status, 1, "\(again.stderr)")
    let a = try V.run(["accept", dir + "/r2", "--against", golden], in: dir)
    expectEqual(a.status, 0, "\(a.stderr)")
    let after = try V.run(["verify", template, "--against", golden, "--set", "tint=#2563EB"], in: dir)
    expectEqual(after.status, 0, "\(after.stderr)")
  }

  @Test func acceptingARendererUpdateRerendersTheStoredInputsOnly() throws {
    let dir = try V.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let template = try Self.makeTemplate(in: dir)
    let golden = dir + "/golden"
    try expectEqual(V.run(["snapshot", template, "--at", "0,end", "--out", golden], in: dir).status, 0)
    try Self.drift(golden + "/0s.png")
    try Self.fakeRendererChange(golden)
    // The template changes meanwhile: accepting the renderer must not take the design change in.
    _ = try Self.makeTemplate(in: dir, colour: "#2563EB")
    let dry = try V.run(["accept", "--renderer", "--against", golden, "--dry-run"], in: dir)
    expectEqual(dry.status, 0, "\(dry.stderr)")
    #expect(dry.stderr.contains("would re-render"), "\(dry.stderr)")
    try expectEqual(SnapshotManifest.read(from: golden)?.renderer.cairo, "0.0.1-fake")
    let a = try V.run(["accept", "--renderer", "--against", golden], in: dir)
    expectEqual(a.status, 0, "\(a.stderr)")
    #expect(a.stderr.contains("renderer drift: 4 pixels"), "\(a.stderr)")
    try expectEqual(SnapshotManifest.read(from: golden)?.renderer, RendererFingerprint.current)
    // Same renderer now: exact; the design change still fails, the original design passes.
    try expectEqual(V.run(["verify", template, "--against", golden], in: dir).status, 1)
    let back = try V.run(["verify", template, "--against", golden, "--set", "tint=#1D4ED8"], in: dir)
    expectEqual(back.status, 0, "\(back.stderr)")
    // Goldens without inputs cannot be re-rendered: refused.
    try FileManager.default.removeItem(atPath: golden + "/inputs")
    let damaged = try V.run(["accept", "--renderer", "--against", golden], in: dir)
    expectEqual(damaged.status, 3, "\(damaged.stderr)")
    #expect(damaged.stderr.contains("damaged golden input"), "\(damaged.stderr)")
  }

  @Test func oldGoldensFallBackToAPerceptualCheckThatStillCatchesColours() throws {
    let dir = try V.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let template = try Self.makeTemplate(in: dir)
    let golden = dir + "/golden"
    try expectEqual(V.run(["snapshot", template, "--at", "0,end", "--out", golden], in: dir).status, 0)
    // Goldens recorded before Flick stored inputs: no `inputs` in the manifest.
    var manifest = try #require(try SnapshotManifest.read(from: golden))
    manifest.inputs = nil
    try manifest.write(to: golden)
    try FileManager.default.removeItem(atPath: golden + "/inputs")
    try Self.fakeRendererChange(golden)
    let same = try V.run(["verify", template, "--against", golden, "--report", dir + "/r0"], in: dir)
    expectEqual(same.status, 0, "\(same.stderr)")
    #expect(same.stderr.contains("WARNING: these goldens store no inputs"), "\(same.stderr)")
    #expect(same.stderr.contains("re-record"), "\(same.stderr)")
    let html = try String(contentsOfFile: dir + "/r0/index.html", encoding: .utf8)
    #expect(html.contains("class=banner"))
    #expect(html.contains("store no inputs"))
    let recolour = try V.run(["verify", template, "--against", golden, "--set", "tint=#2563EB"], in: dir)
    expectEqual(recolour.status, 1, "\(recolour.stderr)")
    #expect(recolour.stderr.contains("ΔE_OK"), "\(recolour.stderr)")
  }

  @Test func damagedInputsAndStrayGoldensAreNamed() throws {
    let dir = try V.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let template = try Self.makeTemplate(in: dir)
    let golden = dir + "/golden"
    try expectEqual(V.run(["snapshot", template, "--at", "0", "--out", golden], in: dir).status, 0)
    try FileManager.default.copyItem(atPath: golden + "/0s.png", toPath: golden + "/leftover.png")
    // A golden the manifest does not list fails the run (nothing would check it), named.
    let stray = try V.run(["verify", template, "--against", golden, "--report", dir + "/r0"], in: dir)
    expectEqual(stray.status, 1, "\(stray.stderr)")
    #expect(stray.stderr.contains("✗ leftover.png: unlisted: "), "\(stray.stderr)")
    #expect(try String(contentsOfFile: dir + "/r0/index.html", encoding: .utf8).contains("leftover.png"))
    try FileManager.default.removeItem(atPath: golden + "/leftover.png")
    // A stored input whose bytes no longer match its hash is refused once it is needed.
    try Self.fakeRendererChange(golden)
    let manifest = try #require(try SnapshotManifest.read(from: golden))
    let asset = try #require(manifest.inputs?.assets.first)
    try Data("not the logo".utf8).write(to: URL(fileURLWithPath: "\(golden)/inputs/\(asset.sha256)"))
    let v = try V.run(["verify", template, "--against", golden], in: dir)
    expectEqual(v.status, 3, "\(v.stderr)")
    #expect(v.stderr.contains("damaged golden input"), "\(v.stderr)")
    // A manifest naming an input outside its folder is refused as invalid input.
    var text = try String(contentsOfFile: golden + "/manifest.json", encoding: .utf8)
    text = text.replacingOccurrences(of: "\"assets/logo.png\"", with: "\"../../etc/passwd\"")
    try text.write(toFile: golden + "/manifest.json", atomically: true, encoding: .utf8)
    let unsafe = try V.run(["verify", template, "--against", golden], in: dir)
    expectEqual(unsafe.status, 2, "\(unsafe.stderr)")
    #expect(unsafe.stderr.contains("refusing"), "\(unsafe.stderr)")
  }

  @Test func acceptWarnsWhenTheTemplateChangedSinceTheReportAndCarriesTheInputs() throws {
    let dir = try V.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let template = try Self.makeTemplate(in: dir)
    let golden = dir + "/golden", report = dir + "/report"
    try expectEqual(V.run(["snapshot", template, "--at", "0", "--out", golden], in: dir).status, 0)
    let v = try V.run(["verify", template, "--against", golden, "--report", report, "--set", "tint=#2563EB"], in: dir)
    expectEqual(v.status, 1, "\(v.stderr)")
    let fresh = try V.run(["accept", report, "--against", golden, "--dry-run"], in: dir)
    expectEqual(fresh.status, 0, "\(fresh.stderr)")
    #expect(!fresh.stderr.contains("changed since"), "\(fresh.stderr)")
    _ = try Self.makeTemplate(in: dir, colour: "#000000")
    let a = try V.run(["accept", report, "--against", golden], in: dir)
    expectEqual(a.status, 0, "\(a.stderr)")
    #expect(a.stderr.contains("changed since this report was made"), "\(a.stderr)")
    // The accepted goldens store the inputs the report verified (the --set value among them).
    let manifest = try #require(try SnapshotManifest.read(from: golden))
    expectEqual(manifest.inputs?.sets, ["tint=#2563EB"])
    for file in manifest.inputs?.files ?? [] {
      #expect(FileManager.default.fileExists(atPath: "\(golden)/inputs/\(file.sha256)"), "\(file.path)")
    }
  }

  @Test func aRendererUpdateIsAcceptedFromAPassingReport() throws {
    let dir = try V.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let template = try Self.makeTemplate(in: dir)
    let golden = dir + "/golden"
    try expectEqual(V.run(["snapshot", template, "--at", "0,end", "--out", golden], in: dir).status, 0)
    try Self.drift(golden + "/0s.png")
    try Self.fakeRendererChange(golden)
    // A failing report (a design change) is not a renderer update.
    let failed = try V.run(
      ["verify", template, "--against", golden, "--report", dir + "/bad", "--set", "tint=#2563EB"], in: dir)
    expectEqual(failed.status, 1)
    let refused = try V.run(["accept", dir + "/bad", "--renderer", "--against", golden], in: dir)
    expectEqual(refused.status, 2, "\(refused.stderr)")
    #expect(refused.stderr.contains("the report failed"), "\(refused.stderr)")
    // The passing report (as CI would upload it) carries the re-rendered golden.
    let v = try V.run(["verify", template, "--against", golden], in: dir)
    expectEqual(v.status, 0, "\(v.stderr)")
    #expect(v.stderr.contains("report: "), "\(v.stderr)")
    let report = dir + "/flick-report/button"
    let a = try V.run(["accept", report, "--renderer", "--against", golden], in: dir)
    expectEqual(a.status, 0, "\(a.stderr)")
    try expectEqual(
      Data(contentsOf: URL(fileURLWithPath: golden + "/0s.png")),
      Data(contentsOf: URL(fileURLWithPath: report + "/0s/rerendered.png")))
    try expectEqual(SnapshotManifest.read(from: golden)?.renderer, RendererFingerprint.current)
    let after = try V.run(["verify", template, "--against", golden], in: dir)
    expectEqual(after.status, 0, "\(after.stderr)")
    #expect(!after.stderr.contains("drift"), "\(after.stderr)")
  }

  /// The renderer fingerprint is every golden's: a report of some frames is not a renderer update.
  @Test func aRendererUpdateReportMustCoverEveryGolden() throws {
    let dir = try V.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let template = try Self.makeTemplate(in: dir)
    let golden = dir + "/golden"
    try expectEqual(V.run(["snapshot", template, "--at", "0,end", "--out", golden], in: dir).status, 0)
    try Self.drift(golden + "/0s.png")
    try Self.fakeRendererChange(golden)
    let before = try CommitRollbackTests.contents(golden)
    let part = try V.run(["verify", template, "--against", golden, "--at", "0", "--report", dir + "/part"], in: dir)
    expectEqual(part.status, 0, "\(part.stderr)")
    let refused = try V.run(["accept", dir + "/part", "--renderer", "--against", golden], in: dir)
    expectEqual(refused.status, 2, "\(refused.stderr)")
    #expect(refused.stderr.contains("does not cover every golden (none for end.png)"), "\(refused.stderr)")
    try expectEqual(CommitRollbackTests.contents(golden), before)
    let whole = try V.run(["verify", template, "--against", golden, "--report", dir + "/whole"], in: dir)
    expectEqual(whole.status, 0, "\(whole.stderr)")
    try expectEqual(V.run(["accept", dir + "/whole", "--renderer", "--against", golden], in: dir).status, 0)
    let after = try V.run(["verify", template, "--against", golden], in: dir)
    expectEqual(after.status, 0, "\(after.stderr)")
  }

  /// The renderer a renderer update takes is the one the copied goldens carry, not the report's word.
  @Test func aRendererUpdateReportNamingAnotherRendererIsRefused() throws {
    let dir = try V.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let template = try Self.makeTemplate(in: dir)
    let golden = dir + "/golden", report = dir + "/report"
    try expectEqual(V.run(["snapshot", template, "--at", "0,end", "--out", golden], in: dir).status, 0)
    try Self.drift(golden + "/0s.png")
    try Self.fakeRendererChange(golden)
    let v = try V.run(["verify", template, "--against", golden, "--report", report], in: dir)
    expectEqual(v.status, 0, "\(v.stderr)")
    let path = report + "/summary.json"
    var json = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
    var renderer = try #require(json["renderer"] as? [String: Any])
    renderer["cairo"] = "9.9.9"
    json["renderer"] = renderer
    try JSONSerialization.data(withJSONObject: json).write(to: URL(fileURLWithPath: path))
    let before = try CommitRollbackTests.contents(golden)
    let a = try V.run(["accept", report, "--renderer", "--against", golden], in: dir)
    expectEqual(a.status, 2, "\(a.stderr)")
    #expect(a.stderr.contains("is not the one the report names"), "\(a.stderr)")
    try expectEqual(CommitRollbackTests.contents(golden), before)
  }
}
