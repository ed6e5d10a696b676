import FlickMotion
import FlickBatch
import FlickVideo
import Foundation

extension Flick {
  /// `flick run plan.json [--shard I/N | --shard auto] [--job ID]`
  enum RunCommand {
    static let help = """
      USAGE: flick run plan.json [--shard I/N | --shard auto [--shard-count N]] [--job JOB]... [options]

      Runs this worker's share of a plan: shard I of N (1-based) runs the jobs the plan's cost
      balance gives it (each job's frames × pixels × output formats, longest first; 'flick plan
      --shards N' prints the split). A job whose outputs exist with its stamp (its id) is skipped,
      like make. Once a job's frames are drawn, its outputs finish (encoders, gifsicle, commit)
      while the next job draws, when both fit under the memory cap; commits keep the plan's order.

      --shard auto reads the shard from the scheduler:
        SLURM_ARRAY_TASK_ID (0-based, --array=0-(N-1)) / SLURM_ARRAY_TASK_COUNT (MIN/MAX checked)
        JOB_COMPLETION_INDEX (Kubernetes Indexed Job, 0-based) with --shard-count N
        CI_NODE_INDEX (1-based) / CI_NODE_TOTAL (GitLab parallel:)
        BUILDKITE_PARALLEL_JOB / BUILDKITE_PARALLEL_JOB_COUNT, CIRCLE_NODE_INDEX / CIRCLE_NODE_TOTAL
      It refuses (exit 2) when none is set or two disagree. With --shard-count a Slurm array may be
      a subset of the shards (resubmit one failed index alone: --array=1).

      OPTIONS
        --shard I/N|auto    which share to run (default: every job)
        --shard-count N     the number of shards, for --shard auto
        --job JOB           run this job: '#N' (its index), its name (cards/2/640x360) or a
                            prefix of its id; ambiguous text is refused (repeatable)
        --index N           run the job at index N (as 'flick plan --list' numbers them; repeatable)
        --retries N         try a job that fails with an environment error (exit 3) up to N
                            more times (default 0); invalid input (exit 2) is never retried
        --list              print the jobs this worker would run (index, id, kind, name) and
                            stop: nothing is rendered, no report is written
        --force             render even jobs that are up to date
        --allow-outside-manifest, --allow-outside-assets
                            as given to 'flick plan' (the manifest is read again here)
                            (without the first, the plan's manifest must be in its folder)
        --keep-going        after a failed job, run the rest
        --report PATH       the JSON report (default OUTPUT/.flick/reports/shard-I-of-N.json,
                            run.json for the whole plan, jobs-….json for --job/--index)
        --jobs N            raster worker threads per job, and the most jobs finishing
                            beside them (default: the CPUs this process may use, which
                            taskset, a cpuset or a CPU quota lowers)
        --progress MODE     auto (a bar on a terminal, else lines), bar, lines (one per job),
                            json (one object per line, each with the job id), none
        -q, --quiet         print nothing but errors

      CAPS (\(Limits.variables(Limits.runCaps)))
      \(Limits.help(Limits.runCaps))
      Every job's render is checked against them before it starts (a job over one fails with exit
      2 without rendering; its template's fonts, pictures and Lottie files are checked when the
      plan is read again, exit 2 too), and the memory cap is watched for the whole process with its
      ffmpeg processes (exit 3 when reached).

      EXIT CODES (of the whole shard)
        0 every job rendered or up to date · 2 a job's input is invalid (do not retry) ·
        3 environment (ffmpeg, disk; retry) · 130 interrupted (retry). While it runs the report
        marks the job under way "running" and its lock (REPORT.lock) is held; 'flick status'
        reads a running job whose lock is free as "interrupted"
      """

    /// The options that take a plain number, and what each takes (`--index`'s upper bound is
    /// the plan's, checked once it is read).
    static let numbers: [String: NumberRule] = [
      "jobs": .whole(1...256), "shard-count": .whole(1...1_000_000), "retries": .whole(0...100),
      "index": .whole(0...Int(1e15)),
    ]

    /// The checks of every option with a number in its value, run as the arguments are parsed.
    static let checks: [String: Arguments.Check] = NumberRule.checks(numbers)
      .merging(Limits.checks(Limits.runCaps)) { a, _ in a }
      .merging(["shard": shardCheck]) { _, b in b }

    /// The check of `--shard`: `auto` or `I/N`.
    static let shardCheck: Arguments.Check = { text throws(CommandError) in
      guard text != "auto" else { return }
      do {
        _ = try Shard.parse(text)
      } catch {
        throw CommandError.usage(BatchError.from(error).description)
      }
    }

    static func run(_ args: [String]) throws {
      guard
        case let (a, path, quiet, style)? = try parse(
          args, command: "run", help: help,
          valued: Set(
            ["shard", "shard-count", "job", "index", "retries", "report", "jobs", "progress"]
              + Limits.runCaps.map(\.option)),
          flags: Set(["force", "keep-going", "list"]).union(PlanCommand.policyFlags), checks: checks)
      else { return }
      let threads = try a.whole("jobs", in: numbers)
      let count = try a.whole("shard-count", in: numbers)
      let limits = try Limits.render(a, caps: Limits.runCaps)
      let (plan, batch) = try load(path, policy: PlanCommand.policy(a))

      var shard: Shard?
      do {
        switch a.value("shard") {
        case nil:
          if count != nil { throw BatchError.invalidInput("--shard-count needs --shard auto") }
        case "auto": shard = try Shard.detect(environment: ProcessInfo.processInfo.environment, count: count)
        case let text?:
          if count != nil {
            throw BatchError.invalidInput("give --shard I/N or --shard auto --shard-count N, not both")
          }
          shard = try Shard.parse(text)
        }
      } catch {
        throw CommandError.usage(BatchError.from(error).description)
      }
      var indices = shard.map { s in plan.jobs(shard: s.index, of: s.count).map(\.index) } ?? plan.jobs.map(\.index)
      let picked = try selection(a, plan: plan)
      if let picked { indices = indices.filter(picked.contains) }
      let retries = try a.whole("retries", in: numbers) ?? 0
      if a.has("list") {
        // The jobs this worker would run, and nothing else (no report, no output).
        StandardStream.writeOutput(
          indices.map { i in "\(i)\t\(plan.jobs[i].id.prefix(12))\t\(plan.jobs[i].kind)\t\(plan.jobs[i].name)\n" }
            .joined())
        return
      }

      var runner = BatchRunner(plan: batch)
      runner.force = a.has("force")
      runner.keepGoing = a.has("keep-going")
      runner.retries = retries
      runner.limits = limits
      if let threads {
        runner.threads = threads
        runner.finishingJobs = min(runner.finishingJobs, threads)
      }
      let progress = BatchProgress(
        style: style, jobs: indices.count, frames: indices.reduce(0) { $0 + batch.jobs[$1].frames.count })
      let reportPath = a.value("report") ?? defaultReport(batch, shard: shard, picked: picked)
      try refuseSideOutput(reportPath, json: true, inputs: [path] + batch.inputs)
      // Held until the process ends: a reader (flick status) knows the report's running job is
      // under way exactly while the lock is held.
      let lock: RunLock
      do { lock = try RunLock(report: reportPath) } catch {
        throw CommandError(message: error.description, code: ExitCode(rawValue: error.exitCode))
      }
      defer { withExtendedLifetime(lock) {} }
      let owner = RunLock.owner
      Interruption.install()
      // The memory watch starts before the first job that renders, once every job has been
      // checked against the caps (a job over one is refused with exit 2, not stopped by the watch).
      let largest = indices.map { batch.jobs[$0].spec }.max { $0.width * $0.height < $1.width * $1.height }
      runner.willRender = { _ in Limits.startWatches(limits, width: largest?.width ?? 0, height: largest?.height ?? 0) }
      let (report, entries) = reported(command: "run", plan: path, shard: shard?.description, to: reportPath) { start in
        // Before each job it renders, the report is written as it stands should the run stop
        // there (that job interrupted, exit 130): an interruption, or a kill, leaves it behind.
        runner.checkpoint = { pending in
          write(
            BatchReport(
              command: "run", plan: path, shard: shard?.description, jobs: pending,
              seconds: Date().timeIntervalSince(start), owner: owner),
            to: reportPath)
        }
        return runner.run(indices: indices, progress: progress)
      }
      if !quiet {
        log(
          "\(quoted: shard.map { "shard \($0) (\($0.source)): " } ?? "")\(report.rendered) rendered, \(report.skipped) up to date, "
            + "\(quoted: report.failed) failed" + (report.notRun > 0 ? ", \(quoted: report.notRun) not run" : "")
            + String(format: " in %.2f s", report.seconds)
            + (report.rendered == 0 && report.failed == 0 ? ": nothing to do" : "")
            + "; report \(quoted: reportPath)")
      }
      for entry in entries where entry.status == .failed {
        log(
          "flick: job \(entry.index) \(quoted: entry.name) failed (exit \(entry.exitCode ?? 3)): "
            + MessageText.escaped(entry.error ?? ""))
      }
      if report.exitCode != 0 {
        withExtendedLifetime(lock) {}
        exit(report.exitCode)
      }
    }

    /// The set-up `run` and `merge` share: parses `args` (`--help`/`-h` and `--quiet`/`-q` are
    /// added to `flags`), prints `help` and returns nil for `--help`, and checks for the one plan
    /// path.
    ///
    /// - Returns: The arguments, the plan path, whether to be quiet and the `--progress` style.
    static func parse(
      _ args: [String], command: String, help: String, valued: Set<String>, flags: Set<String>,
      checks: [String: Arguments.Check]
    ) throws -> (Arguments, path: String, quiet: Bool, style: BatchProgress.Style)? {
      let a = try Arguments(
        args, valued: valued, flags: flags.union(["help", "h", "quiet", "q"]),
        repeatable: Arguments.repeatable.union(["job", "index"]), checks: checks)
      if a.has("help") || a.has("h") {
        StandardStream.writeOutputLine(help)
        return nil
      }
      guard a.positionals.count == 1, let path = a.positionals.first else {
        throw CommandError.usage(
          a.positionals.isEmpty ? "\(command) needs a plan.json" : "\(command) takes one plan")
      }
      let quiet = a.has("quiet") || a.has("q")
      return (a, path, quiet, try progressStyle(a, quiet: quiet))
    }

    /// Runs `body` (the jobs), timing it, and writes what it returns as the `command`'s report
    /// to `reportPath`.
    static func reported(
      command: String, plan path: String, shard: String?, to reportPath: String,
      _ body: (_ start: Date) throws -> [BatchReport.Entry]
    ) rethrows -> (BatchReport, [BatchReport.Entry]) {
      let start = Date()
      let entries = try body(start)
      let report = BatchReport(
        command: command, plan: path, shard: shard, jobs: entries, seconds: Date().timeIntervalSince(start))
      write(report, to: reportPath)
      return (report, entries)
    }

    /// Reads the plan and re-plans its manifest here, refusing a stale plan, and (when
    /// `drawable`, for `run`) a template that cannot draw here (a missing font, a picture that
    /// does not decode: exit 2, located in the template).
    static func load(_ path: String, policy: ManifestPolicy, drawable: Bool = true) throws -> (Plan, BatchPlan) {
      do {
        let plan = try Plan.load(path: path)
        return (
          plan,
          try BatchPlan.load(
            plan: plan, planPath: path, flickVersion: Flick.version, policy: policy, drawable: drawable)
        )
      } catch {
        throw CommandError(message: error.description, code: ExitCode(rawValue: error.exitCode))
      }
    }

    /// `--progress`: auto is a bar on a terminal and one line per job otherwise (logs).
    static func progressStyle(_ a: Arguments, quiet: Bool) throws -> BatchProgress.Style {
      if quiet { return .none }
      switch a.value("progress") ?? "auto" {
      case "auto": return isatty(2) == 1 ? .bar : .lines
      case let text:
        guard let style = BatchProgress.Style(rawValue: text) else {
          throw CommandError.usage(
            "--progress \(quoted: text) is not one of auto, bar, lines, json, none")
        }
        return style
      }
    }

    /// Writes `report` whole (a temporary file renamed into place) with the cleanup registry
    /// locked, so an interruption waits until it is written and leaves no temporary file.
    static func write(_ report: BatchReport, to path: String) {
      let url = URL(fileURLWithPath: path)
      Cleanup.shared.locked {
        do {
          try FileManager.default.createDirectory(
            at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
          try AtomicDestination.write(report.encoded(), to: url.path)
        } catch {
          log("flick: cannot write the report \(quoted: path): \(escaped: MessageText.reason(error))")
        }
      }
    }
  }
}
