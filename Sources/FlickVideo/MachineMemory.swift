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
  package static let limit: Int = limit(
    physical: Int(clamping: ProcessInfo.processInfo.physicalMemory), root: "/")

  /// ``limit`` as read under `root` (a folder standing for `/`, for tests): its
  /// `proc/self/cgroup` and `sys/fs/cgroup`.
  ///
  /// - Parameter physical: The machine's physical memory, in bytes.
  package static func limit(physical: Int, root: String) -> Int {
    let base = URL(fileURLWithPath: root)
    let groups = (try? String(contentsOf: base.appendingPathComponent("proc/self/cgroup"), encoding: .utf8)) ?? ""
    let mount = base.appendingPathComponent("sys/fs/cgroup")
    var candidates: [URL] = []
    for line in groups.split(separator: "\n") {
      // hierarchy-ID:controllers:path, "0::path" for v2.
      let fields = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
      guard fields.count == 3 else { continue }
      let path = String(fields[2])
      if fields[0] == "0" && fields[1].isEmpty {
        candidates += ancestors(of: path).map { mount.appendingPathComponent($0).appendingPathComponent("memory.max") }
      } else if fields[1].split(separator: ",").contains("memory") {
        let v1 = mount.appendingPathComponent("memory")
        candidates += ancestors(of: path).map {
          v1.appendingPathComponent($0).appendingPathComponent("memory.limit_in_bytes")
        }
      }
    }
    // In a container the visible hierarchy's root is the container's own group.
    candidates.append(mount.appendingPathComponent("memory.max"))
    candidates.append(mount.appendingPathComponent("memory/memory.limit_in_bytes"))
    var limit = physical > 0 ? physical : Int.max
    for file in candidates {
      guard let text = try? String(contentsOf: file, encoding: .utf8),
        let bytes = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)), bytes > 0
      else { continue }  // "max", or no such file: no limit there.
      limit = min(limit, bytes)
    }
    return limit
  }

  /// `path` and every folder above it, up to the root ("/a/b" → "a/b", "a", ""); none for a
  /// path that climbs (`..`), which the kernel never writes.
  private static func ancestors(of path: String) -> [String] {
    var parts = path.split(separator: "/").map(String.init)
    guard !parts.contains("..") else { return [] }
    var out: [String] = []
    while true {
      out.append(parts.joined(separator: "/"))
      if parts.isEmpty { break }
      parts.removeLast()
    }
    return out
  }
}
