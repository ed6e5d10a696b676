/// How a plan's jobs are split into shards: each job's estimated cost, and an assignment by
/// longest-processing-time first that every machine computes alike from the plan alone.
///
/// A job costs `frames × pixels × (raster + Σ weight of each output format)`, in units of the
/// rasteriser's work on one pixel of one frame. The weights are per mille of the rasteriser's CPU
/// per pixel-frame (``weight(_:)``), measured by `Benchmarks/scale/weights.sh` (docs/scale-out.md).
/// The jobs are taken from the most costly down (equal costs by id, then index), each given to
/// the shard with the least cost so far (equal loads: the lowest shard): with many jobs of a few
/// sizes the most loaded shard stays within a few per cent of the mean, where `index mod N` put
/// every large job of a 2-size plan on the same half of the shards.
package enum ShardBalance {
  /// The rasteriser's work on one pixel-frame, per mille (the unit of ``weight(_:)``).
  package static let raster = 1000

  /// What writing one output of `format` adds per pixel-frame, per mille of the rasteriser's
  /// work (`Benchmarks/scale/weights.sh`); 0 for a format this build does not know.
  package static func weight(_ format: String) -> Int {
    switch format {
    case "png": 1000
    case "mp4": 1230
    case "gif": 1420
    case "webm": 4230
    case "mov": 4730
    case "apng": 4200
    case "webp": 1630
    default: 0
    }
  }

  /// The estimated cost of `job` (``raster`` units × pixel-frames; never below 1).
  package static func cost(_ job: Plan.Job) -> Int {
    let frames = max(1, job.frames.count == 2 ? job.frames[1] - job.frames[0] + 1 : 1)
    let perPixel = raster + job.outputs.reduce(0) { $0 + weight($1.format) }
    let (pixels, o1) = max(1, job.width).multipliedReportingOverflow(by: max(1, job.height))
    let (framePixels, o2) = pixels.multipliedReportingOverflow(by: frames)
    let (total, o3) = framePixels.multipliedReportingOverflow(by: perPixel)
    return o1 || o2 || o3 ? Int.max / 1024 : max(1, total)
  }

  /// The shard (0-based) of each job of `jobs`, by position, for `count` shards: longest
  /// processing time first, ties broken by id then index, loads compared exactly (integers).
  package static func assign(_ jobs: [Plan.Job], count: Int) -> [Int] {
    precondition(count >= 1, "at least one shard")
    let costs = jobs.map(cost)
    let order = jobs.indices.sorted { a, b in
      if costs[a] != costs[b] { return costs[a] > costs[b] }
      if jobs[a].id != jobs[b].id { return jobs[a].id < jobs[b].id }
      return jobs[a].index < jobs[b].index
    }
    var loads = [Int](repeating: 0, count: count)
    var shard = [Int](repeating: 0, count: jobs.count)
    for position in order {
      var least = 0
      for s in 1..<count where loads[s] < loads[least] { least = s }
      shard[position] = least
      loads[least] = loads[least].addingReportingOverflow(costs[position]).partialValue
    }
    return shard
  }

  /// The estimated cost of each shard (1-based shard `s` at `s − 1`) when `jobs` go to `count`.
  package static func loads(_ jobs: [Plan.Job], count: Int) -> [Int] {
    var loads = [Int](repeating: 0, count: count)
    for (job, s) in zip(jobs, assign(jobs, count: count)) { loads[s] += cost(job) }
    return loads
  }
}
