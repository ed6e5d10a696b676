import Foundation

/// A shell script that stands in for a tool (ffmpeg, gifsicle) in a test: it appends each run's
/// arguments to a log, one line a run, then runs the real tool with them. With `sizes`, a line
/// starts with the sizes in bytes of the temporaries it names (`*.partial`), taken before the run.
package struct NotingWrapper {
  /// The script, to give where the tool's path goes (`FLICK_FFMPEG`, `FLICK_GIFSICLE`).
  package let path: String
  /// The log it appends to.
  package let log: URL

  /// Writes the script for `tool` (its name in the folder) running `real`, into `folder`.
  package init(_ tool: String, real: String, in folder: URL, sizes: Bool = false) throws {
    log = folder.appendingPathComponent("\(tool).log")
    let script = folder.appendingPathComponent("\(tool)-noting")
    let noteSizes =
      sizes
      ? "for a in \"$@\"; do case \"$a\" in *.partial) printf '%s ' \"$(wc -c < \"$a\" 2>/dev/null)\" >> '\(log.path)';; esac; done\n"
      : ""
    try "#!/bin/sh\n\(noteSizes)printf '%s\\n' \"$*\" >> '\(log.path)'\nexec '\(real)' \"$@\"\n"
      .write(to: script, atomically: true, encoding: .utf8)
    try ExecutableScript.settle(script.path)
    path = script.path
  }

  /// The runs logged so far, one line each (none when there were none).
  package var runs: [Substring] {
    ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n")
  }

  /// Forgets the runs logged so far.
  package func clear() { try? FileManager.default.removeItem(at: log) }

  /// The first executable `name` on `PATH`, or nil.
  package static func onPath(_ name: String) -> String? {
    (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map { "\($0)/\(name)" }
      .first { FileManager.default.isExecutableFile(atPath: $0) }
  }
}
