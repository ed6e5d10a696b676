import FlickBatch
import FlickVideo
import Foundation

extension Flick {
  /// `flick merge plan.json`
  enum MergeCommand {
    static let help = """
      USAGE: flick merge plan.json [--force] [--report PATH] [--progress MODE] [-q]

      Joins the chunks of every chunked clip of a plan into its outputs: MP4 chunks with ffmpeg's
      concat demuxer without re-encoding; PNG sequences by copying the chunks' frames (the bytes of
      a single render); GIF, WebM, ProRes, APNG and WebP encoded now from the chunks' lossless
      frames (one palette for a whole GIF). Refuses with exit 3, writing nothing, when a chunk is
      missing or stale, and names it. A merge whose outputs carry its stamp is skipped.

      OPTIONS
        --force             merge even when the outputs are up to date
        --report PATH       the JSON report (default OUTPUT/.flick/reports/merge.json)
        --progress MODE     auto, bar, lines, json (one object per line, with the merge id), none
        -q, --quiet         print nothing but errors
      """

    static func run(_ args: [String]) throws {
      let a = try Arguments(
        args, valued: ["report", "progress"], flags: ["help", "h", "force", "quiet", "q"], command: "merge")
      if a.has("help") || a.has("h") {
        print(help)
        return
      }
      guard a.positionals.count == 1, let path = a.positionals.first else {
        throw CommandError.usage(a.positionals.isEmpty ? "merge needs a plan.json" : "merge takes one plan", command: "merge")
      }
      let quiet = a.has("quiet") || a.has("q")
      let style = try RunCommand.progressStyle(a, quiet: quiet)
      let (_, batch) = try RunCommand.load(path)
      var merger = BatchMerger(plan: batch)
      merger.force = a.has("force")
      let progress = BatchProgress(
        style: style, jobs: batch.merges.count,
        frames: batch.merges.reduce(0) { $0 + $1.spec.frames[1] - $1.spec.frames[0] + 1 })
      Interruption.install()
      let start = Date()
      let entries: [BatchReport.Entry]
      do {
        entries = try merger.run(progress: progress)
      } catch {
        throw CommandError(message: error.description, code: ExitCode(rawValue: error.exitCode))
      }
      let report = BatchReport(command: "merge", plan: path, shard: nil, jobs: entries, seconds: Date().timeIntervalSince(start))
      RunCommand.write(report, to: a.value("report") ?? batch.manifest.outputRoot + "/.flick/reports/merge.json")
      if !quiet {
        log(
          batch.merges.isEmpty
            ? "nothing to merge: the plan has no chunked clips"
            : "\(report.rendered) merged, \(report.skipped) up to date" + String(format: " in %.2f s", report.seconds))
      }
    }
  }
}
