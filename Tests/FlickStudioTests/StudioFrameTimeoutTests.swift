import FlickExpectations
import FlickTestSupport
import Foundation
import Testing

@testable import FlickStudio

/// A frame that draws past the studio's `frameTimeout` (a font FreeType never finishes, a Lottie
/// file rlottie loops on: the stand-in is a frame that draws for a second or more) is answered 503 at the
/// limit, naming the template; its worker is replaced, so other templates keep rendering, and
/// the template's next frames are refused at once until a file of the folder changes.
@Suite struct StudioFrameTimeoutTests {
  static let slow = SlowFrameTemplate.text(layers: 12)

  @Test func aFrameOverTheLimitIsAnsweredAndItsWorkerReplaced() throws {
    let h = try StudioHarness(workers: 1, files: ["slow.json5": Self.slow], frameTimeout: 0.1)
    let started = Date()
    let hung = try h.get("/api/frame.png?template=slow.json5&t=0")
    expectEqual(hung.status, 503, "\(hung.text)")
    #expect(hung.text.contains("a frame of 'slow.json5' has been drawing for more than 0.1 s"), "\(hung.text)")
    #expect(hung.text.contains("--frame-timeout"), "\(hung.text)")
    expectLess(Date().timeIntervalSince(started), 30, "answered at the limit, not when the frame ended")
    // The one worker drew on; its replacement renders another template meanwhile.
    let other = try h.get("/api/frame.png?template=pulse.json5&t=0")
    expectEqual(other.status, 200, "\(other.text)")
    // The hung template is refused at once, not given a second worker.
    let again = try h.get("/api/frame.png?template=slow.json5&t=0.1")
    expectEqual(again.status, 503, "\(again.text)")
    #expect(again.text.contains("save the template or a file it reads"), "\(again.text)")
  }
}
