import FlickExpectations
import FlickScene
import FlickTestSupport
import FlickVideo
import Foundation
import Testing

/// No output is written through a symbolic link, and no file Flick did not write is linked,
/// moved or copied into an output: a destination (file or PNG-sequence folder) that is a link
/// is refused with exit 2 naming it; temporaries are new files of Flick's own (a link planted
/// under a temporary's name is replaced, not followed); a sequence folder holding files Flick
/// did not write is updated in place, its other files left alone.
@Suite struct OutputLinkTests {
  static let scene = TestSupport.patchScene([.black], columns: 1, fps: 10, duration: 0.3)  // 3 frames

  struct Fixture {
    let root: URL
    let outside: URL
    let secret: URL
    init() throws {
      root = try TestSupport.temporaryDirectory()
      outside = root.appendingPathComponent("outside")
      try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: false)
      secret = outside.appendingPathComponent("id_rsa")
      try Data("-----BEGIN SECRET-----".utf8).write(to: secret)
    }
    func path(_ name: String) -> String { root.path + "/" + name }
    func secretIsUntouched() throws -> Bool {
      var info = stat()
      return try Data(contentsOf: secret) == Data("-----BEGIN SECRET-----".utf8)
        && lstat(secret.path, &info) == 0 && info.st_nlink == 1
        && (try FileManager.default.contentsOfDirectory(atPath: outside.path)) == ["id_rsa"]
    }
  }

  static func render(_ path: String, scene: Scene = scene) throws {
    try RenderSession(scene: scene, outputs: [try OutputTarget(path: path)]).run()
  }

  @Test func aSequenceFolderThatIsALinkIsRefused() throws {
    let f = try Fixture()
    defer { try? FileManager.default.removeItem(at: f.root) }
    try FileManager.default.createSymbolicLink(atPath: f.path("frames"), withDestinationPath: f.outside.path)
    for path in [f.path("frames/"), f.path("frames/%04d.png"), f.path("frames//")] {
      #expect(throws: VideoError.linkedOutput(path: f.path("frames"))) { try Self.render(path) }
    }
    #expect(try f.secretIsUntouched())
    try expectEqual(FileManager.default.contentsOfDirectory(atPath: f.root.path).sorted(), ["frames", "outside"])
  }

  @Test(arguments: ["a.mp4", "a.gif", "a.bgra"]) func aFileDestinationThatIsALinkIsRefused(_ name: String) throws {
    let f = try Fixture()
    defer { try? FileManager.default.removeItem(at: f.root) }
    try FileManager.default.createSymbolicLink(atPath: f.path(name), withDestinationPath: f.secret.path)
    #expect(throws: VideoError.linkedOutput(path: f.path(name))) { try Self.render(f.path(name)) }
    #expect(try f.secretIsUntouched())
    #expect(VideoError.linkedOutput(path: "x").isInvalidInput)
  }

  @Test func aLinkPlantedUnderATemporarysNameIsReplacedNotFollowed() throws {
    let f = try Fixture()
    defer { try? FileManager.default.removeItem(at: f.root) }
    let pid = getpid()
    // This process renders in-process: its PID names the temporaries.
    for name in [
      ".a.gif.\(pid).partial", ".a.gif.\(pid).frames", ".a.gif.\(pid).palette.pam", ".a.mp4.\(pid).partial",
      ".a.bgra.\(pid).partial", ".frames.\(pid).partial", ".t.gif.\(pid).palette.pam",
    ] {
      try FileManager.default.createSymbolicLink(atPath: f.path(name), withDestinationPath: f.secret.path)
    }
    for name in ["a.gif", "a.mp4", "a.bgra", "frames/"] { try Self.render(f.path(name)) }
    // Frames under 16 × 16 pixels: Flick's palette goes to ffmpeg as a PAM file.
    try Self.render(f.path("t.gif"), scene: TestSupport.patchScene([.black], columns: 1, patch: 8, fps: 10))
    #expect(try f.secretIsUntouched())
    let visible = try TestSupport.contents(f.root).filter { !$0.hasPrefix(".") }
    expectEqual(visible, ["a.bgra", "a.gif", "a.mp4", "frames", "outside", "t.gif"])
  }

  @Test func aSequenceFolderWithFilesFlickDidNotWriteIsUpdatedInPlaceWithoutLinkingThem() throws {
    let f = try Fixture()
    defer { try? FileManager.default.removeItem(at: f.root) }
    let frames = f.root.appendingPathComponent("frames")
    try Self.render(frames.path + "/")
    // Someone else's entries: a hard link and a symbolic link to the secret, listed in a forged
    // marker as if they were Flick's frames.
    link(f.secret.path, frames.path + "/0007.png")
    try FileManager.default.createSymbolicLink(atPath: frames.path + "/0008.png", withDestinationPath: f.secret.path)
    try (PNGSequenceWriter.markerHeaderForTests + "\n0000.png\n0001.png\n0002.png\n0005.png\n").write(
      to: frames.appendingPathComponent(".flick-sequence"), atomically: true, encoding: .utf8)
    var before = stat()
    lstat(frames.path, &before)
    try Self.render(frames.path + "/")
    var after = stat()
    lstat(frames.path, &after)
    expectEqual(before.st_ino, after.st_ino, "the folder was updated in place, not rebuilt")
    var info = stat()
    lstat(f.secret.path, &info)
    expectEqual(info.st_nlink, 2, "no new hard link to a file Flick did not write")
    try expectEqual(TestSupport.contents(frames), ["0000.png", "0001.png", "0002.png", "0007.png", "0008.png"])
    #expect(FileManager.default.fileExists(atPath: frames.path + "/.flick-sequence"))
    try expectEqual(Data(contentsOf: f.secret), Data("-----BEGIN SECRET-----".utf8))
  }

  @Test func aFolderOfFlicksOwnFramesIsStillRebuiltAsAWhole() throws {
    let f = try Fixture()
    defer { try? FileManager.default.removeItem(at: f.root) }
    let frames = f.root.appendingPathComponent("frames")
    var scene = Self.scene
    scene.duration = 0.6
    try Self.render(frames.path + "/", scene: scene)
    var before = stat()
    lstat(frames.path, &before)
    try Self.render(frames.path + "/")
    var after = stat()
    lstat(frames.path, &after)
    expectNotEqual(before.st_ino, after.st_ino, "swapped in whole")
    try expectEqual(TestSupport.contents(frames), ["0000.png", "0001.png", "0002.png"])
  }

  @Test func theSweepRemovesEveryKindOfTemporaryOfADeadRunAndNothingElse() throws {
    let f = try Fixture()
    defer { try? FileManager.default.removeItem(at: f.root) }
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/bin/true")
    try p.runUnblocked()
    p.waitUntilExit()
    let dead = p.processIdentifier
    let stale = [
      ".a.gif.\(dead).frames", ".a.gif.\(dead).partial", ".a.gif.\(dead).palette.bgra", ".a.gif.\(dead).palette.pam",
      ".a.gif.\(dead).palette.png",
      ".a.gif.part2.gif.\(dead).partial", ".a.gif.merged.gif.\(dead).partial", ".still.png.\(dead).tmp",
    ]
    let kept = [".a.gif.\(getpid()).frames", "notes.\(dead).frames", ".notes.txt.\(dead).frames", "keep.gif"]
    for name in stale + kept { try Data([1]).write(to: URL(fileURLWithPath: f.path(name))) }
    try FileManager.default.createSymbolicLink(
      atPath: f.path(".b.gif.\(dead).frames"), withDestinationPath: f.secret.path)
    Cleanup.removeStale(in: f.root.path)
    try expectEqual(TestSupport.contents(f.root).sorted(), (kept + ["outside"]).sorted())
    #expect(try f.secretIsUntouched())
  }
}
