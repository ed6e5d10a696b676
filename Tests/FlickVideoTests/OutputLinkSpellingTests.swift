import FlickExpectations
import FlickTestSupport
import FlickVideo
import Foundation
import Testing

/// A destination is looked at as the entry its path names, however the path is spelled: `.`
/// components, repeated and trailing slashes and a `..` after a folder make no difference, and a
/// `..` that steps out of a symbolic link is a write through that link. `frames/.` once passed
/// the link check (`lstat("frames/.")` follows the link) and wrote the sequence through it.
@Suite struct OutputLinkSpellingTests {
  typealias F = OutputLinkTests

  static func render(_ path: String) throws {
    try RenderSession(scene: F.scene, outputs: [OutputTarget(path: path, format: .png)]).run()
  }

  @Test func aLinkedSequenceFolderIsRefusedHoweverItIsSpelled() throws {
    let f = try F.Fixture()
    defer { try? FileManager.default.removeItem(at: f.root) }
    try FileManager.default.createSymbolicLink(atPath: f.path("frames"), withDestinationPath: f.outside.path)
    try FileManager.default.createDirectory(atPath: f.path("real"), withIntermediateDirectories: false)
    let spellings = [
      "frames/.", "frames/./", "frames/.//", "frames//./", "frames/././", "./frames/.", "frames/./%04d.png",
      "frames/.//shot-%03d.png", "real/../frames/", "real/../frames/.", "real/./../frames",
    ]
    for spelling in spellings {
      #expect(throws: VideoError.linkedOutput(path: f.path("frames")), "\(spelling)") {
        try Self.render(f.path(spelling))
      }
      if !spelling.contains("%") { #expect(OutputEntry.isLink(f.path(spelling)), "\(spelling)") }
    }
    #expect(try f.secretIsUntouched())
    try expectEqual(TestSupport.contents(f.root).sorted(), ["frames", "outside", "real"])
  }

  @Test func aParentStepOutOfALinkIsAWriteThroughIt() throws {
    let f = try F.Fixture()
    defer { try? FileManager.default.removeItem(at: f.root) }
    // `deep/..` is `outside` (where the link leads, then up), not the folder holding `deep`.
    try FileManager.default.createDirectory(
      atPath: f.outside.path + "/inner", withIntermediateDirectories: false)
    try FileManager.default.createSymbolicLink(atPath: f.path("deep"), withDestinationPath: f.outside.path + "/inner")
    for spelling in ["deep/..", "deep/../", "deep/./..", "deep/../frames/", "deep/../%04d.png"] {
      #expect(throws: VideoError.linkedOutput(path: f.path("deep")), "\(spelling)") {
        try Self.render(f.path(spelling))
      }
    }
    #expect(throws: VideoError.linkedOutput(path: f.path("deep"))) {
      try RenderSession(scene: F.scene, outputs: [OutputTarget(path: f.path("deep/../a.mp4"))]).run()
    }
    try expectEqual(Data(contentsOf: f.secret), Data("-----BEGIN SECRET-----".utf8))
    try expectEqual(TestSupport.contents(f.outside).sorted(), ["id_rsa", "inner"])
    try expectEqual(TestSupport.contents(f.root).sorted(), ["deep", "outside"])
  }

  @Test func aRealFolderSpelledWithDotsGetsItsFramesInPlace() throws {
    let f = try F.Fixture()
    defer { try? FileManager.default.removeItem(at: f.root) }
    try FileManager.default.createDirectory(atPath: f.path("real"), withIntermediateDirectories: false)
    try Self.render(f.path("real/./"))
    try Self.render(f.path("real//."))
    try expectEqual(TestSupport.contents(URL(fileURLWithPath: f.path("real"))), ["0000.png", "0001.png", "0002.png"])
    try expectEqual(TestSupport.contents(f.root).sorted(), ["outside", "real"])
  }

  @Test func pathsAreSpelledPlainly() {
    expectEqual(OutputEntry.entry("frames/"), "frames")
    expectEqual(OutputEntry.entry("frames//./"), "frames")
    expectEqual(OutputEntry.entry("./frames/."), "frames")
    expectEqual(OutputEntry.entry("."), ".")
    expectEqual(OutputEntry.entry("./"), ".")
    expectEqual(OutputEntry.entry("/"), "/")
    expectEqual(OutputEntry.entry("//a//b/."), "/a/b")
    expectEqual(OutputEntry.entry("/.."), "/")
    expectEqual(OutputEntry.entry("../x/"), "../x")
    expectEqual(OutputEntry.entry("a/no-such/../b"), "a/b")
    #expect(!OutputEntry.isLink("a/no-such/../b"))
  }
}
