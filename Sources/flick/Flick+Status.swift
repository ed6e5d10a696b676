import FlickBatch
import FlickMotion
import FlickVideo
import Foundation

extension Flick {
  /// `flick status plan.json [--html FILE] [--watch]`
  enum StatusCommand {
    static let help = """
      USAGE: flick status plan.json [--html FILE] [--watch [--interval S]] [--jobs | --quiet]

      Where a plan stands: each job and merge is done (its outputs carry its id and a run report
      says it rendered them), up to date (its outputs carry its id), running (a live 'flick run'
      renders it now: one holding its report's lock), failed (its last run failed) or missing
      (never run, not run after a failure, or interrupted), read from the outputs' stamps and
      every report in OUTPUT/.flick/reports (every shard's, run.json, debug runs'). While shards
      run it prints an ETA from the cost of what is left at the rate the reports show.

      OPTIONS
        --html FILE       also write an HTML gallery: per clip a preview (the GIF, a PNG
                          sequence's first frame, or an MP4's poster frame in FILE.posters/), its
                          state, parameters, size, frames, time, and relative links to its outputs
        --watch           print the summary again every --interval seconds (default 2) until
                          nothing is running, then exit as below
        --jobs            print one line per job and merge (default: the failed, running and
                          missing ones, and the summary)
        -q, --quiet       print only the summary
        --allow-outside-manifest, --allow-outside-assets
                          as given to 'flick plan' (the manifest is read again here)
                          (without the first, the plan's manifest must be in its folder)

      EXIT CODES
        0 every job and merge is done or up to date · 1 some failed, or some are missing with
        nothing running · 4 some are running and none failed · 2 invalid input (a stale or
        broken plan) · 3 environment (the gallery cannot be written)
      """

    /// The options that take a plain number, and what each takes.
    static let numbers: [String: NumberRule] = ["interval": .whole(1...3600)]

    static func run(_ args: [String]) throws {
      let a = try Arguments(
        args, valued: ["html", "interval"],
        flags: Set(["help", "h", "watch", "jobs", "quiet", "q"]).union(PlanCommand.policyFlags),
        checks: NumberRule.checks(numbers))
      if a.has("help") || a.has("h") {
        StandardStream.writeOutputLine(help)
        return
      }
      guard a.positionals.count == 1, let path = a.positionals.first else {
        throw CommandError.usage(
          a.positionals.isEmpty ? "status needs a plan.json" : "status takes one plan")
      }
      let interval = try a.whole("interval", in: numbers) ?? 2
      let (_, batch) = try RunCommand.load(path, policy: PlanCommand.policy(a), drawable: false)
      if let html = a.value("html") { try refuseSideOutput(html, json: false, inputs: [path] + batch.inputs) }
      let quiet = a.has("quiet") || a.has("q")
      var status = BatchStatus(plan: batch)
      while a.has("watch") && status.count(.running) > 0 {
        StandardStream.writeOutput(status.summary + "\n")
        Thread.sleep(forTimeInterval: Double(interval))
        status = BatchStatus(plan: batch)
      }
      for problem in status.unreadable { log("flick: status: skipped a report: \(escaped: problem)") }
      if !quiet {
        for row in status.rows where a.has("jobs") || [.failed, .running, .missing].contains(row.state) {
          StandardStream.writeOutput(line(row) + "\n")
        }
      }
      StandardStream.writeOutput(status.summary + "\n")
      if let html = a.value("html") {
        do {
          try BatchGallery(plan: batch, status: status, path: html).write()
        } catch {
          throw CommandError(message: error.description, code: ExitCode(rawValue: error.exitCode))
        }
        if !quiet { log("gallery \(quoted: html)") }
      }
      if status.exitCode != 0 { exit(status.exitCode) }
    }

    /// One row: index (or `merge`), state, name, and what the last run said.
    static func line(_ row: BatchStatus.Row) -> String {
      var text =
        (row.index.map { "#\($0)" } ?? "merge") + "\t" + row.state.rawValue + "\t" + MessageText.escaped(row.name)
      if let detail = row.detail { text += " (\(detail))" }
      if let shard = row.shard { text += " · shard " + MessageText.escaped(shard) }
      if row.seconds > 0 { text += String(format: " · %.2f s", row.seconds) }
      if let attempts = row.attempts { text += " · \(attempts) attempts" }
      if let code = row.exitCode { text += " · exit \(code)" }
      if let error = row.error { text += ": " + MessageText.escaped(error) }
      return text
    }
  }
}
