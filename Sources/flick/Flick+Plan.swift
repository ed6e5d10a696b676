import FlickMotion
import FlickBatch
import FlickTemplates
import Foundation

extension Flick {
  /// `flick plan MANIFEST -o plan.json`
  enum PlanCommand {
    static let help = """
      USAGE: flick plan MANIFEST.json5 -o plan.json [--list] [--shards N] [--allow-outside-manifest]
                        [--allow-outside-assets]

      Expands a batch manifest (templates × parameter sets × sizes × formats, docs/scale-out.md) into
      a fixed, ordered list of jobs, each with a content-hash id over everything that decides its
      bytes. Clips longer than their 'chunk' become one job per chunk plus a merge. Workers then run
      their share with 'flick run plan.json --shard I/N' and a last step runs 'flick merge plan.json'.

      A manifest is untrusted input: every path in it (template, variants params files, data,
      output) must stay inside the manifest's folder, through symbolic links; the output folder and
      the folders in it must not be links; names taken from data become plain names (letters,
      digits, '.', '_', '-'). Caps: manifest 4 MiB; data and params files 16 MiB; CSV 10,001 rows,
      256 fields a row, 10,000 characters a field; 10,000 variants; 256 MiB of templates loaded
      (one load per variant); 100,000 jobs. Give 'flick run' and 'flick merge' the same --allow-*
      options as 'flick plan'.

      Each job's template is loaded and checked as 'flick render' checks one: its fonts are
      installed, every picture decodes and every Lottie file loads; and each job must stay under
      the caps below (its frames, frame pixels and frames × pixels × motion-blur samples). A job
      that fails either is refused here (exit 2, located in the template or at the render in the
      manifest), not when a worker draws it. Give 'flick run' the same caps: it checks them again
      for each job, with the memory cap, before rendering.

      OPTIONS
        -o, --output PATH           where to write the plan (JSON); '-' for stdout
        --list                      also print one line per job: index, id, kind, name, and its
                                    shard when --shards is given
        --shards N                  print how the jobs split into N shards: each shard's jobs and
                                    estimated cost (frames × pixels × (1 + format weights), in
                                    megapixel-frames of rasterising), and max / mean; -o is then
                                    optional
        --allow-outside-manifest    accept template, data, params and output paths outside the
                                    manifest's folder
        --allow-outside-assets      honour a render's 'allowOutsideAssets: true' (refused without)

      CAPS (\(Limits.variables(Limits.planCaps)))
      \(Limits.help(Limits.planCaps))
      """

    /// The flags that widen what a manifest may reach, for `plan`, `run` and `merge`.
    static let policyFlags: Set<String> = ["allow-outside-manifest", "allow-outside-assets"]
    /// What `--shards` takes.
    static let shardsRule = NumberRule.whole(1...1_000_000)

    /// The policy those flags give.
    static func policy(_ a: Arguments) -> ManifestPolicy {
      ManifestPolicy(
        allowOutsideFolder: a.has("allow-outside-manifest"), allowOutsideAssets: a.has("allow-outside-assets"))
    }

    static func run(_ args: [String]) throws {
      let a = try Arguments(
        args, valued: Set(["o", "output", "shards"] + Limits.planCaps.map(\.option)),
        flags: Set(["help", "h", "list"]).union(policyFlags),
        checks: NumberRule.checks(["shards": shardsRule]).merging(Limits.checks(Limits.planCaps)) { a, _ in a })
      if a.has("help") || a.has("h") {
        StandardStream.writeOutputLine(help)
        return
      }
      guard a.positionals.count == 1, let path = a.positionals.first else {
        throw CommandError.usage(
          a.positionals.isEmpty ? "plan needs a MANIFEST" : "plan takes one MANIFEST")
      }
      let shards = try a.whole("shards", in: ["shards": shardsRule])
      guard let output = a.value("o") ?? a.value("output") ?? (shards == nil ? nil : "") else {
        throw CommandError.usage("plan needs -o plan.json")
      }
      let caps = try Limits.render(a, caps: Limits.planCaps)
      let plan: BatchPlan
      do {
        plan = try BatchPlan(
          manifest: try Manifest.load(path: path, policy: policy(a)), flickVersion: Flick.version, caps: caps)
      } catch {
        throw CommandError(message: error.description, code: .invalidInput)
      }
      if output != "-", !output.isEmpty { try refuseSideOutput(output, json: true, inputs: plan.inputs) }
      let folder =
        output == "-"
        ? FileManager.default.currentDirectoryPath : URL(fileURLWithPath: output).deletingLastPathComponent().path
      let document = plan.document(planFolder: URL(fileURLWithPath: folder).standardizedFileURL.path)
      if output == "-" {
        StandardStream.writeOutput(document.encoded())
      } else if !output.isEmpty {
        do {
          try AtomicDestination.write(document.encoded(), to: output)
        } catch {
          throw CommandError(
            message: "cannot write \(quoted: output): \(escaped: MessageText.reason(error))", code: .environment)
        }
      }
      if !output.isEmpty, document.manifest.hasPrefix("/"), !a.has("allow-outside-manifest") {
        log(
          "note: the manifest is not in the plan's folder or below it; 'flick run', 'merge' and 'status' "
            + "read this plan only with --allow-outside-manifest (write the plan beside the manifest)")
      }
      let assigned = shards.map { ShardBalance.assign(document.jobs, count: $0) }
      if a.has("list") {
        // One write for the whole list: a plan can have thousands of jobs.
        StandardStream.writeOutput(
          document.jobs.map { job in
            "\(job.index)\t\(job.id.prefix(12))\t\(job.kind)\t\(job.name)"
              + (assigned.map { "\tshard \($0[job.index] + 1)" } ?? "") + "\n"
          }.joined())
      }
      if let shards { printShards(document, count: shards) }
      let chunks = document.jobs.filter { $0.kind == "chunk" }.count
      log(
        "planned \(document.jobs.count) job\(document.jobs.count == 1 ? "" : "s")"
          + (chunks > 0
            ? " (\(chunks) chunks of \(document.merges.count) clip\(document.merges.count == 1 ? "" : "s") to merge)"
            : "")
          + (output == "-" || output.isEmpty ? "" : " into \(quoted: output)"))
    }

    /// Prints each shard's jobs and estimated cost (``FlickBatch/ShardBalance``) and max / mean.
    static func printShards(_ plan: Plan, count: Int) {
      let assigned = ShardBalance.assign(plan.jobs, count: count)
      let loads = ShardBalance.loads(plan.jobs, count: count)
      let total = loads.reduce(0, +)
      // Cost units are per mille of a pixel-frame's rasterising: megapixel-frames are 10⁹ units.
      for (s, load) in loads.enumerated() {
        let jobs = assigned.filter { $0 == s }.count
        StandardStream.writeOutputLine(
          "shard \(s + 1)/\(count)\t\(jobs) job\(jobs == 1 ? "" : "s")\t"
            + String(
              format: "%.2f MPx-frames\t%.1f %%", Double(load) / 1e9,
              total > 0 ? 100 * Double(load) / Double(total) : 0))
      }
      let mean = Double(total) / Double(count)
      StandardStream.writeOutputLine(String(format: "max / mean %.3f", mean > 0 ? Double(loads.max() ?? 0) / mean : 1))
    }
  }
}
