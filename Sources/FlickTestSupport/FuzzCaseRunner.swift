import Foundation

/// Runs the `flick` binary on one fuzz case, as the hostile-input fuzz tests do: in the case's
/// folder, stdin the null device, optionally under a virtual-memory limit (`ulimit -v`), killed
/// (SIGKILL) once ``timeLimit`` has passed; and the checks every fuzz case shares (it answered,
/// it ended with exit 0, 2 or 3, it printed no raw terminal control or forged CI annotation, it
/// left no temporary file, a refusal says where).
///
///     let runner = FuzzCaseRunner(executable: flick, timeLimit: 120, memoryLimitKiB: 4 << 20)
///     let outcome = try runner.run(["info", "t.json5"], in: folder)
///     let problems = runner.problems(outcome)
package struct FuzzCaseRunner: Sendable {
  /// How one run ended, and what it printed.
  package struct Outcome: Sendable {
    /// The exit status, or the signal number when ``signalled``.
    package var status: Int32
    /// Whether a signal ended the process (a crash, or the kill after the time limit).
    package var signalled: Bool
    /// Whether the run was killed for taking longer than ``FuzzCaseRunner/timeLimit``.
    package var timedOut: Bool
    /// Its stderr (and its stdout too with ``FuzzCaseRunner/capturesStdout``), as UTF-8 text.
    package var output: String
  }

  /// The `flick` binary (each test target finds it its own way).
  package var executable: String
  /// Seconds a run may take before it is killed; generous: a run that takes this long is a hang.
  package var timeLimit: Double
  /// The virtual memory one run may map, in KiB (`ulimit -v`), or nil for no limit.
  package var memoryLimitKiB: Int?
  /// The whole environment of a run, or nil to inherit this process's.
  package var environment: [String: String]?
  /// Whether stdout is read into ``Outcome/output`` with stderr (else it is discarded).
  package var capturesStdout: Bool

  package init(
    executable: String, timeLimit: Double, memoryLimitKiB: Int? = nil, environment: [String: String]? = nil,
    capturesStdout: Bool = false
  ) {
    self.executable = executable
    self.timeLimit = timeLimit
    self.memoryLimitKiB = memoryLimitKiB
    self.environment = environment
    self.capturesStdout = capturesStdout
  }

  /// Runs `flick args` in `folder`, killing it after ``timeLimit`` seconds.
  package func run(_ args: [String], in folder: String) throws -> Outcome {
    let p = Process()
    if let memoryLimitKiB {
      p.executableURL = URL(fileURLWithPath: "/bin/sh")
      p.arguments = ["-c", "ulimit -v \(memoryLimitKiB); exec \"$@\"", "sh", executable] + args
    } else {
      p.executableURL = URL(fileURLWithPath: executable)
      p.arguments = args
    }
    if let environment { p.environment = environment }
    p.currentDirectoryURL = URL(fileURLWithPath: folder)
    let pipe = Pipe()
    p.standardError = pipe
    p.standardOutput = capturesStdout ? pipe : FileHandle.nullDevice
    p.standardInput = FileHandle.nullDevice
    try p.runUnblocked()
    let output = PipeDrain(pipe.fileHandleForReading)
    let timedOut = !output.ended(by: .now() + timeLimit)
    if timedOut { kill(p.processIdentifier, SIGKILL) }
    let text = String(decoding: output.wait(), as: UTF8.self)
    p.waitUntilExit()
    return Outcome(
      status: p.terminationStatus, signalled: p.terminationReason == .uncaughtSignal, timedOut: timedOut, output: text)
  }

  /// The raw characters a message must never print: ESC, CR, RIGHT-TO-LEFT OVERRIDE and NEL.
  package static let terminalControls: Set<Unicode.Scalar> = ["\u{1B}", "\r", "\u{202E}", "\u{85}"]

  /// What is wrong with `outcome` by the rules every fuzz case shares, one line a problem:
  /// no answer within the time limit; an end other than exit 0, 2 or 3; one of `controls` in
  /// the output; a line starting `::` (a forged CI annotation); for a refusal (exit 2) when
  /// `locations` is given, an output containing none of `locations` (it does not say where);
  /// when `folder` is given, a temporary file left in it (a hidden name, `.tmp` or `.partial`).
  package func problems(
    _ outcome: Outcome, controls: Set<Unicode.Scalar> = terminalControls, locations: [String]? = nil,
    leftoversIn folder: URL? = nil
  ) -> [String] {
    var found: [String] = []
    if outcome.timedOut { found.append("no answer within \(Int(timeLimit)) s") }
    if outcome.signalled || ![0, 2, 3].contains(outcome.status) {
      found.append("ended with \(outcome.signalled ? "signal" : "status") \(outcome.status)")
    }
    if let folder {
      let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter {
        $0.hasPrefix(".") || $0.hasSuffix(".tmp") || $0.hasSuffix(".partial")
      }
      if !names.isEmpty { found.append("left \(names)") }
    }
    if let locations, outcome.status == 2, !locations.contains(where: { outcome.output.contains($0) }) {
      found.append("a refusal that does not say where")
    }
    if outcome.output.unicodeScalars.contains(where: { controls.contains($0) }) {
      found.append("raw terminal controls in the \(capturesStdout ? "output" : "message")")
    }
    if outcome.output.split(separator: "\n").contains(where: { $0.hasPrefix("::") }) {
      found.append("a line that forges a CI annotation")
    }
    return found
  }

  /// `problems` of the case `seed` (about `theme`) that ran `flick args` as a failing test
  /// prints them: a line naming the case and the problem, then the first 400 characters of
  /// what the run printed and `input` (a name for it, then the start of the case's input).
  package func described(
    _ problems: [String], seed: UInt64, theme: String, args: [String], outcome: Outcome, input: (String, String)
  ) -> [String] {
    problems.map {
      "seed \(seed) (\(theme), flick \(args.joined(separator: " "))): \($0)\n"
        + "  \(capturesStdout ? "output" : "stderr"): \(outcome.output.prefix(400))\n  \(input.0): \(input.1)"
    }
  }
}
