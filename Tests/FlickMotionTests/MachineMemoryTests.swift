import FlickExpectations
import FlickTestSupport
import Foundation
import Testing

@testable import FlickMotion

/// `MachineMemory.limit(physical:root:)` on fake `/proc/self/cgroup` and `/sys/fs/cgroup` trees:
/// the tightest limit along the process's group path, in cgroup v1 and v2, a container's own
/// view, and files that say nothing usable.
@Suite struct MachineMemoryTests {
  static let gib = 1 << 30

  /// A fake root with `files` (relative path → contents).
  static func root(_ files: [String: String]) throws -> URL {
    let dir = try ProcessRunner.temporaryDirectory(prefix: "flick-cgroup")
    for (path, text) in files {
      let url = dir.appendingPathComponent(path)
      try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try text.write(to: url, atomically: true, encoding: .utf8)
    }
    return dir
  }

  static func limit(_ files: [String: String], physical: Int = 8 << 30) throws -> Int {
    let dir = try root(files)
    defer { try? FileManager.default.removeItem(at: dir) }
    return MachineMemory.limit(physical: physical, root: dir.path)
  }

  @Test func aVersion1LimitOnTheGroupOrAboveIt() throws {
    let cgroup = "9:name=systemd:/\n4:memory:/runner/job7\n0::/\n"
    expectEqual(
      try Self.limit([
        "proc/self/cgroup": cgroup, "sys/fs/cgroup/memory/runner/job7/memory.limit_in_bytes": "1073741824\n",
      ]), Self.gib)
    expectEqual(
      try Self.limit([
        "proc/self/cgroup": cgroup, "sys/fs/cgroup/memory/runner/job7/memory.limit_in_bytes": "9223372036854771712\n",
        "sys/fs/cgroup/memory/runner/memory.limit_in_bytes": "2147483648\n",
      ]), 2 * Self.gib)
    // "Unlimited" (the largest page-aligned value) leaves the physical memory.
    expectEqual(
      try Self.limit([
        "proc/self/cgroup": cgroup, "sys/fs/cgroup/memory/runner/job7/memory.limit_in_bytes": "9223372036854771712\n",
      ]), 8 * Self.gib)
  }

  @Test func aVersion2LimitOnAnAncestorOrTheContainersOwnRoot() throws {
    expectEqual(
      try Self.limit([
        "proc/self/cgroup": "0::/kubepods/pod1/ctr\n", "sys/fs/cgroup/kubepods/pod1/ctr/memory.max": "max\n",
        "sys/fs/cgroup/kubepods/pod1/memory.max": "536870912\n", "sys/fs/cgroup/kubepods/memory.max": "max\n",
      ]), Self.gib / 2)
    // Inside a container with its own cgroup namespace the path is "/" and the root is its group.
    expectEqual(
      try Self.limit(["proc/self/cgroup": "0::/\n", "sys/fs/cgroup/memory.max": "268435456\n"]), Self.gib / 4)
    // A limit above the physical memory changes nothing.
    expectEqual(
      try Self.limit(["proc/self/cgroup": "0::/\n", "sys/fs/cgroup/memory.max": "68719476736\n"]), 8 * Self.gib)
  }

  @Test func nothingUsableLeavesThePhysicalMemory() throws {
    expectEqual(try Self.limit([:]), 8 * Self.gib)
    expectEqual(
      try Self.limit([
        "proc/self/cgroup": "garbage\n::\n4:memory\n0::/a/../../b\n", "sys/fs/cgroup/memory.max": "-5\n",
        "sys/fs/cgroup/memory/memory.limit_in_bytes": "12abc\n",
      ]), 8 * Self.gib)
    // An unknown physical size: only a group's limit counts.
    expectEqual(try Self.limit([:], physical: 0), Int.max)
    expectEqual(try Self.limit(["sys/fs/cgroup/memory.max": "1073741824"], physical: 0), Self.gib)
  }

  @Test func thisMachineHasALimit() {
    #expect(MachineMemory.limit > 0 && MachineMemory.limit <= Int(clamping: ProcessInfo.processInfo.physicalMemory))
  }

  @Test func theGroupLimitAloneIsTheTightestNumber() throws {
    let dir = try Self.root([
      "proc/self/cgroup": "0::/kubepods/pod1/ctr\n", "sys/fs/cgroup/kubepods/pod1/ctr/memory.max": "max\n",
      "sys/fs/cgroup/kubepods/pod1/memory.max": "536870912\n",
    ])
    defer { try? FileManager.default.removeItem(at: dir) }
    expectEqual(MachineMemory.groupLimit(root: dir.path), Self.gib / 2)
    let none = try Self.root(["proc/self/cgroup": "0::/\n", "sys/fs/cgroup/memory.max": "max\n"])
    defer { try? FileManager.default.removeItem(at: none) }
    #expect(MachineMemory.groupLimit(root: none.path) == nil)
  }
}
