import FlickBatch
import FlickMotion
import Foundation

extension Flick.RunCommand {
  /// The jobs `--job` and `--index` pick (``FlickBatch/JobSelector``), or nil when neither is
  /// given.
  ///
  /// - Throws: A usage error (exit 2) for text that names no job or more than one.
  static func selection(_ a: Arguments, plan: Plan) throws -> Set<Int>? {
    let texts = a.all("job"), numbers = a.all("index")
    guard !texts.isEmpty || !numbers.isEmpty else { return nil }
    var picked = Set<Int>()
    do {
      for text in texts { picked.insert(try JobSelector.select(text, in: plan.jobs)) }
      for text in numbers { picked.insert(try JobSelector.index(text, in: plan.jobs, option: "--index")) }
    } catch {
      throw CommandError.usage(error.description)
    }
    return picked
  }

  /// Where a run's report goes without `--report`: `shard-I-of-N.json` for a shard, `run.json`
  /// for the whole plan, and for chosen jobs (a debug run) `jobs-` and the first 12 digits of a
  /// hash of their ids, so it never replaces the plan's report.
  static func defaultReport(_ batch: BatchPlan, shard: Shard?, picked: Set<Int>?) -> String {
    let folder = batch.manifest.outputRoot + "/.flick/reports/"
    if let picked {
      let ids = picked.sorted().map { batch.jobs[$0].spec.id }
      let label = picked.count == 1 ? "job-\(picked.sorted()[0])" : "jobs-" + JobSelector.label(ids)
      return folder + label + (shard.map { "-shard-\($0.index)-of-\($0.count)" } ?? "") + ".json"
    }
    return folder + (shard.map { "shard-\($0.index)-of-\($0.count).json" } ?? "run.json")
  }
}
