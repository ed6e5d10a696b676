import FlickExpectations
import Foundation
import Testing

@testable import FlickVideo

/// An interruption after the run's last output is in place (`flick still`'s PNG committed under
/// ``Cleanup``'s lock) changes nothing and does not end the process; one before it removes the
/// temporary and leaves the destination as it was. Each test uses a registry of its own: an
/// interruption keeps its lock held.
@Suite struct CleanupCompletionTests {
  static func files(_ name: String) throws -> (folder: URL, destination: String, temporary: String) {
    let folder = try TestSupport.temporaryDirectory()
    let destination = folder.appendingPathComponent(name).path
    try Data("old".utf8).write(to: URL(fileURLWithPath: destination))
    let temporary = folder.appendingPathComponent(".\(name).\(getpid()).tmp").path
    try Data("new".utf8).write(to: URL(fileURLWithPath: temporary))
    return (folder, destination, temporary)
  }

  @Test func anInterruptionAfterTheLastCommitLeavesTheOutputAndTheProcessAlone() throws {
    let (folder, destination, temporary) = try Self.files("still.png")
    defer { try? FileManager.default.removeItem(at: folder) }
    let cleanup = Cleanup()
    cleanup.register(temporaryFile: temporary)
    #expect(cleanup.commitLastFile(temporary, to: destination) == nil)
    expectEqual(cleanup.interruptAll(), false)
    try expectEqual(String(contentsOfFile: destination, encoding: .utf8), "new")
    #expect(!FileManager.default.fileExists(atPath: temporary))
    // The lock was given back: another thread can take it.
    let taken = DispatchSemaphore(value: 0)
    let other = Thread {
      cleanup.locked { () -> Void in taken.signal() }
    }
    other.start()
    expectEqual(taken.wait(timeout: .now() + 10), .success)
  }

  @Test func anInterruptionBeforeItRemovesTheTemporaryAndKeepsTheDestination() throws {
    let (folder, destination, temporary) = try Self.files("still.png")
    defer { try? FileManager.default.removeItem(at: folder) }
    let cleanup = Cleanup()
    cleanup.register(temporaryFile: temporary)
    expectEqual(cleanup.interruptAll(), true)
    #expect(!FileManager.default.fileExists(atPath: temporary))
    try expectEqual(String(contentsOfFile: destination, encoding: .utf8), "old")
  }

  @Test func aFailedLastCommitIsNotCompletion() throws {
    let (folder, _, temporary) = try Self.files("still.png")
    defer { try? FileManager.default.removeItem(at: folder) }
    let cleanup = Cleanup()
    cleanup.register(temporaryFile: temporary)
    // The destination's folder does not exist: the rename fails.
    let nowhere = folder.appendingPathComponent("missing/still.png").path
    #expect(cleanup.commitLastFile(temporary, to: nowhere) != nil)
    expectEqual(cleanup.interruptAll(), true)
  }
}
