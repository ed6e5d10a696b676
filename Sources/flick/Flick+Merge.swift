import FlickBatch
import FlickVideo
import Foundation

extension Flick {
  /// `flick merge plan.json`
  enum MergeCommand {
    static let help = """
      USAGE: flick merge plan.json [--force] [--jobs N] [--report PATH] [--progress MODE] [-q]

      Joins the chunks of every chunked clip of a plan into its outputs: MP4 chunks with ffmpeg's
      concat demuxer without re-encoding; PNG sequences by copying the chunks' frames (the bytes of
      a single render); GIF, WebM, ProRes, APNG and WebP encoded now from the chunks' lossless
      frames (one palette for a whole GIF). Refuses with exit 3, writing nothing, when a chunk is
      missing or stale, and names it; with exit 2 when a chunk is damaged (a chunk file, folder or
      frame that is a symbolic link, a frame that does not decode or is not the clip's size) or a
      merged output is a symbolic link. A merge whose outputs carry its stamp is skipped. Clips
      are merged side by side and reported in the plan's order; after a failed one no other
      starts (those beside it end, whole), and the report records each clip as it ended.

      OPTIONS
        --force             merge even when the outputs are up to date
        --jobs N            the most clips merged side by side (default: the CPUs Flick may
                            use); fewer when that many would not fit under the memory cap
        --allow-outside-manifest, --allow-outside-assets
                            as given to 'flick plan' (the manifest is read again here)
                            (without the first, the plan's manifest must be in its folder)
        --report PATH       the JSON report (default OUTPUT/.flick/reports/merge.json)
        --progress MODE     auto, bar, lines, json (one object per line, with the merge id), none
        -q, --quiet         print nothing but errors

      CAPS (\(Limits.variables(Limits.mergeCaps)))
      \(Limits.help(Limits.mergeCaps))
      The pixel cap bounds each chunk frame (checked before it is decoded), the memory cap is
      watched for the whole process with its ffmpeg processes (exit 3 when reached), and an ffmpeg
      that makes no progress for the encoder timeout is stopped (exit 3).
      """

    static func run(_ args: [String]) throws {
      guard
        case let (a, path, quiet, style)? = try RunCommand.parse(
          args, command: "merge", help: help,
          valued: Set(["report", "progress", "jobs"] + Limits.mergeCaps.map(\.option)),
          flags: Set(["force"]).union(PlanCommand.policyFlags),
          checks: NumberRule.checks(["jobs": RunCommand.numbers["jobs"] ?? .whole(1...256)])
            .merging(Limits.checks(Limits.mergeCaps)) { a, _ in a })
      else { return }
      let limits = try Limits.render(a, caps: Limits.mergeCaps)
      let (_, batch) = try RunCommand.load(path, policy: PlanCommand.policy(a), drawable: false)
      let reportPath = a.value("report") ?? batch.manifest.outputRoot + "/.flick/reports/merge.json"
      try refuseSideOutput(reportPath, json: true, inputs: [path] + batch.inputs)
      var merger = BatchMerger(plan: batch)
      merger.force = a.has("force")
      merger.limits = limits
      if let jobs = try a.whole("jobs", in: RunCommand.numbers) { merger.jobs = jobs }
      let progress = BatchProgress(
        style: style, jobs: batch.merges.count,
        frames: batch.merges.reduce(0) { $0 + $1.spec.frames[1] - $1.spec.frames[0] + 1 })
      Interruption.install()
      let largest = batch.merges.max { $0.width * $0.height < $1.width * $1.height }
      Limits.startWatches(limits, width: largest?.width ?? 0, height: largest?.height ?? 0)
      let (report, _) = try RunCommand.reported(
        command: "merge", plan: path, shard: nil,
        to: reportPath
      ) { _ in
        do throws(BatchError) {
          return try merger.run(progress: progress)
        } catch {
          throw CommandError(message: error.description, code: ExitCode(rawValue: error.exitCode))
        }
      }
      // The first failure in the plan's order, as the report records it.
      if let failed = report.jobs.first(where: { $0.status == .failed }) {
        throw CommandError(
          message: failed.error ?? "\(quoted: failed.name) failed", code: ExitCode(rawValue: report.exitCode))
      }
      if !quiet {
        log(
          batch.merges.isEmpty
            ? "nothing to merge: the plan has no chunked clips"
            : "\(report.rendered) merged, \(report.skipped) up to date" + String(format: " in %.2f s", report.seconds))
      }
    }
  }
}
