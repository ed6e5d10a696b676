import FlickExpectations
import FlickTestSupport
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `flick studio` as a user runs it: one URL line, a clean stop on SIGTERM and SIGINT.
@Suite struct StudioCommandTests {
  /// Starts `flick studio --no-open --port 0 ARGS` in `folder`, with `environment` added to this
  /// process's, and reads its URL line.
  static func start(_ folder: URL, _ arguments: [String] = [], environment: [String: String] = [:]) throws
    -> (Process, String, Pipe)
  {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: ProcessRunner.flick(root: StudioFrameTests.root))
    process.arguments = ["studio", "--no-open", "--port", "0"] + arguments
    process.currentDirectoryURL = folder
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.runUnblocked()
    var line = Data()
    while !line.contains(0x0A) {
      let chunk = out.fileHandleForReading.availableData
      if chunk.isEmpty { break }
      line.append(chunk)
    }
    return (process, String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines), err)
  }

  /// The port and token of the URL line `flick studio` printed.
  static func address(_ url: String) throws -> (port: Int, token: String) {
    let pattern = #/^http://127\.0\.0\.1:(\d+)/\?token=([0-9a-f]{32})$/#
    let match = try #require(url.wholeMatch(of: pattern), "\(url)")
    return (Int(match.1) ?? 0, String(match.2))
  }

  @Test(arguments: [SIGTERM, SIGINT])
  func aSignalStopsItCleanly(_ signal: Int32) throws {
    let h = try StudioHarness()
    let (process, url, err) = try Self.start(h.folder)
    let (port, token) = try Self.address(url)
    // It answers, and an export's temporary files and children go with it.
    let frame = try RawHTTP.request(
      port: port, method: "GET", target: "/api/frame.png?template=pulse.json5&t=0&token=\(token)",
      host: "127.0.0.1:\(port)")
    expectEqual(frame.status, 200)
    let events = try EventReader(port: port, token: token)
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

  /// The browser `xdg-open` starts is the user's: where xdg-open runs it in the foreground (its
  /// $BROWSER fallback), the studio's exit does not stop it. The stand-in xdg-open notes its PID
  /// and stays, as such a browser does.
  @Test func theBrowserOutlivesTheStudio() throws {
    let h = try StudioHarness()
    let bin = h.folder.deletingLastPathComponent().appendingPathComponent("bin-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: bin) }
    let pidFile = bin.appendingPathComponent("browser.pid").path
    let source = bin.appendingPathComponent("xdg-open.source")
    try Data("#!/bin/sh\necho $$ > '\(pidFile).new' && mv '\(pidFile).new' '\(pidFile)'\nexec sleep 120\n".utf8)
      .write(to: source)
    // Copied by cp, a process of its own: a file this multi-threaded process wrote could still be
    // open in a child another test forks at that moment, and exec'ing it would fail (ETXTBSY).
    let copy = try ProcessRunner.run("/bin/cp", [source.path, bin.appendingPathComponent("xdg-open").path])
    expectEqual(copy.status, 0, "\(copy.stderr)")
    chmod(bin.appendingPathComponent("xdg-open").path, 0o755)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: ProcessRunner.flick(root: StudioFrameTests.root))
    process.arguments = ["studio", "--port", "0"]
    process.currentDirectoryURL = h.folder
    var environment = ProcessInfo.processInfo.environment
    environment["PATH"] = bin.path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
    process.environment = environment
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.runUnblocked()
    // Until the stand-in has started (bounded: a minute).
    var waited = 0
    while !FileManager.default.fileExists(atPath: pidFile) && waited < 600 {
      usleep(100_000)
      waited += 1
    }
    let text = try String(contentsOfFile: pidFile, encoding: .utf8)
    let browser = try #require(Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)))
    defer { kill(browser, SIGKILL) }
    kill(process.processIdentifier, SIGTERM)
    process.waitUntilExit()
    usleep(200_000)  // what the studio's exit would have done to its children is done by now
    expectEqual(kill(browser, 0), 0, "the studio's exit stopped the browser")
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
