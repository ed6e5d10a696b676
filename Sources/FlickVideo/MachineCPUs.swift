import CSpawn
import Foundation

/// How many CPUs this process may run on: its affinity mask (`taskset`, a cgroup's cpuset, a
/// Slurm task's binding), which `ProcessInfo.activeProcessorCount` does not read on Linux.
/// `flick run` lets at most this many jobs finish beside the one it draws.
package enum MachineCPUs {
  /// The CPUs in the affinity mask, or `activeProcessorCount` where there is none; at least 1.
  /// Read once per process.
  package static let usable: Int = {
    let mask = Int(flick_usable_cpus())
    return max(1, mask > 0 ? mask : ProcessInfo.processInfo.activeProcessorCount)
  }()
}
