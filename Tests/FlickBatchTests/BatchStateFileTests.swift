import FlickExpectations
import FlickTestSupport
import Foundation
import Testing

/// What a batch writes and reads in its output folder: it never writes over a file the batch
/// reads, reads its stamps and reports only as small regular files (never through a link), and
/// prints what a report says escaped.
@Suite struct BatchStateFileTests {
  typealias F = BatchFixtures

  /// A 16×16 PNG.
  static let png = Data(
    base64Encoded:
      "iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAYAAAAf8/9hAAAAHUlEQVR4nGNgOMHwHy9m+N+AH48aMGrAqAHDxAAAYPyjEK6qu04AAAAASUVORK5CYII="
  )!

  /// A folder with `slide.json5`, planned as `plan.json` from `manifest` and run once.
  static func rendered() throws -> URL {
    let dir = try ProcessRunner.temporaryDirectory(prefix: "flick-state")
    try FileManager.default.copyItem(
      at: F.fixtures.appendingPathComponent("slide.json5"), to: dir.appendingPathComponent("slide.json5"))
    try ManifestConfinementTests.manifest().write(
      to: dir.appendingPathComponent("batch.json5"), atomically: true, encoding: .utf8)
    expectEqual(try F.flick(["plan", "batch.json5", "-o", "plan.json"], in: dir).status, 0)
    let run = try F.flick(["run", "plan.json", "-q"], in: dir, environment: F.cleanEnvironment)
    expectEqual(run.status, 0, "\(run.stderr)")
    return dir
  }

  /// A render named after its own template, or a PNG sequence over a picture its template
  /// draws, is refused by `plan` (and so by `run`, which plans again), and nothing is replaced.
  @Test func noOutputReplacesAFileTheBatchReads() throws {
    let dir = try ProcessRunner.temporaryDirectory(prefix: "flick-inputs")
    defer { try? FileManager.default.removeItem(at: dir) }
    let fm = FileManager.default
    try fm.createDirectory(at: dir.appendingPathComponent("t/default/64x64"), withIntermediateDirectories: true)
    let template = dir.appendingPathComponent("t/default/64x64.gif")
    try """
    { flick: 1, canvas: { width: 64, height: 64, duration: 1, fps: 2 },
      layers: [ { id: "a", size: [32,32], position: [32,32], backgroundColor: "#F97316" } ] }
    """.write(to: template, atomically: true, encoding: .utf8)
    try """
    { flick: 1, canvas: { width: 64, height: 64, duration: 1, fps: 2 },
      layers: [ { id: "a", size: [32,32], position: [32,32], contents: "t/default/64x64/0000.png" } ] }
    """.write(to: dir.appendingPathComponent("tpl.json5"), atomically: true, encoding: .utf8)
    let picture = dir.appendingPathComponent("t/default/64x64/0000.png")
    try Self.png.write(to: picture)
    // The template's own path: `output: "."` and the name `t`, as a GIF.
    try #"{ flick: 1, output: ".", renders: [ { template: "t/default/64x64.gif", name: "t", formats: ["gif"] } ] }"#
      .write(to: dir.appendingPathComponent("own.json5"), atomically: true, encoding: .utf8)
    // The picture's folder, as a PNG sequence.
    try #"{ flick: 1, output: ".", renders: [ { template: "tpl.json5", name: "t", formats: ["png"] } ] }"#
      .write(to: dir.appendingPathComponent("asset.json5"), atomically: true, encoding: .utf8)
    let before = try Data(contentsOf: template)
    for manifest in ["own.json5", "asset.json5"] {
      let r = try F.flick(["plan", manifest, "-o", "plan.json"], in: dir)
      expectEqual(r.status, 2, "\(manifest): \(r.stderr)")
      #expect(r.stderr.contains("which the render reads"), "\(manifest): \(r.stderr)")
      #expect(!fm.fileExists(atPath: dir.appendingPathComponent("plan.json").path), "\(manifest)")
    }
    expectEqual(try Data(contentsOf: template), before)
    expectEqual(try Data(contentsOf: picture), Self.png)
  }

  /// A stamp that is a link (to a file elsewhere holding the job's id), or a regular file over the
  /// cap (the id and padding), is not read: the job is not up to date, and `run` renders it again,
  /// replacing the link with a stamp of its own and leaving the file it pointed to alone.
  @Test func aStampIsReadOnlyAsASmallRegularFile() throws {
    let dir = try Self.rendered()
    defer { try? FileManager.default.removeItem(at: dir) }
    let stamp = dir.appendingPathComponent("out/slide/default/.128x72.flick-stamp")
    let id = try String(contentsOf: stamp, encoding: .utf8)
    expectEqual(try F.flick(["status", "plan.json"], in: dir).status, 0)
    let elsewhere = try ProcessRunner.temporaryDirectory(prefix: "flick-elsewhere")
    defer { try? FileManager.default.removeItem(at: elsewhere) }
    let target = elsewhere.appendingPathComponent("stamp")
    try id.write(to: target, atomically: true, encoding: .utf8)
    try FileManager.default.removeItem(at: stamp)
    try FileManager.default.createSymbolicLink(atPath: stamp.path, withDestinationPath: target.path)
    let linked = try F.flick(["status", "plan.json", "--jobs"], in: dir)
    expectEqual(linked.status, 1, "\(linked.text) \(linked.stderr)")
    #expect(linked.text.contains("missing"), "\(linked.text)")
    let run = try F.flick(["run", "plan.json", "-q"], in: dir, environment: F.cleanEnvironment)
    expectEqual(run.status, 0, "\(run.stderr)")
    let attributes = try FileManager.default.attributesOfItem(atPath: stamp.path)
    expectEqual(attributes[.type] as? FileAttributeType, .typeRegular)
    expectEqual(try String(contentsOf: target, encoding: .utf8), id)
    try (id + String(repeating: " ", count: 4096)).write(to: stamp, atomically: true, encoding: .utf8)
    let padded = try F.flick(["status", "plan.json", "--jobs"], in: dir)
    expectEqual(padded.status, 1, "\(padded.text) \(padded.stderr)")
  }

  /// A report that is a link is skipped, not read through.
  @Test func aLinkedReportIsSkipped() throws {
    let dir = try Self.rendered()
    defer { try? FileManager.default.removeItem(at: dir) }
    let reports = dir.appendingPathComponent("out/.flick/reports")
    let elsewhere = try ProcessRunner.temporaryDirectory(prefix: "flick-elsewhere")
    defer { try? FileManager.default.removeItem(at: elsewhere) }
    try FileManager.default.copyItem(
      at: reports.appendingPathComponent("run.json"), to: elsewhere.appendingPathComponent("r.json"))
    try FileManager.default.createSymbolicLink(
      atPath: reports.appendingPathComponent("zz.json").path, withDestinationPath: elsewhere.path + "/r.json")
    let r = try F.flick(["status", "plan.json"], in: dir)
    #expect(r.stderr.contains("skipped a report"), "\(r.stderr)")
    #expect(r.stderr.contains("symbolic link"), "\(r.stderr)")
  }

  /// Every field of a report that `status` prints is escaped: a shard with a terminal control.
  @Test func statusEscapesWhatAReportSays() throws {
    let dir = try Self.rendered()
    defer { try? FileManager.default.removeItem(at: dir) }
    let reports = dir.appendingPathComponent("out/.flick/reports")
    let data = try Data(contentsOf: reports.appendingPathComponent("run.json"))
    var report = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    report["shard"] = "1/2\u{1B}[31mRED"
    var jobs = try #require(report["jobs"] as? [[String: Any]])
    jobs[0]["status"] = "failed"
    jobs[0]["error"] = "bad\u{1B}[2J"
    report["jobs"] = jobs
    try JSONSerialization.data(withJSONObject: report).write(to: reports.appendingPathComponent("zz.json"))
    let r = try F.flick(["status", "plan.json", "--jobs"], in: dir)
    #expect(r.text.contains("shard 1/2"), "\(r.text) \(r.stderr)")
    #expect(!r.text.contains("\u{1B}") && !r.stderr.contains("\u{1B}"), "\(r.text)")
  }
}
