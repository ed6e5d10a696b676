import Foundation

/// How much memory this process and its children may use on this machine: the physical memory,
/// or less under a control group's limit (a container's memory limit, a Kubernetes pod's, a
/// systemd slice's). `flick run` lets jobs finish beside one another only when their memory
/// estimates fit in half of it, so a run on a small runner never needs more memory than one
/// job at a time would.
package enum MachineMemory {
  /// The physical memory, lowered to the tightest memory limit of the process's control groups
  /// (v2 `memory.max`, v1 `memory.limit_in_bytes`, along the group's path up to the root), in
  /// bytes. Read once per process.
  package static let limit: Int = min(physical > 0 ? physical : Int.max, groupLimit ?? Int.max)

  /// The machine's physical memory, in bytes (0 where unknown).
  private static let physical = Int(clamping: ProcessInfo.processInfo.physicalMemory)

  /// ``limit`` as read under `root` (a folder standing for `/`, for tests): its
  /// `proc/self/cgroup` and `sys/fs/cgroup`.
  ///
  /// - Parameter physical: The machine's physical memory, in bytes (0 or less: unknown).
  package static func limit(physical: Int, root: String) -> Int {
    min(physical > 0 ? physical : Int.max, groupLimit(root: root) ?? Int.max)
  }

  /// The tightest memory limit of the process's control groups, in bytes, or nil when none has
  /// one below the physical memory (a container's limit, not the machine's size). The kernel
  /// kills a process outright at this limit; ``MemoryWatch`` stops a render cleanly before it.
  /// Read once per process.
  package static let groupLimit: Int? = groupLimit(root: "/").flatMap { physical <= 0 || $0 < physical ? $0 : nil }

  /// The tightest limit of v2 `memory.max` and v1 `memory.limit_in_bytes` along the process's
  /// group paths under `root` (a folder standing for `/`), or nil when none is a number.
  package static func groupLimit(root: String) -> Int? {
    let folders = ControlGroups.folders(v1: "memory", root: root)
    let values =
      folders.v2.compactMap { ControlGroups.read("memory.max", in: $0) }
      + folders.v1.compactMap { ControlGroups.read("memory.limit_in_bytes", in: $0) }
    // "max", garbage or nothing: no limit there.
    return values.compactMap { Int($0) }.filter { $0 > 0 }.min()
  }
}
