import FlickExpectations
import FlickScene
import FlickTestSupport
import FlickVideo
import Foundation
import Testing

/// The names a PNG sequence's frames take in an existing folder: one taken by something that is
/// no file (a folder, a FIFO) is refused before anything is rendered, so no output changes (a
/// commit once failed midway, after earlier outputs were in place and some frames renamed in);
/// and a frame the marker lists under another name for its number (`00003.png` of an earlier
/// render with five digits, now `0003.png`) is stale, not kept beside the new one.
@Suite struct SequenceFrameNameTests {
  static let scene = TestSupport.patchScene([.black], columns: 1, fps: 10, duration: 0.3)  // 3 frames

  static func names(_ dir: URL) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).sorted()
  }

  @Test(arguments: ["a folder", "a FIFO"]) func aFrameNameTakenByANonFileIsRefusedBeforeAnythingChanges(
    _ kind: String
  ) throws {
    let root = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: root) }
    let frames = root.appendingPathComponent("frames")
    try RenderSession(scene: Self.scene, outputs: [OutputTarget(path: frames.path + "/")]).run()
    let taken = frames.appendingPathComponent("0001.png").path
    try FileManager.default.removeItem(atPath: taken)
    if kind == "a folder" {
      try FileManager.default.createDirectory(atPath: taken, withIntermediateDirectories: false)
      try Data("keep".utf8).write(to: URL(fileURLWithPath: taken + "/keep"))
    } else {
      expectEqual(mkfifo(taken, 0o644), 0)
    }
    let first = try Data(contentsOf: frames.appendingPathComponent("0000.png"))
    let marker = try Data(contentsOf: frames.appendingPathComponent(".flick-sequence"))
    let gif = root.appendingPathComponent("a.gif")
    try Data("OLD".utf8).write(to: gif)
    let session = RenderSession(
      scene: Self.scene, outputs: [try OutputTarget(path: gif.path), try OutputTarget(path: frames.path + "/")],
      scale: 0.5)
    #expect(throws: VideoError.self, "\(kind)") { try session.validate() }
    do {
      _ = try session.run()
      Issue.record("the render of \(kind) in place of a frame went through")
    } catch let error as VideoError {
      #expect(error.isInvalidInput, "\(error)")
      #expect(error.description.contains("0001.png"), "\(error)")
    }
    try expectEqual(Data(contentsOf: gif), Data("OLD".utf8))
    try expectEqual(Data(contentsOf: frames.appendingPathComponent("0000.png")), first)
    try expectEqual(Data(contentsOf: frames.appendingPathComponent(".flick-sequence")), marker)
    expectEqual(Self.names(frames), [".flick-sequence", "0000.png", "0001.png", "0002.png"])
    expectEqual(Self.names(root), ["a.gif", "frames"])
  }

  @Test(arguments: [false, true]) func aListedFrameOfAnotherDigitWidthIsStale(foreignFile: Bool) throws {
    let root = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: root) }
    let frames = root.appendingPathComponent("frames")
    try FileManager.default.createDirectory(at: frames, withIntermediateDirectories: false)
    // An earlier render's frames with five digits (its clip had 10,000 frames or more), listed.
    let old = ["00000.png", "00001.png", "00002.png", "00003.png", "00004.png"]
    for name in old { try Data("old frame".utf8).write(to: frames.appendingPathComponent(name)) }
    try ([PNGSequenceWriter.markerHeaderForTests] + old + [""]).joined(separator: "\n").write(
      to: frames.appendingPathComponent(".flick-sequence"), atomically: true, encoding: .utf8)
    // With a file Flick did not write the folder is updated in place; without, rebuilt whole.
    if foreignFile { try Data("mine".utf8).write(to: frames.appendingPathComponent("notes.txt")) }
    var scene = Self.scene
    scene.duration = 1  // 10 frames: 0000.png … 0009.png
    try RenderSession(scene: scene, outputs: [OutputTarget(path: frames.path + "/")], frames: 0..<3).run()
    let expected = ["0000.png", "0001.png", "0002.png"]
    expectEqual(Self.names(frames), [".flick-sequence"] + expected + (foreignFile ? ["notes.txt"] : []))
    let marker = try String(contentsOf: frames.appendingPathComponent(".flick-sequence"), encoding: .utf8)
    expectEqual(marker.split(separator: "\n").dropFirst().map(String.init), expected)
  }
}
