import FlickExpectations
import FlickTestSupport
import Foundation
import Testing

@testable import FlickStudio

#if canImport(Glibc)
  import Glibc
#endif

/// Past ``FileWatcher/maximumFolders`` folders the studio watches no more: it says so once on
/// standard error, instead of silently missing the edits of the folders left out.
@Suite struct StudioWatchLimitTests {
  @Test func aFolderLeftUnwatchedIsWarnedAboutOnce() throws {
    let h = try StudioHarness()
    for i in 0..<(FileWatcher.maximumFolders + 2) {
      try FileManager.default.createDirectory(
        at: h.folder.appendingPathComponent(String(format: "d%04d", i)), withIntermediateDirectories: true)
    }
    // The workspace lists one folder past the limit, for the watcher to see that it is reached.
    expectEqual(StudioWorkspace(folder: h.folder.path).folders().count, FileWatcher.maximumFolders + 1)
    let (process, url, err) = try StudioCommandTests.start(h.folder)
    #expect(url.hasPrefix("http://127.0.0.1:"), "\(url)")
    // Another folder past the limit, made while the studio runs: no second warning.
    try FileManager.default.createDirectory(
      at: h.folder.appendingPathComponent("later"), withIntermediateDirectories: true)
    let (port, token) = try StudioCommandTests.address(url)
    _ = try RawHTTP.request(
      port: port, method: "GET", target: "/api/templates?token=\(token)", host: "127.0.0.1:\(port)")
    kill(process.processIdentifier, SIGTERM)
    process.waitUntilExit()
    let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let warnings = stderr.split(separator: "\n").filter { $0.contains("watches at most") }
    expectEqual(warnings.count, 1, "\(stderr)")
    #expect(stderr.contains("warning: the studio watches at most 1024 folders"), "\(stderr)")
  }
}
