import FlickExpectations
import Foundation
import Testing

@testable import FlickMotion

/// `MachineCPUs` counts the process's affinity mask, which `activeProcessorCount` does not read:
/// the `Cpus_allowed_list` of `/proc/self/status`, as the kernel writes it under `taskset`.
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
    try p.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    expectEqual(p.terminationStatus, 0)
    expectEqual(MachineCPUs.count(status: String(decoding: data, as: UTF8.self)), 1)
  }
}
