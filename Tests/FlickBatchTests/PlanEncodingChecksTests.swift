import FlickExpectations
import FlickTestSupport
import Foundation
import Testing

/// `flick plan` refuses a job an output format refuses, as `flick render` and a worker do before
/// they draw (the same rules: an H.264 CRF outside 1…51, odd sides for an MP4 without `pad`, a
/// `gifFps` above the render's rate or one that keeps no frame), located at the manifest's key
/// and named by it, with exit 2 and no plan; `flick run` then never gets such a job.
@Suite struct PlanEncodingChecksTests {
  typealias F = BatchFixtures

  /// A folder holding the slide fixture (128×72 at 20 fps, 40 frames) as `t.json5` and a
  /// manifest `batch.json5` with one render of `render` (its second line).
  static func folder(render: String) throws -> URL {
    let dir = try ProcessRunner.temporaryDirectory(prefix: "flick-plan-encoding")
    try FileManager.default.copyItem(
      at: F.fixtures.appendingPathComponent("slide.json5"), to: dir.appendingPathComponent("t.json5"))
    try "{ flick: 1, output: \"out\", renders: [\n  { template: \"t.json5\", \(render) },\n] }\n".write(
      to: dir.appendingPathComponent("batch.json5"), atomically: true, encoding: .utf8)
    return dir
  }

  @Test func planRefusesWhatAnEncoderRefusesAtTheManifestKey() throws {
    let cases: [(render: String, says: String)] = [
      (
        #"formats: ["mp4"], encoding: { crf: 0 }"#,
        ":2:61: renders[0].encoding.crf: the mp4 output of 'slide' at 128×72: encoding.crf 0 is outside 1…51 for H.264"
      ),
      (
        #"formats: ["mp4", "gif"], encoding: { crf: 52 }"#,
        ":2:68: renders[0].encoding.crf: the mp4 output of 'slide' at 128×72: encoding.crf 52 is outside 1…51"
      ),
      (
        #"sizes: ["129x73"], formats: ["mp4"]"#,
        ":2:34: renders[0].sizes[0]: the mp4 output of 'slide' at 129×73 pixels: H.264 in yuv420p needs even "
          + "sides; use the size \"132x74\" (the smallest even size from this width that keeps the canvas's "
          + "aspect ratio) or set encoding.pad: true to pad to 130x74"
      ),
      (
        #"formats: ["gif"], encoding: { gifFps: 25 }"#,
        ":2:64: renders[0].encoding.gifFps: the gif output of 'slide' at 128×72: encoding.gifFps 25 is above the "
          + "render's 20 fps"
      ),
    ]
    for c in cases {
      let dir = try Self.folder(render: c.render)
      defer { try? FileManager.default.removeItem(at: dir) }
      let r = try F.flick(["plan", "batch.json5", "-o", "plan.json"], in: dir)
      expectEqual(r.status, 2, "\(c.render): exit \(r.status): \(r.stderr)")
      #expect(r.stderr.hasPrefix("flick: batch.json5\(c.says)"), "\(c.render): \(r.stderr)")
      #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("plan.json").path))
    }
  }

  /// What the encoders take is planned as before: an even size, a CRF in range, `pad` for odd
  /// sides, a GIF rate at or under the render's.
  @Test func planAcceptsWhatTheEncodersTake() throws {
    for render in [
      #"formats: ["mp4", "webm"], encoding: { crf: 51 }"#, #"formats: ["webm"], encoding: { crf: 0 }"#,
      #"sizes: ["129x73"], formats: ["mp4"], encoding: { pad: true }"#,
      #"formats: ["gif"], encoding: { gifFps: 10, crf: 0 }"#,
    ] {
      let dir = try Self.folder(render: render)
      defer { try? FileManager.default.removeItem(at: dir) }
      let r = try F.flick(["plan", "batch.json5", "-o", "plan.json"], in: dir)
      expectEqual(r.status, 0, "\(render): \(r.stderr)")
    }
  }
}
