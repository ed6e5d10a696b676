import FlickExpectations
import FlickTestSupport
import Foundation
import Testing

/// A merge checks every destination of a clip before it removes the first stamp or replaces the
/// first output, with the checks `flick render` makes of its outputs: a folder where a file
/// goes, a file where a sequence's folder goes, a link, a FIFO, a folder that may not be
/// written, a folder where a stamp goes. Each is refused with nothing changed: the old outputs
/// and their stamps are as they were. `flick run` and `flick render` refuse the same.
@Suite struct MergeDestinationTests {
  typealias F = BatchFixtures
  typealias C = ChunkFixtures

  /// The merged clip's folder.
  static func folder(_ workspace: URL) -> String { workspace.appendingPathComponent("out/long/default").path }

  /// Every entry under `folder`, relative path → its kind and, for a file, its bytes.
  static func snapshot(_ folder: String) -> [String: String] {
    var out: [String: String] = [:]
    func walk(_ relative: String) {
      let path = relative.isEmpty ? folder : folder + "/" + relative
      for name in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] {
        let entry = relative.isEmpty ? name : relative + "/" + name
        var info = stat()
        guard lstat(folder + "/" + entry, &info) == 0 else { continue }
        switch info.st_mode & S_IFMT {
        case S_IFDIR:
          out[entry] = "folder"
          walk(entry)
        case S_IFREG:
          let bytes = (try? Data(contentsOf: URL(fileURLWithPath: folder + "/" + entry))) ?? Data()
          out[entry] = "file \(bytes.base64EncodedString())"
        case S_IFLNK: out[entry] = "link"
        default: out[entry] = "special"
        }
      }
    }
    walk("")
    return out
  }

  /// A copy of the chunked workspace merged once, with "OLD" in its GIF and MP4 (their stamps
  /// kept), so a merge that replaces either shows it.
  static func merged() throws -> URL {
    let dir = try C.copy(try C.prepared.get().folder)
    let r = try F.flick(["merge", "plan.json", "-q"], in: dir, environment: F.cleanEnvironment)
    expectEqual(r.status, 0, "\(r.stderr)")
    for name in ["32x24.gif", "32x24.mp4"] {
      try Data("OLD".utf8).write(to: URL(fileURLWithPath: folder(dir) + "/" + name))
    }
    return dir
  }

  /// Each bad destination of the clip, the exit code and what the message says.
  enum Bad: String, CaseIterable, CustomTestStringConvertible {
    case gifIsAFolder, mp4IsAFolder, mp4IsAFIFO, mp4IsALink, sequenceFolderIsAFile, sequenceFolderUnwritable
    case folderUnwritable, stampIsAFolder

    var testDescription: String { rawValue }

    /// Makes the destination bad in the clip's folder; returns what undoes an unwritable folder
    /// (nil when this machine cannot make one).
    func make(in folder: String) throws -> UnwritableFolder?? {
      let fm = FileManager.default
      switch self {
      case .gifIsAFolder:
        try fm.removeItem(atPath: folder + "/32x24.gif")
        try fm.createDirectory(atPath: folder + "/32x24.gif", withIntermediateDirectories: false)
      case .mp4IsAFolder:
        try fm.removeItem(atPath: folder + "/32x24.mp4")
        try fm.createDirectory(atPath: folder + "/32x24.mp4", withIntermediateDirectories: false)
      case .mp4IsAFIFO:
        try fm.removeItem(atPath: folder + "/32x24.mp4")
        #expect(mkfifo(folder + "/32x24.mp4", 0o644) == 0)
      case .mp4IsALink:
        try fm.removeItem(atPath: folder + "/32x24.mp4")
        try fm.createSymbolicLink(atPath: folder + "/32x24.mp4", withDestinationPath: "elsewhere.mp4")
      case .sequenceFolderIsAFile:
        try fm.removeItem(atPath: folder + "/32x24")
        try Data("OLD".utf8).write(to: URL(fileURLWithPath: folder + "/32x24"))
      case .sequenceFolderUnwritable:
        return .some(UnwritableFolder(folder + "/32x24"))
      case .folderUnwritable:
        return .some(UnwritableFolder(folder))
      case .stampIsAFolder:
        try fm.removeItem(atPath: folder + "/.32x24.flick-stamp")
        try fm.createDirectory(atPath: folder + "/.32x24.flick-stamp", withIntermediateDirectories: false)
      }
      return .none
    }

    var expected: (status: Int32, message: String) {
      switch self {
      case .gifIsAFolder, .mp4IsAFolder: return (3, "it is a folder")
      case .mp4IsAFIFO: return (2, "is a FIFO, not a regular file")
      case .mp4IsALink: return (2, "is a symbolic link")
      case .sequenceFolderIsAFile: return (3, "is a file, not a folder")
      case .sequenceFolderUnwritable, .folderUnwritable: return (3, "is not writable")
      case .stampIsAFolder: return (3, "flick-stamp: it is a folder")
      }
    }
  }

  @Test(arguments: Bad.allCases)
  func aBadDestinationChangesNothing(_ bad: Bad) throws {
    let dir = try Self.merged()
    defer { try? FileManager.default.removeItem(at: dir) }
    let folder = Self.folder(dir)
    let unwritable = try bad.make(in: folder)
    if case .some(nil) = unwritable { return }  // cannot make a folder unwritable here
    defer { unwritable??.undo() }
    let before = Self.snapshot(folder)
    let r = try F.flick(["merge", "plan.json", "--force", "-q"], in: dir, environment: F.cleanEnvironment)
    expectEqual(r.status, bad.expected.status, "\(r.stderr)")
    #expect(r.stderr.contains(bad.expected.message), "\(r.stderr)")
    // Nothing replaced, no stamp removed, no temporary left.
    expectEqual(Self.snapshot(folder), before)
  }

  /// `flick run` refuses a job's bad destination before its first stamp goes, as the merge does.
  @Test func runRefusesABadDestinationBeforeTouchingAnything() throws {
    let dir = try C.copy(try C.prepared.get().folder)
    defer { try? FileManager.default.removeItem(at: dir) }
    try """
    { flick: 1, output: "whole", renders: [ { template: "long.json5", formats: ["gif", "mp4", "png"] } ] }
    """.write(to: dir.appendingPathComponent("w.json5"), atomically: true, encoding: .utf8)
    for args in [["plan", "w.json5", "-o", "w.json"], ["run", "w.json", "-q"]] {
      let r = try F.flick(args, in: dir, environment: F.cleanEnvironment)
      expectEqual(r.status, 0, "\(args): \(r.stderr)")
    }
    let folder = dir.appendingPathComponent("whole/long/default").path
    for (bad, status, message) in [
      ("32x24.mp4", Int32(3), "it is a folder"), (".32x24.gif.flick-stamp", 3, "flick-stamp: it is a folder"),
    ] {
      try Data("OLD".utf8).write(to: URL(fileURLWithPath: folder + "/32x24.gif"))
      try FileManager.default.removeItem(atPath: folder + "/" + bad)
      try FileManager.default.createDirectory(atPath: folder + "/" + bad, withIntermediateDirectories: false)
      let before = Self.snapshot(folder)
      let r = try F.flick(["run", "w.json", "--force", "-q"], in: dir, environment: F.cleanEnvironment)
      expectEqual(r.status, status, "\(bad): \(r.stderr)")
      #expect(r.stderr.contains(message), "\(bad): \(r.stderr)")
      expectEqual(Self.snapshot(folder), before, "\(bad)")
      try FileManager.default.removeItem(atPath: folder + "/" + bad)
    }
  }

  /// `flick render` into a folder it may not write is refused before it draws, with the message
  /// the merge gives.
  @Test func renderRefusesAnUnwritableFolder() throws {
    let dir = try C.copy(try C.prepared.get().folder)
    defer { try? FileManager.default.removeItem(at: dir) }
    let folder = dir.appendingPathComponent("locked").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
    guard let locked = UnwritableFolder(folder) else { return }
    defer { locked.undo() }
    for output in ["locked/x.gif", "locked/frames/"] {
      let r = try F.flick(["render", "long.json5", "-o", output, "-q"], in: dir, environment: F.cleanEnvironment)
      expectEqual(r.status, 3, "\(output): \(r.stderr)")
      #expect(r.stderr.contains("is not writable"), "\(output): \(r.stderr)")
    }
    expectEqual(try FileManager.default.contentsOfDirectory(atPath: folder), [])
  }
}
