import Foundation

/// How many CPUs this process may keep busy: its affinity mask (`taskset`, a cgroup's cpuset, a
/// Slurm task's binding), lowered to its control groups' CPU quota (a Kubernetes pod's
/// `limits.cpu`, `docker run --cpus`), neither of which `ProcessInfo.activeProcessorCount` reads
/// on Linux. Flick sizes its raster workers, its helper threads and the jobs `flick run`
/// finishes at once by it.
package enum MachineCPUs {
  /// The CPUs of the process's affinity mask (`Cpus_allowed_list` in `/proc/self/status`, or
  /// `activeProcessorCount` where there is no such list), at most its quota rounded up; at least
  /// 1. Read once per process.
  package static let usable: Int = {
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    return usable(status: status, root: "/", cores: ProcessInfo.processInfo.activeProcessorCount)
  }()

  /// ``usable`` from a `/proc/self/status` text and the control groups under `root` (a folder
  /// standing for `/`, for tests), with `cores` (asked only then) where the status has no list.
  package static func usable(status: String, root: String, cores: @autoclosure () -> Int) -> Int {
    var count = count(status: status) ?? max(1, cores())
    if let quota = quota(root: root) { count = min(count, quota) }
    return max(1, count)
  }

  /// The CPUs of the `Cpus_allowed_list` line of a `/proc/PID/status` text ("0-3,8,10-11"
  /// counts 7), or nil when it has none or it does not read as a list of CPUs. Read as bytes:
  /// every Flick process reads it as it starts, and the status is all ASCII.
  package static func count(status: String) -> Int? {
    let key = Array("Cpus_allowed_list:".utf8)
    let bytes = Array(status.utf8)
    var start = 0
    while start < bytes.count {
      let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
      if bytes[start..<end].starts(with: key) { return count(list: bytes[(start + key.count)..<end]) }
      start = end + 1
    }
    return nil
  }

  /// The CPUs of a list ("0-3,8,10-11", between blanks), or nil when it does not read as one.
  private static func count(list: ArraySlice<UInt8>) -> Int? {
    let blank: (UInt8) -> Bool = { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
    guard let first = list.firstIndex(where: { !blank($0) }), let last = list.lastIndex(where: { !blank($0) })
    else { return nil }
    var total = 0
    for part in list[first...last].split(separator: UInt8(ascii: ",")) {
      let bounds = part.split(separator: UInt8(ascii: "-"), omittingEmptySubsequences: false)
      guard (1...2).contains(bounds.count), let low = number(bounds[0]),
        let high = bounds.count == 2 ? number(bounds[1]) : low, high >= low, high < 1 << 20
      else { return nil }
      total += high - low + 1
    }
    return total > 0 ? total : nil
  }

  /// The decimal number `digits` spells (digits only, at most 18), or nil.
  private static func number(_ digits: ArraySlice<UInt8>) -> Int? {
    guard !digits.isEmpty, digits.count <= 18 else { return nil }
    var value = 0
    for digit in digits {
      guard digit >= UInt8(ascii: "0") && digit <= UInt8(ascii: "9") else { return nil }
      value = value * 10 + Int(digit - UInt8(ascii: "0"))
    }
    return value
  }

  /// The tightest CPU quota of the process's control groups, in CPUs rounded up (1.5 CPUs: 2),
  /// or nil when none has one: v2 `cpu.max` ("QUOTA PERIOD", "max PERIOD" for none), v1
  /// `cpu.cfs_quota_us` (-1 for none) over `cpu.cfs_period_us`, in microseconds.
  static func quota(root: String) -> Int? {
    let folders = ControlGroups.folders(v1: "cpu", root: root)
    var quotas: [(quota: Int, period: Int)] = []
    for folder in folders.v2 {
      guard let fields = ControlGroups.read("cpu.max", in: folder)?.split(separator: " "), fields.count == 2,
        let quota = Int(fields[0]), let period = Int(fields[1])
      else { continue }
      quotas.append((quota, period))
    }
    for folder in folders.v1 {
      guard let quota = ControlGroups.read("cpu.cfs_quota_us", in: folder).flatMap({ Int($0) }),
        let period = ControlGroups.read("cpu.cfs_period_us", in: folder).flatMap({ Int($0) })
      else { continue }
      quotas.append((quota, period))
    }
    return quotas.filter { $0.quota > 0 && $0.period > 0 }
      .map { ($0.quota + $0.period - 1) / $0.period }
      .min()
  }
}
