import FlickExpectations
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
}
