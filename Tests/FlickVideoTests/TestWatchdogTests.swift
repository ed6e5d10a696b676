import FlickExpectations
import FlickTestSupport
import Foundation
import Testing

/// `scripts/test-watchdog` stops a `swift test` run that hangs and names the tests still running
/// (`make test` runs the Swift tests through it). These tests run it on a stand-in for `swift
/// test`: a bash script that writes Swift Testing events to the path the watchdog passes it
/// (`--event-stream-output-path`) and then hangs, exits or keeps a core busy.
@Suite struct TestWatchdogTests {
  static let script = TestSupport.root.appendingPathComponent("scripts/test-watchdog").path

  /// Writes the stand-in with `body` after its preamble (which sets `events` and `event KIND ID`)
  /// and runs the watchdog on it with `environment` added; the watchdog's exit status and stderr.
  static func watch(_ body: String, in dir: URL, environment: [String: String]) async throws -> (Int32, String) {
    let standIn = dir.appendingPathComponent("swift-test").path
    let preamble = #"""
      #!/bin/bash
      while [ $# -gt 0 ]; do
        [ "$1" = --event-stream-output-path ] && events=$2
        shift
      done
      event() { printf '{"kind":"event","payload":{"kind":"%s","testID":"%s"}}\n' "$1" "$2" >> "$events"; }

      """#
    try Data((preamble + body).utf8).write(to: URL(fileURLWithPath: standIn))
    var env = ProcessInfo.processInfo.environment
    env.merge(environment) { $1 }
    let merged = env
    // Run by bash rather than exec'd: a process another test thread forks while the file is open
    // for writing holds it open a moment longer, and exec'ing it then fails with ETXTBSY.
    // Waited for off the test runner's threads: the watchdog takes seconds by design.
    let r = try await OffPool.run {
      try TestSupport.run(Self.script, ["/bin/bash", standIn, "test"], environment: merged)
    }
    return (r.status, r.stderr)
  }

  /// Whether a process `pid` is alive (a zombie is not).
  static func alive(_ pid: String) -> Bool {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
      let close = stat.lastIndex(of: ")")
    else { return false }
    return stat[stat.index(after: close)...].split(separator: " ").first != "Z"
  }

  @Test func aRunThatHangsIsStoppedNamingItsTest() async throws {
    let dir = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let (status, stderr) = try await Self.watch(
      """
      event testStarted Fake.Suite
      event testStarted 'Fake.Suite/hangs()/Fake.swift:7:3'
      echo $$ > '\(dir.path)/pid'
      sleep 600 &
      echo $! > '\(dir.path)/child'
      wait

      """, in: dir, environment: ["TEST_WATCHDOG_IDLE": "2"])
    expectEqual(status, 124, "\(stderr)")
    #expect(stderr.contains("error: test-watchdog: no test started or ended for 2 s"), "\(stderr)")
    #expect(stderr.contains("still running for"), "\(stderr)")
    #expect(stderr.contains("Fake.Suite/hangs()/Fake.swift:7:3"), "\(stderr)")
    // The suite around the test is not listed as a test of its own.
    #expect(!stderr.contains(": Fake.Suite\n"), "\(stderr)")
    // The stand-in and what it started were stopped.
    for file in ["pid", "child"] {
      let pid = try String(contentsOfFile: dir.appendingPathComponent(file).path, encoding: .utf8)
        .trimmingCharacters(in: .whitespacesAndNewlines)
      #expect(!Self.alive(pid), "\(file) \(pid) outlived the watchdog")
    }
  }

  @Test func theCommandsOwnStatusPassesThrough() async throws {
    let dir = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let (status, stderr) = try await Self.watch(
      """
      event testStarted 'Fake.Suite/fails()/Fake.swift:1:1'
      event testEnded 'Fake.Suite/fails()/Fake.swift:1:1'
      exit 3

      """, in: dir, environment: ["TEST_WATCHDOG_IDLE": "1"])
    expectEqual(status, 3, "\(stderr)")
    #expect(!stderr.contains("test-watchdog"), "\(stderr)")
  }

  /// A run that keeps a core busy makes progress even when no test starts or ends.
  @Test func busyTestsAreNotAHang() async throws {
    let dir = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let (status, stderr) = try await Self.watch(
      """
      event testStarted 'Fake.Suite/works()/Fake.swift:1:1'
      while [ $SECONDS -lt 3 ]; do :; done
      event testEnded 'Fake.Suite/works()/Fake.swift:1:1'
      exit 0

      """, in: dir, environment: ["TEST_WATCHDOG_IDLE": "1"])
    expectEqual(status, 0, "\(stderr)")
    #expect(!stderr.contains("test-watchdog"), "\(stderr)")
  }

  @Test func aTestPastTheLimitIsStoppedEvenWhenBusy() async throws {
    let dir = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let (status, stderr) = try await Self.watch(
      """
      event testStarted 'Fake.Suite/spins()/Fake.swift:9:3'
      while :; do :; done

      """, in: dir, environment: ["TEST_WATCHDOG_IDLE": "100", "TEST_WATCHDOG_LIMIT": "1"])
    expectEqual(status, 124, "\(stderr)")
    #expect(stderr.contains("a test ran for 1 s (TEST_WATCHDOG_LIMIT): Fake.Suite/spins()"), "\(stderr)")
  }
}
