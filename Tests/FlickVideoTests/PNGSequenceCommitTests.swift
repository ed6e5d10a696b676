import FlickExpectations
import FlickMotion
import FlickScene
import FlickTestSupport
import FlickVideo
import Foundation
import Testing

/// A PNG sequence goes into place as a whole; a shorter render removes the stale frames of a
/// longer one only where the folder's marker shows Flick wrote them; other files are kept.
@Suite struct PNGSequenceCommitTests {
  static let scene = TestSupport.patchScene([.black], columns: 1, fps: 10, duration: 0.6)  // 6 frames

  static func render(_ path: String, frames: Range<Int>? = nil, duration: Double = 0.6) throws {
    var scene = Self.scene
    scene.duration = duration
    let session = RenderSession(scene: scene, outputs: [try OutputTarget(path: path)], frames: frames)
    try session.run()
  }

  static func names(_ dir: URL) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).sorted()
  }

  @Test func aShorterRenderRemovesStaleFlickFramesAndKeepsOtherFiles() throws {
    let root = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: root) }
    let frames = root.appendingPathComponent("frames")
    try Self.render(frames.path + "/")
    expectEqual(
      Self.names(frames), [".flick-sequence", "0000.png", "0001.png", "0002.png", "0003.png", "0004.png", "0005.png"])
    try Data("mine".utf8).write(to: frames.appendingPathComponent("notes.txt"))
    try Data("mine".utf8).write(to: frames.appendingPathComponent("0009.png"))  // not Flick's: kept
    try Self.render(frames.path + "/", duration: 0.3)
    expectEqual(Self.names(frames), [".flick-sequence", "0000.png", "0001.png", "0002.png", "0009.png", "notes.txt"])
    try expectEqual(String(contentsOf: frames.appendingPathComponent("notes.txt"), encoding: .utf8), "mine")
    expectEqual(Self.names(root), ["frames"])
  }

  @Test func aPartialRenderKeepsTheOtherFramesAndAForeignFolderKeepsEverything() throws {
    let root = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: root) }
    let frames = root.appendingPathComponent("frames")
    try Self.render(frames.path + "/")
    let before = try Data(contentsOf: frames.appendingPathComponent("0004.png"))
    try Self.render(frames.path + "/", frames: 1..<3)
    expectEqual(Self.names(frames).filter { $0.hasSuffix(".png") }.count, 6)
    try expectEqual(Data(contentsOf: frames.appendingPathComponent("0004.png")), before)
    // A folder Flick did not write (no marker): frames beyond the end are not Flick's to remove.
    let foreign = root.appendingPathComponent("foreign")
    try FileManager.default.createDirectory(at: foreign, withIntermediateDirectories: false)
    for n in ["0000.png", "0007.png"] { try Data("theirs".utf8).write(to: foreign.appendingPathComponent(n)) }
    try Self.render(foreign.path + "/", duration: 0.3)
    expectEqual(Self.names(foreign), [".flick-sequence", "0000.png", "0001.png", "0002.png", "0007.png"])
    try expectNotEqual(Data(contentsOf: foreign.appendingPathComponent("0000.png")), Data("theirs".utf8))
    // A hostile marker naming paths outside cannot make Flick delete them.
    let victim = root.appendingPathComponent("victim.png")
    try Data("keep".utf8).write(to: victim)
    try (PNGSequenceWriter.markerHeaderForTests + "\n../victim.png\n/etc/passwd\n0007.png\n").write(
      to: foreign.appendingPathComponent(".flick-sequence"), atomically: true, encoding: .utf8)
    try Self.render(foreign.path + "/", duration: 0.3)
    #expect(FileManager.default.fileExists(atPath: victim.path))
    #expect(!Self.names(foreign).contains("0007.png"))
    expectEqual(Self.names(root).sorted(), ["foreign", "frames", "victim.png"])
  }

  /// The marker is read once through the bounded reader, not through a link and not from a FIFO:
  /// a marker linked from elsewhere cannot claim another folder's files for removal, and a FIFO
  /// in its place is passed over (the folder counts as foreign) instead of holding the render.
  @Test(arguments: ["link", "fifo"])
  func aMarkerThatIsNotARegularFileMakesTheFolderForeign(kind: String) throws {
    let root = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: root) }
    let folder = root.appendingPathComponent("frames")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
    try Data("theirs".utf8).write(to: folder.appendingPathComponent("0007.png"))
    let marker = folder.appendingPathComponent(PNGSequenceWriter.markerName).path
    if kind == "link" {
      let elsewhere = root.appendingPathComponent("list").path
      try (PNGSequenceWriter.markerHeaderForTests + "\n0007.png\n").write(
        toFile: elsewhere, atomically: true, encoding: .utf8)
      try FileManager.default.createSymbolicLink(atPath: marker, withDestinationPath: elsewhere)
    } else {
      try FIFOGuard.make(marker)
    }
    let run = FIFOGuard.ends(fifo: marker, within: 20) { try Self.render(folder.path + "/", duration: 0.3) }
    #expect(run.ended && !run.threw, "the render ended and wrote its frames")
    let names = Self.names(folder)
    #expect(names.contains("0007.png"), "a frame the marker did not list by itself is not Flick's to remove")
    #expect(["0000.png", "0001.png", "0002.png"].allSatisfy(names.contains))
  }

  @Test func aFailedRenderLeavesTheOldSequenceWhole() throws {
    let root = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: root) }
    let frames = root.appendingPathComponent("frames")
    try Self.render(frames.path + "/")
    let before = Self.names(frames)
    let bad = RenderSession(
      scene: Self.scene,
      outputs: [try OutputTarget(path: frames.path + "/"), try OutputTarget(path: root.path + "/nope/x.mp4")])
    #expect(throws: (any Error).self) { try bad.run() }
    expectEqual(Self.names(frames), before)
    expectEqual(Self.names(root), ["frames"])
  }

  @Test func staleSwapFoldersGoBackWhenNothingReplacedThem() throws {
    let root = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: root) }
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/bin/true")
    try p.runUnblocked()
    p.waitUntilExit()
    let dead = p.processIdentifier
    let aside = root.appendingPathComponent(".frames.\(dead).old")
    try FileManager.default.createDirectory(at: aside, withIntermediateDirectories: false)
    try Data([1]).write(to: aside.appendingPathComponent("0000.png"))
    Cleanup.removeStale(in: root.path)
    expectEqual(Self.names(root), ["frames"])
    expectEqual(Self.names(root.appendingPathComponent("frames")), ["0000.png"])
  }
}
