import FlickExpectations
import FlickTestSupport
import Foundation
import Testing

/// The tests start their processes as a user's shell does, with no signal blocked
/// (`Process.runUnblocked`): the test runner's threads block nearly every signal, and a child
/// that inherited that mask never saw the SIGTERM a test or `scripts/test-watchdog` sent it.
@Suite struct ProcessSignalMaskTests {
  /// The blocked-signal mask `/proc/self/status` shows for a process `ProcessRunner` starts.
  static func childMask() throws -> String {
    let r = try ProcessRunner.run("/bin/grep", ["^SigBlk:", "/proc/self/status"])
    expectEqual(r.status, 0, "\(r.stderr)")
    return r.text.trimmingCharacters(in: .whitespacesAndNewlines)
  }

  @Test func aChildStartedFromATestBlocksNoSignal() async throws {
    // From a worker thread of the runner (this async test's), and from a thread of OffPool's.
    expectEqual(try Self.childMask(), "SigBlk:\t0000000000000000")
    expectEqual(try await OffPool.run { try Self.childMask() }, "SigBlk:\t0000000000000000")
  }

  @Test func aChildEndsAtTheFirstSIGTERM() async throws {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/bin/sleep")
    p.arguments = ["600"]
    try p.runUnblocked()
    kill(p.processIdentifier, SIGTERM)
    // A child that blocked SIGTERM would sleep on: it is killed after 30 s, and the test fails.
    let ended = try await OffPool.run {
      let start = Date()
      while p.isRunning && Date().timeIntervalSince(start) < 30 { usleep(10_000) }
      return !p.isRunning
    }
    if !ended { kill(p.processIdentifier, SIGKILL) }
    p.waitUntilExit()
    #expect(ended, "sleep outlived its SIGTERM by 30 s")
    expectEqual(p.terminationReason, .uncaughtSignal)
    expectEqual(p.terminationStatus, SIGTERM)
  }
}
