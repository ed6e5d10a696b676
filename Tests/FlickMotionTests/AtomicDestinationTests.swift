import FlickExpectations
import FlickMotion
import Foundation
import Testing

/// Every destination is put in place through one helper: the old output survives a failure, no
/// temporary is left, and a link at the destination or at the temporary's name is replaced,
/// never written through.
@Suite struct AtomicDestinationTests {
  static func folder() throws -> String {
    let path = NSTemporaryDirectory() + "flick-atomic-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
    return path
  }

  static func contents(_ folder: String) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
  }

  @Test func writeReplacesTheFileAndLeavesNoTemporary() throws {
    let dir = try Self.folder()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let path = dir + "/out.json"
    try AtomicDestination.write(Data("old".utf8), to: path)
    try AtomicDestination.write(Data("new".utf8), to: path)
    try expectEqual(String(contentsOfFile: path, encoding: .utf8), "new")
    try expectEqual(Self.contents(dir), ["out.json"])
  }

  /// A write that cannot be put in place (here the destination is a folder with files in it)
  /// leaves the old output exactly as it was, and no temporary.
  @Test func theOldOutputSurvivesAFailingWrite() throws {
    let dir = try Self.folder()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let path = dir + "/out"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
    try Data("kept".utf8).write(to: URL(fileURLWithPath: path + "/frame.png"))
    #expect(throws: AtomicDestination.Failure.self) { try AtomicDestination.write(Data("new".utf8), to: path) }
    try expectEqual(Self.contents(dir), ["out"])
    try expectEqual(String(contentsOfFile: path + "/frame.png", encoding: .utf8), "kept")
    // A folder that does not exist: nothing is created.
    #expect(throws: AtomicDestination.Failure.self) {
      try AtomicDestination.write(Data("new".utf8), to: dir + "/missing/out.json")
    }
    try expectEqual(Self.contents(dir), ["out"])
  }

  /// A destination that is a symbolic link is replaced by the new file; what it pointed to is
  /// untouched. A link planted under the temporary's name is removed, not followed.
  @Test func linksAreReplacedNeverWrittenThrough() throws {
    let dir = try Self.folder()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let victim = dir + "/victim.txt"
    try Data("victim".utf8).write(to: URL(fileURLWithPath: victim))
    let path = dir + "/out.json"
    try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: victim)
    try FileManager.default.createSymbolicLink(
      atPath: AtomicDestination.temporary(for: path), withDestinationPath: victim)
    try AtomicDestination.write(Data("new".utf8), to: path)
    try expectEqual(String(contentsOfFile: victim, encoding: .utf8), "victim")
    try expectEqual(String(contentsOfFile: path, encoding: .utf8), "new")
    var info = stat()
    expectEqual(lstat(path, &info), 0, "the link itself was replaced")
    expectEqual((info.st_mode & S_IFMT), S_IFREG, "the link itself was replaced")
    try expectEqual(Self.contents(dir), ["out.json", "victim.txt"])
  }

  /// A folder is exchanged with the new one: the destination holds the new files, the old
  /// folder is handed back whole for removal, and nothing else is left.
  @Test func aFolderIsReplacedWhole() throws {
    let dir = try Self.folder()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let destination = dir + "/frames"
    let temporary = dir + "/.frames.1.partial"
    for (folder, name) in [(destination, "old.png"), (temporary, "new.png")] {
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
      try Data(name.utf8).write(to: URL(fileURLWithPath: folder + "/" + name))
    }
    #expect(AtomicDestination.syncContents(ofFolder: temporary) == nil)
    let old = try AtomicDestination.replaceFolder(destination, with: temporary, aside: dir + "/.frames.1.old").get()
    try expectEqual(Self.contents(destination), ["new.png"])
    try expectEqual(Self.contents(old), ["old.png"])
    try FileManager.default.removeItem(atPath: old)
    try expectEqual(Self.contents(dir), ["frames"])
  }

  /// A commit flushes and renames a finished temporary; one that is missing fails and leaves the
  /// destination as it was.
  @Test func commitPutsAFinishedTemporaryInPlace() throws {
    let dir = try Self.folder()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let path = dir + "/out.gif"
    try Data("old".utf8).write(to: URL(fileURLWithPath: path))
    #expect(AtomicDestination.commit(dir + "/.out.gif.1.partial", to: path) != nil)
    try expectEqual(String(contentsOfFile: path, encoding: .utf8), "old")
    try Data("new".utf8).write(to: URL(fileURLWithPath: dir + "/.out.gif.1.partial"))
    #expect(AtomicDestination.commit(dir + "/.out.gif.1.partial", to: path) == nil)
    try expectEqual(String(contentsOfFile: path, encoding: .utf8), "new")
    try expectEqual(Self.contents(dir), ["out.gif"])
  }
}
