import FlickExpectations
import FlickTestSupport
import FlickVideo
import Foundation
import Testing

/// The gallery's video posters (`flick status --html`): the output tree and the folder beside the
/// page may come from other machines, so a poster is never written through a planted link, and
/// only the planned video's own first frame becomes one.
@Suite struct GalleryPosterTests {
  typealias F = BatchFixtures

  static let manifest = """
    { flick: 1, output: "out", renders: [ { template: "slide.json5", name: "clip", frames: [24, 29], formats: ["mp4"] } ] }
    """

  /// Six frames of ffmpeg's test picture at `size` (`WxH`), as H.264 in `file`.
  static func clip(_ size: String, to file: URL) throws {
    let made = try ProcessRunner.run(
      "/usr/bin/ffmpeg",
      [
        "-hide_banner", "-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=\(size):rate=30",
        "-frames:v", "6", "-c:v", "libx264", "-pix_fmt", "yuv420p", file.path,
      ])
    expectEqual(made.status, 0, "\(made.stderr)")
  }

  @Test func postersAreNewFilesOfThePlannedVideoOnly() throws {
    let dir = try ChunkEqualityTests.workspace(Self.manifest)
    defer { try? FileManager.default.removeItem(at: dir) }
    let fm = FileManager.default
    let plan = try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("plan.json")))
    let id = try #require(((plan as? [String: Any])?["jobs"] as? [[String: Any]])?.first?["id"] as? String)
    let page = dir.appendingPathComponent("site/index.html")
    let posters = dir.appendingPathComponent("site/index.html.posters")
    let poster = posters.appendingPathComponent("\(id.prefix(16)).png")
    let outside = dir.appendingPathComponent("outside")
    try fm.createDirectory(at: outside.appendingPathComponent("posters"), withIntermediateDirectories: true)
    let victim = outside.appendingPathComponent("victim.txt")
    try Data("victim".utf8).write(to: victim)
    func gallery() throws -> (status: Int32, page: String) {
      let r = try F.flick(["status", "plan.json", "--html", page.path], in: dir, environment: F.cleanEnvironment)
      return (r.status, (try? String(contentsOf: page, encoding: .utf8)) ?? "")
    }
    let shown = "poster=\"index.html.posters/\(id.prefix(16)).png\""

    // The first frame of the clip, as a PNG of its size.
    var made = try gallery()
    expectEqual(made.status, 0)
    #expect(made.page.contains(shown), "\(made.page)")
    let png = try PNGFile(path: poster.path)
    expectEqual(png.width, 128)
    expectEqual(png.height, 72)

    // A link planted under the poster's name is replaced, its target untouched.
    try fm.removeItem(at: poster)
    try fm.createSymbolicLink(at: poster, withDestinationURL: victim)
    made = try gallery()
    expectEqual(made.status, 0)
    #expect(made.page.contains(shown))
    #expect(!OutputEntry.isLink(poster.path))
    try expectEqual(String(contentsOf: victim, encoding: .utf8), "victim")

    // The posters folder planted as a link: nothing is written through it, no poster is shown.
    try fm.removeItem(at: posters)
    try fm.createSymbolicLink(at: posters, withDestinationURL: outside.appendingPathComponent("posters"))
    made = try gallery()
    expectEqual(made.status, 0)
    #expect(!made.page.contains("poster="), "\(made.page)")
    try expectEqual(fm.contentsOfDirectory(atPath: outside.appendingPathComponent("posters").path), [])
    try fm.removeItem(at: posters)

    // A video larger than the planned frames is not decoded for a poster.
    let video = dir.appendingPathComponent("out/clip/default/128x72.mp4")
    try Self.clip("256x144", to: video)
    made = try gallery()
    expectEqual(made.status, 0)
    #expect(!made.page.contains("poster="), "\(made.page)")
    #expect(!fm.fileExists(atPath: poster.path))

    // A video that is an ffconcat list naming a clip outside the output tree (of the planned
    // size): it is read as the planned MP4, not as the list, so no poster is made of the clip.
    let clip = outside.appendingPathComponent("clip.mp4")
    try Self.clip("128x72", to: clip)
    // (A name beside the list, linked out: the list's own reader refuses absolute names.)
    let beside = video.deletingLastPathComponent().appendingPathComponent("s.mp4")
    try fm.createSymbolicLink(at: beside, withDestinationURL: clip)
    try Data("ffconcat version 1.0\nfile s.mp4\n".utf8).write(to: video)
    made = try gallery()
    expectEqual(made.status, 0)
    #expect(!made.page.contains("poster="), "\(made.page)")
    #expect(!fm.fileExists(atPath: poster.path))
  }
}
