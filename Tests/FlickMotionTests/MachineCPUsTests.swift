import FlickExpectations
import FlickTestSupport
import Foundation
import Testing

@testable import FlickMotion

/// `MachineCPUs` counts the process's affinity mask and its control groups' CPU quota, which
/// `activeProcessorCount` does not read: the `Cpus_allowed_list` of `/proc/self/status`, as the
/// kernel writes it under `taskset`, and `cpu.max` or `cpu.cfs_quota_us` on fake trees.
@Suite struct MachineCPUsTests {
  @Test func listsAreCounted() {
    expectEqual(MachineCPUs.count(status: "Name:\tflick\nCpus_allowed:\t3\nCpus_allowed_list:\t0-1\n"), 2)
    expectEqual(MachineCPUs.count(status: "Cpus_allowed_list:\t0-3,8,10-11\n"), 7)
    expectEqual(MachineCPUs.count(status: "Cpus_allowed_list:\t5\n"), 1)
    for odd in [
      "", "Name:\tx\n", "Cpus_allowed_list:\t\n", "Cpus_allowed_list:\t3-1\n", "Cpus_allowed_list:\ta-b\n",
      "Cpus_allowed_list:\t0--2\n", "Cpus_allowed_list:\t-1\n", "Cpus_allowed_list:\t0-99999999\n",
    ] {
      #expect(MachineCPUs.count(status: odd) == nil, "\(odd.debugDescription)")
    }
  }

  @Test func thisProcessAndATasksetOneAreCounted() throws {
    let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
    expectEqual(MachineCPUs.usable, try #require(MachineCPUs.count(status: status)))
    #expect(MachineCPUs.usable <= ProcessInfo.processInfo.activeProcessorCount)
    // What the kernel writes for a process `taskset` bound to one CPU.
    let taskset = try #require(
      ["/usr/bin/taskset", "/bin/taskset"].first { FileManager.default.isExecutableFile(atPath: $0) },
      "taskset (util-linux) is missing")
    let p = Process()
    p.executableURL = URL(fileURLWithPath: taskset)
    p.arguments = ["-c", "0", "cat", "/proc/self/status"]
    let out = Pipe()
    p.standardOutput = out
    try p.runUnblocked()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    expectEqual(p.terminationStatus, 0)
    expectEqual(MachineCPUs.count(status: String(decoding: data, as: UTF8.self)), 1)
  }

  static func usable(_ files: [String: String], list: String = "0-15", cores: Int = 16) throws -> Int {
    let dir = try MachineMemoryTests.root(files)
    defer { try? FileManager.default.removeItem(at: dir) }
    return MachineCPUs.usable(status: "Cpus_allowed_list:\t\(list)\n", root: dir.path, cores: cores)
  }

  @Test func aQuotaLowersTheCountRoundedUp() throws {
    // A pod's limits.cpu: 1.5 on a 16-CPU node (v2, on the pod's group above the container's).
    expectEqual(
      try Self.usable([
        "proc/self/cgroup": "0::/kubepods/pod1/ctr\n", "sys/fs/cgroup/kubepods/pod1/ctr/cpu.max": "max 100000\n",
        "sys/fs/cgroup/kubepods/pod1/cpu.max": "150000 100000\n",
      ]), 2)
    // docker run --cpus 1 (v1), and a container's own root.
    expectEqual(
      try Self.usable([
        "proc/self/cgroup": "4:cpu,cpuacct:/docker/abc\n", "sys/fs/cgroup/cpu/docker/abc/cpu.cfs_quota_us": "100000\n",
        "sys/fs/cgroup/cpu/docker/abc/cpu.cfs_period_us": "100000\n",
      ]), 1)
    expectEqual(try Self.usable(["proc/self/cgroup": "0::/\n", "sys/fs/cgroup/cpu.max": "400000 100000\n"]), 4)
    // The affinity mask is tighter than the quota.
    expectEqual(
      try Self.usable(["proc/self/cgroup": "0::/\n", "sys/fs/cgroup/cpu.max": "400000 100000\n"], list: "3"), 1)
    // No quota: "max", -1, garbage, nothing; and no list at all: the cores.
    expectEqual(
      try Self.usable([
        "proc/self/cgroup": "0::/a\n4:cpu:/b\n", "sys/fs/cgroup/a/cpu.max": "max 100000\n",
        "sys/fs/cgroup/cpu/b/cpu.cfs_quota_us": "-1\n", "sys/fs/cgroup/cpu/b/cpu.cfs_period_us": "100000\n",
        "sys/fs/cgroup/cpu.max": "12 x\n",
      ]), 16)
    let dir = try MachineMemoryTests.root([:])
    defer { try? FileManager.default.removeItem(at: dir) }
    expectEqual(MachineCPUs.usable(status: "", root: dir.path, cores: 6), 6)
    expectEqual(MachineCPUs.usable(status: "", root: dir.path, cores: 0), 1)
  }
}
