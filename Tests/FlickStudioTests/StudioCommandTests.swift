import FlickExpectations
import FlickTestSupport
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `flick studio` as a user runs it: one URL line, a clean stop on SIGTERM and SIGINT.
@Suite struct StudioCommandTests {
  /// Starts `flick studio --no-open --port 0 ARGS` in `folder` and reads its URL line.
  static func start(_ folder: URL, _ arguments: [String] = []) throws -> (Process, String, Pipe) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: ProcessRunner.flick(root: StudioFrameTests.root))
    process.arguments = ["studio", "--no-open", "--port", "0"] + arguments
    process.currentDirectoryURL = folder
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    var line = Data()
    while !line.contains(0x0A) {
      let chunk = out.fileHandleForReading.availableData
      if chunk.isEmpty { break }
      line.append(chunk)
    }
    return (process, String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines), err)
  }

  @Test(arguments: [SIGTERM, SIGINT])
  func aSignalStopsItCleanly(_ signal: Int32) throws {
    let h = try StudioHarness()
    let (process, url, err) = try Self.start(h.folder)
    let pattern = #/^http://127\.0\.0\.1:(\d+)/\?token=([0-9a-f]{32})$/#
    let match = try #require(url.wholeMatch(of: pattern), "\(url)")
    let port = Int(match.1) ?? 0
    // It answers, and an export's temporary files and children go with it.
    let frame = try RawHTTP.request(
      port: port, method: "GET", target: "/api/frame.png?template=pulse.json5&t=0&token=\(match.2)",
      host: "127.0.0.1:\(port)")
    expectEqual(frame.status, 200)
    let events = try EventReader(port: port, token: String(match.2))
    kill(process.processIdentifier, signal)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0 || process.terminationStatus == 130)
    _ = err.fileHandleForReading.readDataToEndOfFile()
    // The port is closed and nothing is left in the folder but what was there.
    #expect(throws: (any Error).self) { try RawHTTP.connect(port: port) }
    let left = try FileManager.default.contentsOfDirectory(atPath: h.folder.path).sorted()
    expectEqual(left, ["pic.png", "pulse.json5"])
    _ = events
  }

  @Test func anotherHostPrintsAWarningAndBadArgumentsExit2() throws {
    let h = try StudioHarness()
    let (process, url, err) = try Self.start(h.folder, ["--host", "0.0.0.0"])
    #expect(url.hasPrefix("http://0.0.0.0:"))
    kill(process.processIdentifier, SIGTERM)
    process.waitUntilExit()
    let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    #expect(stderr.contains("warning: the studio listens on"))
    let flick = ProcessRunner.flick(root: StudioFrameTests.root)
    let bad = try ProcessRunner.run(flick, ["studio", "--no-open", "--port", "99999"], directory: h.folder.path)
    expectEqual(bad.status, 2)
    let missing = try ProcessRunner.run(flick, ["studio", "--no-open", "nothing.json5"], directory: h.folder.path)
    expectEqual(missing.status, 2)
    #expect(missing.stdout.isEmpty)
  }
}
