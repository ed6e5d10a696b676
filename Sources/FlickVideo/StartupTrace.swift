import FlickMotion
import Foundation

/// Timestamps of the start-up stages of a `flick` command (template loaded, ffmpeg started,
/// first frame written, encoder flushed …), printed to stderr when `FLICK_TRACE_STARTUP` is
/// set, to see where the fixed cost of a short clip goes (`docs/benchmarks.md`). Off, a mark
/// costs one load of a flag; the marks never change what is rendered.
///
///     FLICK_TRACE_STARTUP=1 flick still card-swap -o x.png
///     # startup    0.0 ms  main (process started 20 ms before)
///     # startup   31.4 ms  template loaded
package enum StartupTrace {
  /// Whether tracing is on (`FLICK_TRACE_STARTUP` set and not `0`).
  package static let isOn: Bool = {
    guard let value = getenv("FLICK_TRACE_STARTUP") else { return false }
    return String(cString: value) != "0"
  }()

  private static let origin = Locked<Double?>(nil)

  /// Seconds on the monotonic clock.
  private static func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
  }

  /// Prints `stage` with the time since the first mark (the first also says how long ago the
  /// process started, to the kernel's clock tick).
  package static func mark(_ stage: @autoclosure () -> String) {
    guard isOn else { return }
    let t = now()
    let (start, first) = origin.withLock { value -> (Double, Bool) in
      if let value { return (value, false) }
      value = t
      return (t, true)
    }
    var line = String(format: "startup %7.1f ms  ", (t - start) * 1000) + stage()
    if first, let age = processAge(at: t) { line += String(format: " (process started %.0f ms before)", age * 1000) }
    StandardStream.writeError(line + "\n")
  }

  /// Seconds since this process started (from `/proc/self/stat`, in clock ticks), or nil.
  private static func processAge(at t: Double) -> Double? {
    guard let stat = try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8),
      let close = stat.lastIndex(of: ")")
    else { return nil }
    let fields = stat[stat.index(after: close)...].split(separator: " ")
    // Field 22 (starttime) counted from 1 at the pid; after ")" the first field is 3 (state).
    guard fields.count > 19, let ticks = Double(fields[19]) else { return nil }
    var boot = timespec()
    clock_gettime(CLOCK_BOOTTIME, &boot)
    let sinceBoot = Double(boot.tv_sec) + Double(boot.tv_nsec) / 1e9
    return sinceBoot - ticks / Double(sysconf(Int32(_SC_CLK_TCK)))
  }
}
