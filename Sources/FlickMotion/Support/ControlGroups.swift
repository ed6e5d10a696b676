import Foundation

/// The control groups (cgroups) that bound this process, as `/proc/self/cgroup` names them: the
/// folders whose limits apply (a container's, a Kubernetes pod's, a systemd slice's, a Slurm
/// job's), for ``MachineMemory`` and ``MachineCPUs``.
package enum ControlGroups {
  /// The folders of the process's groups, each from its own group up to the hierarchy's root:
  /// the unified (v2) hierarchy's under `sys/fs/cgroup`, and the v1 hierarchy of `controller`'s
  /// under `sys/fs/cgroup/CONTROLLER`; each list ends with its hierarchy's root, which inside a
  /// container with its own cgroup namespace is the container's group. Paths that climb (`..`),
  /// which the kernel never writes, are left out.
  ///
  /// - Parameter root: A folder standing for `/` (tests give a fake tree).
  package static func folders(v1 controller: String, root: String) -> (v2: [URL], v1: [URL]) {
    let base = URL(fileURLWithPath: root)
    let groups = (try? String(contentsOf: base.appendingPathComponent("proc/self/cgroup"), encoding: .utf8)) ?? ""
    let unified = base.appendingPathComponent("sys/fs/cgroup")
    let legacy = unified.appendingPathComponent(controller)
    var v2: [URL] = [], v1: [URL] = []
    for line in groups.split(separator: "\n") {
      // hierarchy-ID:controllers:path, "0::path" for v2.
      let fields = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
      guard fields.count == 3 else { continue }
      let path = String(fields[2])
      if fields[0] == "0" && fields[1].isEmpty {
        v2 += ancestors(of: path).map { unified.appendingPathComponent($0) }
      } else if fields[1].split(separator: ",").contains(Substring(controller)) {
        v1 += ancestors(of: path).map { legacy.appendingPathComponent($0) }
      }
    }
    return (v2 + [unified], v1 + [legacy])
  }

  /// The text of `name` in `folder` without the blanks and line ends around it, or nil when
  /// there is no such file. The kernel writes these files in ASCII; trimmed as bytes, without
  /// Foundation's character sets, whose first use costs every Flick process about 0.8 M
  /// instructions as it starts.
  package static func read(_ name: String, in folder: URL) -> String? {
    guard let text = try? String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8) else { return nil }
    let blank: (UInt8) -> Bool = { $0 == 0x20 || (0x09...0x0D).contains($0) }
    let bytes = text.utf8
    guard let first = bytes.firstIndex(where: { !blank($0) }), let last = bytes.lastIndex(where: { !blank($0) })
    else { return "" }
    return String(decoding: bytes[first...last], as: UTF8.self)
  }

  /// `path` and every folder above it, up to the root ("/a/b" → "a/b", "a", ""); none for a
  /// path that climbs.
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
