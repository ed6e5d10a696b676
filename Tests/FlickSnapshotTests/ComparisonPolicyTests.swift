import FlickExpectations
import FlickMotion
import FlickRaster
import FlickScene
import FlickTestSupport
import FlickTesting
import Foundation
import Testing

@testable import FlickSnapshot

/// Tolerance follows determinism: exact against goldens of this renderer, perceptual (and saying
/// so) against goldens of another; never a silent pass or write; truthful reports.
@Suite struct ComparisonPolicyTests {
  typealias V = VerifyCommandTests

  /// Another renderer: this one with a different Cairo.
  static let otherRenderer: RendererFingerprint = {
    var r = RendererFingerprint.current
    r.cairo = "0.0.1-other"
    return r
  }()

  static func card(_ color: Color) -> Frame {
    var card = Layer(id: "card")
    card.bounds = Rect(x: 0, y: 0, width: 20, height: 20)
    card.position = Point(x: 16, y: 16)
    card.backgroundColor = color
    card.cornerRadius = 4
    let scene = Scene(size: Size(width: 48, height: 32), fps: 10, duration: 1, backgroundColor: .white, layers: [card])
    return try! Renderer().render(scene.renderTree(at: 0))
  }

  /// `frame` with channel `channel` of pixel (x, y) one level higher.
  static func nudged(_ frame: Frame, x: Int = 16, y: Int = 16, channel: Int = 1) -> Frame {
    var f = frame
    f.pixels[y * f.bytesPerRow + x * 4 + channel] &+= 1
    return f
  }

  static func temporaryPNG(_ frame: Frame, renderer: RendererFingerprint) throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("flick-pol-\(UUID().uuidString).png").path
    try PNGFile.write(frame, to: path, renderer: renderer)
    return path
  }

  @Test func aOneLevelChangeOfOnePixelFailsAgainstGoldensOfThisRenderer() throws {
    let golden = Self.card(Color(red: 0.2, green: 0.8, blue: 0.35))
    let path = try Self.temporaryPNG(golden, renderer: .current)
    defer { unlink(path) }
    let comparator = ImageComparator()
    #expect(try comparator.compare(expectedFile: path, actual: golden).passed)
    let r = try comparator.compare(expectedFile: path, actual: Self.nudged(golden))
    #expect(!r.passed)
    #expect(r.exact)
    expectEqual(r.differingPixels, 1)
    expectEqual(r.boundingBox, PixelRegion(x: 16, y: 16, width: 1, height: 1))
    // The perceptual analysis still describes it: below the threshold.
    expectEqual(r.perceptualPixels, 0)
    expectEqual(r.subtlePixels, 1)
    #expect(r.summary.contains("1 below the threshold"), "\(r.summary)")
    #expect(r.summary.contains("same renderer"), "\(r.summary)")
  }

  @Test func theSameChangePassesWithAReasonAgainstGoldensOfAnotherRenderer() throws {
    let golden = Self.card(Color(red: 0.2, green: 0.8, blue: 0.35))
    let path = try Self.temporaryPNG(golden, renderer: Self.otherRenderer)
    defer { unlink(path) }
    let r = try ImageComparator().compare(expectedFile: path, actual: Self.nudged(golden))
    #expect(r.passed)
    #expect(!r.exact)
    expectEqual(r.verdict, .withinTolerance)
    #expect(r.modeReason.contains("perceptual comparison"), "\(r.modeReason)")
    #expect(r.modeReason.contains("cairo 0.0.1-other"), "\(r.modeReason)")
    #expect(r.summary.contains("within tolerance"), "\(r.summary)")
    // A real recolour (#30D158 → #34C759) still fails perceptually.
    let recoloured = Self.card(Color(red: 0x34 / 255.0, green: 0xC7 / 255.0, blue: 0x59 / 255.0))
    let before = try Self.temporaryPNG(
      Self.card(Color(red: 0x30 / 255.0, green: 0xD1 / 255.0, blue: 0x58 / 255.0)), renderer: .current)
    defer { unlink(before) }
    let exact = try ImageComparator().compare(expectedFile: before, actual: recoloured)
    #expect(!exact.passed, "\(exact.summary)")
    expectGreater(exact.differingPixels, 300, "\(exact.summary)")
    // Forcing either mode works whatever the fingerprints.
    #expect(try !ImageComparator(options: .exact).compare(expectedFile: path, actual: Self.nudged(golden)).passed)
    #expect(
      try ImageComparator(options: .perceptual).compare(
        expectedFile: before,
        actual: Self.nudged(Self.card(Color(red: 0x30 / 255.0, green: 0xD1 / 255.0, blue: 0x58 / 255.0)))
      ).passed)
  }

  @Test func aDimTranslucentRecolourIsCaughtExactly() throws {
    // A half-transparent, dim strip changes colour: below the perceptual threshold, caught exactly.
    func strip(_ c: Color) -> Frame {
      var layer = Layer(id: "strip")
      layer.bounds = Rect(x: 0, y: 0, width: 40, height: 6)
      layer.position = Point(x: 24, y: 16)
      layer.backgroundColor = c
      let scene = Scene(size: Size(width: 48, height: 32), duration: 1, backgroundColor: .clear, layers: [layer])
      return try! Renderer().render(scene.renderTree(at: 0))
    }
    let a = strip(Color(red: 0.10, green: 0.10, blue: 0.12, alpha: 0.3))
    let b = strip(Color(red: 0.12, green: 0.10, blue: 0.10, alpha: 0.3))
    let path = try Self.temporaryPNG(a, renderer: .current)
    defer { unlink(path) }
    let r = try ImageComparator().compare(expectedFile: path, actual: b)
    #expect(!r.passed, "\(r.summary)")
    expectEqual(r.differingPixels, 240, "\(r.summary)")
    try expectLess(ImageComparator(options: .perceptual).compare(expectedFile: path, actual: b).differingPixels, 240)
  }

  @Test func translucentPixelsAreComparedAsStraightAlphaLikePixelmatch() {
    // pixelmatch 7: dr = (r1·a1 − r2·a2 − bg·Δa) / 255 on straight values.
    let w1: UInt32 = 0x80C8_0000 | 40 << 8 | 90  // r 200, g 40, b 90, a 128
    let w2: UInt32 = 0x80C9_0000 | 40 << 8 | 90  // r 201
    let dr = (200.0 * 128 - 201.0 * 128) / 255
    let y = dr * 0.29889531, i = dr * 0.59597799, q = dr * 0.21147017
    let expected = 0.5053 * y * y + 0.299 * i * i + 0.1957 * q * q
    expectLess(abs(abs(ColorDelta.yiq(w1, w2, k: 0)) - expected), 1e-9)
    // Alpha differs: the background (48 or 207 per channel at k) shows through.
    let w3: UInt32 = 0x40C8_0000 | 40 << 8 | 90
    let bg = ColorDelta.background(8)
    let dr2 = (200.0 * 128 - 200.0 * 64 - bg.r * 64) / 255
    let dg2 = (40.0 * 128 - 40.0 * 64 - bg.g * 64) / 255
    let db2 = (90.0 * 128 - 90.0 * 64 - bg.b * 64) / 255
    let y2 = dr2 * 0.29889531 + dg2 * 0.58662247 + db2 * 0.11448223
    expectLess(abs(ColorDelta.luma(w1, w3, k: 8) - y2), 1e-9)
    // Two fully transparent pixels are equal whatever their colour bytes.
    expectEqual(ColorDelta.yiq(0x0000_00FF, 0x00FF_0000, k: 0), 0)
  }

  // MARK: - CLI

  @Test func verifyIsExactWithTheSameFingerprintAndSaysWhenItIsNot() throws {
    let dir = try V.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let golden = dir + "/golden", report = dir + "/report"
    try expectEqual(V.run(["snapshot", V.twoCards, "--at", "0", "--out", golden]).status, 0)
    // One level of one channel of one pixel in the golden.
    let image = try PNGImage(contentsOf: golden + "/0s.png")
    try PNGFile.write(Self.nudged(image.frame, x: 10, y: 10), to: golden + "/0s.png")
    let v = try V.run(["verify", V.twoCards, "--against", golden, "--report", report])
    expectEqual(v.status, 1, "\(v.stderr)")
    #expect(v.stderr.contains("1 pixel differs"), "\(v.stderr)")
    #expect(v.stderr.contains("exact comparison: both sides come from the same renderer"))
    let summary = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report + "/summary.json")))
        as? [String: Any])
    let frame = try #require((summary["frames"] as? [[String: Any]])?.first)
    #expect(frame["status"] as? String == "changed" && frame["comparison"] as? String == "exact")
    // The manifest says another renderer drew the goldens, which store their inputs: the inputs
    // are re-rendered and compared exactly; the nudged pixel is the renderer's drift, reported apart.
    let path = golden + "/manifest.json"
    func fakeRenderer(dropInputs: Bool) throws {
      var json = try #require(
        try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
      var renderer = json["renderer"] as! [String: Any]
      renderer["cairo"] = "0.0.1-other"
      json["renderer"] = renderer
      if dropInputs { json["inputs"] = nil }
      try JSONSerialization.data(withJSONObject: json).write(to: URL(fileURLWithPath: path))
      // The golden's own chunk says the same (a manifest alone is refused: the PNG says who drew it).
      var other = RendererFingerprint.current
      other.cairo = "0.0.1-other"
      try PNGFile.write(try PNGImage(contentsOf: golden + "/0s.png").frame, to: golden + "/0s.png", renderer: other)
    }
    try fakeRenderer(dropInputs: false)
    let r = try V.run(["verify", V.twoCards, "--against", golden, "--report", report])
    expectEqual(r.status, 0, "\(r.stderr)")
    #expect(r.stderr.contains("re-rendering the goldens' stored inputs"), "\(r.stderr)")
    #expect(r.stderr.contains("renderer drift: 1 pixels"), "\(r.stderr)")
    let s1 = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report + "/summary.json")))
        as? [String: Any])
    let f1 = try #require((s1["frames"] as? [[String: Any]])?.first)
    #expect(f1["status"] as? String == "match" && f1["comparison"] as? String == "exact")
    expectEqual((f1["rendererDrift"] as? [String: Any])?["differingPixels"] as? Int, 1)
    // Old goldens (no inputs): perceptual, and said loudly.
    try fakeRenderer(dropInputs: true)
    let p = try V.run(["verify", V.twoCards, "--against", golden, "--report", report])
    expectEqual(p.status, 0, "\(p.stderr)")
    #expect(
      p.stderr.contains("perceptual comparison: the golden comes from another renderer (cairo 0.0.1-other"),
      "\(p.stderr)")
    #expect(p.stderr.contains("WARNING: these goldens store no inputs"), "\(p.stderr)")
    let s2 = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report + "/summary.json")))
        as? [String: Any])
    let f2 = try #require((s2["frames"] as? [[String: Any]])?.first)
    #expect(f2["status"] as? String == "match" && f2["comparison"] as? String == "perceptual")
    expectEqual((f2["comparisonReason"] as? String)?.contains("another renderer"), true)
    // --exact overrides.
    try expectEqual(V.run(["verify", V.twoCards, "--against", golden, "--exact"], in: dir).status, 1)
  }

  @Test func everyUndecodableGoldenIsExit3InDiffAndVerify() throws {
    let dir = try V.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let golden = dir + "/golden"
    try expectEqual(V.run(["snapshot", V.twoCards, "--at", "0", "--out", golden]).status, 0)
    let good = dir + "/good.png"
    try FileManager.default.copyItem(atPath: golden + "/0s.png", toPath: good)
    for (name, bytes) in PNGDecodingTests.undecodable() {
      let bad = dir + "/bad.png"
      try Data(bytes).write(to: URL(fileURLWithPath: bad))
      let same = try V.run(["diff", bad, bad])
      expectEqual(same.status, 3, "\(name): \(same.stderr)")
      #expect(same.stderr.contains("unreadable"), "\(name): \(same.stderr)")
      try expectEqual(V.run(["diff", good, bad]).status, 3, "\(name)")
      try expectEqual(V.run(["diff", bad, good]).status, 3, "\(name)")
      try Data(bytes).write(to: URL(fileURLWithPath: golden + "/0s.png"))
      let v = try V.run(["verify", V.twoCards, "--against", golden], in: dir)
      expectEqual(v.status, 3, "\(name): \(v.stderr)")
      #expect(v.stderr.contains("unreadable"), "\(name): \(v.stderr)")
      #expect(!v.stderr.contains("cannot read image \(golden)/0s.png: cannot read image"))
    }
    // The limit (which refuses the 20000² header) can be lowered by option or environment.
    let lowered = try V.run(["diff", good, good, "--max-image-pixels", "1000"])
    expectEqual(lowered.status, 3, "\(lowered.stderr)")
    #expect(lowered.stderr.contains("decode limit of 1000"), "\(lowered.stderr)")
    let env = try V.run(["diff", good, good], environment: [DecodeLimits.pixelsVariable: "1000"])
    expectEqual(env.status, 3)
    try expectEqual(V.run(["diff", good, good, "--max-image-pixels", "lots"]).status, 2)
  }

  @Test func anUndecodableGoldenFailsAssertFrameSnapshot() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("flick-assert-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: dir) }
    var card = Layer(id: "c")
    card.bounds = Rect(x: 0, y: 0, width: 10, height: 10)
    card.position = Point(x: 8, y: 8)
    card.backgroundColor = .black
    let scene = Scene(size: Size(width: 16, height: 16), fps: 10, duration: 1, backgroundColor: .white, layers: [card])
    for (name, bytes) in PNGDecodingTests.undecodable() {
      try Data(bytes).write(to: URL(fileURLWithPath: dir + "/u.0s.png"))
      var v: [FrameVerdict] = []
      withKnownIssue {
        v = assertFrameSnapshot(
          of: scene, at: [.seconds(0)], named: "u", record: RecordMode.none, snapshotDirectory: dir)
      }
      expectEqual(v.first?.status, .unreadable, "\(name)")
    }
  }

  @Test func recordRunsAlwaysFailSayingWhatWasRecorded() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("flick-assert-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let scene = AssertFrameSnapshotTests.scene(card: Color(red: 1, green: 0.5, blue: 0))
    withKnownIssue { assertFrameSnapshot(of: scene, at: [.end], named: "r", record: .missing, snapshotDirectory: dir) }
    for mode in [RecordMode.all, .failed] {
      var v: [FrameVerdict] = []
      let changed = mode == .failed ? AssertFrameSnapshotTests.scene(card: .black) : scene
      withKnownIssue {
        v = assertFrameSnapshot(of: changed, at: [.end], named: "r", record: mode, snapshotDirectory: dir)
      } matching: { issue in
        issue.comments.contains {
          $0.rawValue.contains("re-recorded") && $0.rawValue.contains("re-run without recording to verify it")
        }
      }
      expectEqual(v.first?.status, .recorded, "\(mode)")
    }
    // The golden now holds the written frame, with this renderer's fingerprint.
    try expectEqual(PNGImage(contentsOf: dir + "/r.end.png").renderer, RendererFingerprint.current)
    let ok = assertFrameSnapshot(
      of: AssertFrameSnapshotTests.scene(card: .black), at: [.end], named: "r", record: RecordMode.none,
      snapshotDirectory: dir)
    expectEqual(ok.first?.status, .match)
  }

  // MARK: - Reports

  @Test func reportsAreTruthful() throws {
    let dir = try V.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let a = dir + "/a", b = dir + "/b", report = dir + "/report"
    try expectEqual(V.run(["snapshot", V.twoCards, "--at", "0,end", "--out", a]).status, 0)
    try expectEqual(
      V.run([
        "snapshot", V.twoCards, "--at", "0,frame:3", "--scale", "0.5", "--out", b, "--set", "rightColor=#3B82F6",
      ]).status, 0)
    try FileManager.default.copyItem(atPath: a + "/end.png", toPath: b + "/end.png")
    try Data("junk".utf8).write(to: URL(fileURLWithPath: b + "/junk.png"))
    try Data("junk".utf8).write(to: URL(fileURLWithPath: a + "/junk.png"))
    let d = try V.run(["diff", a, b, "--report", report])
    expectEqual(d.status, 3, "\(d.stderr)")
    let summary = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report + "/summary.json")))
        as? [String: Any])
    expectEqual(summary["passed"] as? Bool, false)
    let counts = try #require(summary["counts"] as? [String: Int])
    expectEqual(
      counts,
      [
        "match": 1, "changed": 0, "sizeMismatch": 1, "missing": 1, "unreadable": 1, "recorded": 0, "error": 0,
        "unlisted": 0,
      ], "\(counts)")
    let frames = try #require(summary["frames"] as? [[String: Any]])
    let mismatch = try #require(frames.first { $0["status"] as? String == "sizeMismatch" })
    #expect(mismatch["differingPixels"] == nil, "a size mismatch compares no pixel")
    expectEqual((mismatch["actualSize"] as? [String: Int])?["width"], 160)
    // Times as written, links readable on the dark page, failing frames folded.
    expectEqual(SnapshotReport.secondsText(6.166666666666667), "6.17 s")
    expectEqual(SnapshotReport.secondsText(2), "2 s")
    let html = try String(contentsOfFile: report + "/index.html", encoding: .utf8)
    #expect(html.contains("a{color:#93c5fd}"))
    #expect(html.contains("<details>"))
    #expect(html.contains(RendererFingerprint.current.description))
  }

  @Test func theSideBySideIsLabelledAndTheZoomEnlargesTheChange() throws {
    let a = Self.card(Color(red: 0.2, green: 0.8, blue: 0.35))
    let b = Self.nudged(a, x: 16, y: 16, channel: 2)
    let c = ImageComparator().compare(a, b)
    let diff = try #require(DiffRenderer.diffImage(expected: a, comparison: c))
    let side = DiffRenderer.sideBySide(expected: a, actual: b, diff: diff)
    // Three panels and a label band above them, with white label text in it.
    expectEqual(side.width, 8 + 3 * (48 + 8))
    expectEqual(side.height, 32 + 16 + 20)
    let band = (0..<side.width).contains { x in (4..<22).contains { y in side.rgba(x: x, y: y).r > 200 } }
    #expect(band, "labels are drawn")
    let box = try #require(c.boundingBox)
    let zoom = try #require(DiffRenderer.zoom(expected: a, actual: b, diff: diff, around: box))
    expectGreaterOrEqual(zoom.width, 3 * 24 * 4, "at least 4× a 24-pixel crop per panel")
    // The single changed pixel is blue (below the threshold, counted exactly) in the diff.
    let p = diff.rgba(x: 16, y: 16)
    expectEqual(p.b, 255)
    expectEqual(p.r, 0)
  }
}
