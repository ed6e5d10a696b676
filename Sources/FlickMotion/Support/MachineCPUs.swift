import Foundation

/// How many CPUs this process may run on: its affinity mask (`taskset`, a cgroup's cpuset, a
/// Slurm task's binding), which `ProcessInfo.activeProcessorCount` does not read on Linux. Flick
/// sizes its raster workers, its helper threads and the jobs `flick run` finishes at once by it.
package enum MachineCPUs {
  /// The CPUs of the process's affinity mask (`Cpus_allowed_list` in `/proc/self/status`), or
  /// `activeProcessorCount` where there is no such list; at least 1. Read once per process.
  package static let usable: Int = {
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    return count(status: status) ?? max(1, ProcessInfo.processInfo.activeProcessorCount)
  }()

  /// The CPUs of the `Cpus_allowed_list` line of a `/proc/PID/status` text ("0-3,8,10-11"
  /// counts 7), or nil when it has none or it does not read as a list of CPUs.
  package static func count(status: String) -> Int? {
    guard
      let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Cpus_allowed_list:") }),
      let list = line.split(separator: ":", maxSplits: 1).last
    else { return nil }
    var total = 0
    for part in list.trimmingCharacters(in: .whitespaces).split(separator: ",") {
      let bounds = part.split(separator: "-", omittingEmptySubsequences: false)
      guard (1...2).contains(bounds.count), let low = Int(bounds[0]), low >= 0,
        let high = bounds.count == 2 ? Int(bounds[1]) : low, high >= low, high < 1 << 20
      else { return nil }
      total += high - low + 1
    }
    return total > 0 ? total : nil
  }
}
