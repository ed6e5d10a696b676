import FlickExpectations
import Foundation
import Testing

@testable import FlickVideo

/// ``Subprocess/liveMembers(ofGroup:)`` and ``Subprocess/groupCPUTicks(_:)`` read every
/// `/proc/PID/stat` as bytes (`flick_group_scan`): the group is the fifth field, counted from
/// the last `)`, since a command's name may hold spaces and parentheses of its own.
@Suite struct ProcessGroupScanTests {
  /// A copy of `sleep` under a name that looks like the end of the name field and more fields.
  static func oddlyNamedSleep() throws -> (folder: URL, program: String) {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("flick-scan-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let program = folder.appendingPathComponent("z) S 1 1 (x").path
    try FileManager.default.copyItem(atPath: "/bin/sleep", toPath: program)
    return (folder, program)
  }

  /// The command names (`/proc/PID/comm`) of the group's live members.
  static func names(ofGroup group: Int32) -> Set<String> {
    Set(
      Subprocess.liveMembers(ofGroup: group).compactMap { FileManager.default.contents(atPath: "/proc/\($0)/comm") }
        .map { String(decoding: $0, as: UTF8.self).trimmingCharacters(in: .newlines) })
  }

  @Test func membersAreFoundByTheirGroupWhateverTheirNames() throws {
    let (folder, program) = try Self.oddlyNamedSleep()
    defer { try? FileManager.default.removeItem(at: folder) }
    let mark = SubprocessTests.marker()
    // The shell leads the group; the oddly named sleep and a plain one are members of it.
    let process = try Subprocess(
      executable: "/bin/sh", arguments: ["-c", "'\(program)' \(mark) & sleep \(mark) & wait"], output: .pipe)
    defer { process.stop() }
    // A member is named `sh` from its fork until its `exec`, so the scan waits for the names.
    #expect(SubprocessTests.eventually { Self.names(ofGroup: process.pid) == ["sh", "z) S 1 1 (x", "sleep"] })
    let members = Set(Subprocess.liveMembers(ofGroup: process.pid))
    expectEqual(members.count, 3)
    #expect(members.contains(process.pid))
    // The shell's command line holds the mark too.
    expectEqual(members, Set(SubprocessTests.running(mark)))
    // No other group's process, nor one of a group that does not exist.
    #expect(!members.contains(getpid()))
    #expect(Subprocess.liveMembers(ofGroup: Int32.max).isEmpty)
    process.stop()
    #expect(SubprocessTests.eventually { Subprocess.liveMembers(ofGroup: process.pid).isEmpty })
  }

  @Test func aBusyGroupsTicksGrowAndAnIdleOnesStayPut() throws {
    let busy = try Subprocess(
      executable: "/bin/sh", arguments: ["-c", "while :; do :; done & while :; do :; done & wait"], output: .pipe)
    defer { busy.stop() }
    let mark = SubprocessTests.marker()
    let idle = try Subprocess(executable: "/bin/sh", arguments: ["-c", "sleep \(mark) & wait"], output: .pipe)
    defer { idle.stop() }
    let start = Subprocess.groupCPUTicks(busy.pid)
    // Clock ticks are 10 ms: two spinning members use one within a few of them, even on a
    // loaded machine.
    #expect(SubprocessTests.eventually(within: 30) { Subprocess.groupCPUTicks(busy.pid) >= start + 5 })
    // The idle group's start (the shell's fork, `sleep` loading) uses ticks of its own: it is
    // idle once `sleep` runs and its ticks held for 0.1 s.
    var idleTicks = Subprocess.groupCPUTicks(idle.pid)
    #expect(
      SubprocessTests.eventually(within: 30) {
        usleep(100_000)
        let now = Subprocess.groupCPUTicks(idle.pid)
        defer { idleTicks = now }
        return Self.names(ofGroup: idle.pid).contains("sleep") && now == idleTicks
      })
    usleep(200_000)
    expectEqual(Subprocess.groupCPUTicks(idle.pid), idleTicks)
    expectEqual(Subprocess.groupCPUTicks(Int32.max), 0)
  }
}
