import FlickExpectations
import FlickMotion
import FlickTestSupport
import FlickVideo
import Foundation
import Testing

/// `flick status --html` onto a symbolic link is refused as every output over a link is
/// (``FlickVideo/VideoError/linkedOutput(path:)``: exit 2, its own words), and a message that
/// quotes a caught error's reason says what Flick's own error says, never Foundation's
/// "The operation could not be completed" (``FlickMotion/MessageText/reason(_:)``).
@Suite struct GalleryLinkTests {
  typealias F = BatchFixtures

  @Test func aGalleryOntoALinkIsInvalidInputInItsOwnWords() throws {
    let dir = try SideOutputTests.planned()
    defer { try? FileManager.default.removeItem(at: dir) }
    try FileManager.default.createDirectory(at: dir.appendingPathComponent("victim"), withIntermediateDirectories: true)
    let victim = dir.appendingPathComponent("victim/v.txt")
    try "SECRET\n".write(to: victim, atomically: true, encoding: .utf8)
    try FileManager.default.createSymbolicLink(
      atPath: dir.appendingPathComponent("lh.html").path, withDestinationPath: "victim/v.txt")
    let r = try F.flick(["status", "plan.json", "--html", "lh.html"], in: dir)
    expectEqual(r.status, 2, "\(r.stderr)")
    #expect(r.stderr.contains("it is a symbolic link, and Flick does not write through links"), "\(r.stderr)")
    #expect(!r.stderr.contains("could not be completed"), "\(r.stderr)")
    expectEqual(try String(contentsOf: victim, encoding: .utf8), "SECRET\n")
  }

  @Test func aCaughtErrorsReasonIsItsOwn() {
    let linked = VideoError.linkedOutput(path: "a.html")
    expectEqual(MessageText.reason(linked), linked.description)
    let failure = AtomicDestination.Failure(reason: "No space left on device")
    expectEqual(MessageText.reason(failure), "No space left on device")
    // Foundation's errors keep their own text.
    do {
      try FileManager.default.createDirectory(atPath: "/proc/flick-nope/x", withIntermediateDirectories: true)
      Issue.record("created a folder under /proc")
    } catch {
      expectEqual(MessageText.reason(error), error.localizedDescription)
    }
  }
}
