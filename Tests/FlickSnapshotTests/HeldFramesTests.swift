import FlickExpectations
import FlickRaster
import FlickTestSupport
import Foundation
import Testing

@testable import FlickSnapshot

/// `flick snapshot`, `flick verify` across a renderer change and `flick accept --renderer` draw
/// every frame a list names and commit the goldens together at the end. They held every drawn
/// frame until then, while the up-front memory estimate (`--max-memory`) counts one: a long list
/// of modest frames passed the estimate and was stopped by the memory watch (exit 3). Each frame
/// now waits for the commit as a PNG file of a temporary folder, and a re-rendered golden is
/// drawn when its frame is compared, so a list of any length runs within the cap one frame fits.
@Suite struct HeldFramesTests {
  typealias V = VerifyCommandTests

  /// 1024 × 1024 frames (4 MiB each), 40 of them with `--at all`: 160 MiB held at once, where one
  /// frame's estimate is 92 MiB (and a run peaks at about 50 MiB; 75 MiB for verify's two workers).
  static let template =
    "{ flick: 1, canvas: { width: 1024, height: 1024, fps: 10, duration: 4 }, layers: [ { id: 'a', "
    + "size: [200, 200], position: [120, 120], backgroundColor: '#F97316' } ], timeline: [ { target: 'a', "
    + "property: 'position', to: [900, 900], at: 0, duration: 4 } ] }"

  /// The cap (over one frame's estimate, well under 40 frames: the watch stops a process at
  /// 192 − 48 MiB), and a temporary folder of the test's own (`TMPDIR`), to see what is left there.
  static func capped(_ dir: String) -> [String: String] { ["FLICK_MAX_MEMORY": "192M", "TMPDIR": dir + "/tmp"] }

  @Test func aLongListOfFramesRunsWithinTheCapOneFrameFits() throws {
    let dir = try V.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let template = dir + "/long.json5"
    try Self.template.write(toFile: template, atomically: true, encoding: .utf8)
    let golden = dir + "/golden"
    try FileManager.default.createDirectory(atPath: dir + "/tmp", withIntermediateDirectories: true)
    let s = try V.run(["snapshot", template, "--at", "all", "--out", golden], environment: Self.capped(dir), in: dir)
    expectEqual(s.status, 0, "snapshot: \(s.stderr)")
    let manifest = try #require(try SnapshotManifest.read(from: golden))
    expectEqual(manifest.frames.count, 40)
    let written = try manifest.frames.map { try Data(contentsOf: URL(fileURLWithPath: "\(golden)/\($0.file)")) }
    // Across a renderer change every golden is re-rendered from the stored inputs too.
    try RendererChangeTests.fakeRendererChange(golden)
    let v = try V.run(["verify", template, "--against", golden], environment: Self.capped(dir), in: dir)
    expectEqual(v.status, 0, "verify: \(v.stderr)")
    #expect(v.stderr.contains("re-rendering the goldens' stored inputs"), "\(v.stderr)")
    let a = try V.run(["accept", "--renderer", "--against", golden], environment: Self.capped(dir), in: dir)
    expectEqual(a.status, 0, "accept --renderer: \(a.stderr)")
    #expect(a.stderr.contains("40 goldens re-rendered"), "\(a.stderr)")
    // Re-rendered here from the same inputs: the goldens snapshot wrote, byte for byte.
    let rewritten = try manifest.frames.map { try Data(contentsOf: URL(fileURLWithPath: "\(golden)/\($0.file)")) }
    #expect(rewritten == written, "accept --renderer wrote other bytes than snapshot")
    // Nothing is left behind in the temporary folder (the spooled frames, the stored inputs).
    expectEqual(try FileManager.default.contentsOfDirectory(atPath: dir + "/tmp"), [])
  }

  /// A spooled golden is the PNG a frame commit writes, byte for byte; one that has gone from the
  /// temporary folder fails the commit naming the golden, and the goldens folder is as it was.
  @Test func aSpooledGoldenIsCommittedAsItsFrameAndAMissingOneChangesNothing() throws {
    let dir = try V.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let manifest = CommitRollbackTests.manifest(width: 4)
    var frame = Frame(width: 4, height: 4)
    frame.pixels[0] = 0xFF
    frame.pixels[3] = 0xFF
    try SnapshotCommit(
      directory: dir + "/direct", frames: [("0s.png", frame), ("end.png", frame)], manifest: manifest, previous: nil
    ).apply()
    let spool = try GoldenSpool()
    let files = try ["0s.png", "end.png"].map { (file: $0, content: try spool.add(frame, renderer: manifest.renderer)) }
    try SnapshotCommit(directory: dir + "/spooled", files: files, manifest: manifest, previous: nil).apply()
    for name in ["0s.png", "end.png", "manifest.json"] {
      expectEqual(
        try Data(contentsOf: URL(fileURLWithPath: "\(dir)/spooled/\(name)")),
        try Data(contentsOf: URL(fileURLWithPath: "\(dir)/direct/\(name)")), "\(name)")
    }
    // The spooled frame of end.png is gone: nothing is written.
    guard case .spooled(let path, _) = files[1].content else {
      Issue.record("not spooled")
      return
    }
    try FileManager.default.removeItem(atPath: path)
    let commit = try SnapshotCommit(directory: dir + "/later", files: files, manifest: manifest, previous: nil)
    #expect {
      try commit.apply()
    } throws: { error in
      "\(error)".contains("later/end.png") && "\(error)".contains("cannot be read")
    }
    expectEqual(try FileManager.default.contentsOfDirectory(atPath: dir + "/later"), [])
    spool.remove()
    #expect(!FileManager.default.fileExists(atPath: spool.folder))
  }
}
