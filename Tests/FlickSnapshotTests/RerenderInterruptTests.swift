import FlickExpectations
@testable import FlickSnapshot
import FlickTestSupport
import Foundation
import Testing

/// SIGINT or SIGTERM while the goldens' stored inputs are re-rendered (`flick accept --renderer`;
/// `flick verify` across a renderer change runs the same code) removes the temporary folder they are written into (`flick-inputs-UUID`),
/// as the message "temporary files removed" says; the folder used to stay behind.
@Suite struct RerenderInterruptTests {
  typealias V = VerifyCommandTests

  /// The entries of `folder` named like the re-render's temporary folder.
  static func leftovers(_ folder: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasPrefix("flick-inputs-") }
  }

  @Test(arguments: [SIGTERM, SIGINT])
  func anInterruptedRerenderRemovesItsTemporaryFolder(_ signal: Int32) throws {
    let dir = try V.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let template = dir + "/slow.json5"
    try Data(SlowFrameTemplate.text(layers: 6).utf8).write(to: URL(fileURLWithPath: template))
    let golden = dir + "/golden"
    try expectEqual(V.run(["snapshot", template, "--at", "0,end", "--out", golden]).status, 0)
    let temporary = dir + "/tmp"
    try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)
    let p = Process()
    p.executableURL = URL(fileURLWithPath: V.flick)
    p.arguments = ["accept", "--renderer", "--against", golden]
    var environment = ProcessInfo.processInfo.environment
    for name in ["CI", "FLICK_RECORD", "FLICK_ARTIFACTS"] { environment[name] = nil }
    environment["TMPDIR"] = temporary
    p.environment = environment
    p.currentDirectoryURL = URL(fileURLWithPath: dir)
    p.standardError = FileHandle.nullDevice
    p.standardOutput = FileHandle.nullDevice
    try p.runUnblocked()
    // Interrupted once the folder exists: the stored inputs are being loaded or drawn.
    var seen = false
    for _ in 0..<15_000 where p.isRunning {
      if !Self.leftovers(temporary).isEmpty {
        seen = true
        break
      }
      usleep(2_000)
    }
    kill(p.processIdentifier, signal)
    p.waitUntilExit()
    #expect(seen, "the re-render's folder never appeared in \(temporary)")
    expectEqual(p.terminationStatus, 130)
    expectEqual(Self.leftovers(temporary), [])
  }

  /// The race behind the test above: the cleanup moves the folder aside and removes it while
  /// the stored files are still being written into it. Writing them must then fail, not make
  /// the folder (or a subfolder's parents) again, which would leave it behind.
  @Test func storedInputsAreNeverWrittenIntoAFolderThatHasGone() throws {
    let dir = try V.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try FileManager.default.createDirectory(atPath: dir + "/sub", withIntermediateDirectories: true)
    let template = dir + "/sub/t.json5"
    try Data(SlowFrameTemplate.text(layers: 1).utf8).write(to: URL(fileURLWithPath: template))
    let golden = dir + "/golden"
    try expectEqual(V.run(["snapshot", "sub/t.json5", "--at", "0", "--out", golden], in: dir).status, 0)
    let inputs = try #require(try SnapshotManifest.read(from: golden)?.inputs)
    let root = dir + "/gone"
    #expect(throws: SnapshotError.self) { _ = try inputs.materialize(from: golden, into: root) }
    expectEqual(FileManager.default.fileExists(atPath: root), false)
    // Into a folder that is there, the files land at their stored paths.
    try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: false)
    let placed = try inputs.materialize(from: golden, into: root)
    #expect(FileManager.default.fileExists(atPath: placed.template), "\(placed.template)")
  }
}
