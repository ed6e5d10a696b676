import FlickExpectations
import FlickTestSupport
import Foundation
import Testing

/// `flick studio` from a binary installed without its `Flick_FlickStudio.resources` folder
/// refuses to start (exit 3), naming the folders it looked in and how to install the page,
/// instead of printing a URL that serves only 404s.
@Suite struct StudioPageMissingTests {
  @Test func aBinaryWithoutThePageRefusesToStart() throws {
    let dir = try CLITests.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let bin = dir.appendingPathComponent("bin")
    try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
    let copy = bin.appendingPathComponent("flick").path
    try FileManager.default.copyItem(atPath: CLITests.flick, toPath: copy)
    // Before the fix it printed its URL and served 404s until stopped: `timeout` ends it (124).
    let r = try ProcessRunner.run("/usr/bin/timeout", ["30", copy, "studio", "--no-open", dir.path])
    expectEqual(r.status, 3, "\(r.stderr)")
    #expect(r.text.isEmpty, "no URL is printed: \(r.text)")
    #expect(r.stderr.contains("the studio's page is missing: no index.html in"), "\(r.stderr)")
    #expect(r.stderr.contains("'\(bin.path)/Flick_FlickStudio.resources/Page'"), "\(r.stderr)")
    #expect(r.stderr.contains("folder beside it"), "\(r.stderr)")
  }
}
