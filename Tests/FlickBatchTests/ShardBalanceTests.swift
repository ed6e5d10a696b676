import FlickExpectations
import FlickTestSupport
import Foundation
import Testing

@testable import FlickBatch

/// Cost-balanced shards: each job's estimated cost, longest-processing-time first, a pure
/// function of the plan (every worker computes the same split alone).
@Suite struct ShardBalanceTests {
  /// A plan like the issue's: 3 templates (different lengths) × 8 variants × 2 sizes, MP4 + GIF.
  static func plan() -> Plan {
    var jobs: [Plan.Job] = []
    for (template, frames) in [("promo", 45), ("badge", 30), ("meter", 60)] {
      for variant in 1...8 {
        for (w, h) in [(640, 360), (320, 180)] {
          let name = "\(template)/\(variant)/\(w)x\(h)"
          jobs.append(
            Plan.Job(
              index: jobs.count, id: JobIdentity.hash([name]), kind: "render", name: name, template: template,
              variant: "\(variant)", width: w, height: h, frames: [0, frames - 1],
              outputs: [.init(path: name + ".mp4", format: "mp4"), .init(path: name + ".gif", format: "gif")],
              merge: nil))
        }
      }
    }
    return Plan(format: 1, flick: "0", renderer: "r", manifest: "m", output: "out", jobs: jobs, merges: [])
  }

  static func ratio(_ loads: [Int]) -> Double {
    Double(loads.max()!) / (Double(loads.reduce(0, +)) / Double(loads.count))
  }

  @Test func fourShardsOfTheFortyEightJobPlanAreWithinSixPercent() {
    let plan = Self.plan()
    let loads = ShardBalance.loads(plan.jobs, count: 4)
    expectLessOrEqual(Self.ratio(loads), 1.06, "\(loads)")
    // The split by index modulo 4 this replaces puts every large job on two shards.
    var byIndex = [Int](repeating: 0, count: 4)
    for job in plan.jobs { byIndex[job.index % 4] += ShardBalance.cost(job) }
    expectGreater(Self.ratio(byIndex), 1.06)
    // Every job in exactly one shard.
    let shards = (1...4).map { plan.jobs(shard: $0, of: 4).map(\.index) }
    expectEqual(shards.flatMap { $0 }.sorted(), Array(0..<48))
  }

  @Test(arguments: [1, 2, 3, 4, 5, 7, 48, 60])
  func theAssignmentIsAPureFunctionOfThePlan(count: Int) throws {
    let plan = Self.plan()
    let first = ShardBalance.assign(plan.jobs, count: count)
    // The same plan read back from its file on another machine gives the same split.
    let copy = try JSONDecoder().decode(Plan.self, from: plan.encoded())
    expectEqual(ShardBalance.assign(copy.jobs, count: count), first)
    expectEqual(ShardBalance.assign(plan.jobs, count: count), first)
    // Each shard's jobs stay in plan order.
    for s in 1...count {
      let indices = plan.jobs(shard: s, of: count).map(\.index)
      expectEqual(indices, indices.sorted())
    }
    expectEqual(Set(first).count, min(count, plan.jobs.count))
  }

  @Test func costsGrowWithFramesPixelsAndOutputs() {
    let base = Self.plan().jobs[0]
    var longer = base
    longer.frames = [0, 2 * (base.frames[1] + 1) - 1]
    var larger = base
    larger.width *= 2
    var more = base
    more.outputs.append(.init(path: "x/", format: "png"))
    expectEqual(ShardBalance.cost(longer), 2 * ShardBalance.cost(base))
    expectEqual(ShardBalance.cost(larger), 2 * ShardBalance.cost(base))
    expectGreater(ShardBalance.cost(more), ShardBalance.cost(base))
  }

  @Test func equalCostsAreOrderedByIdSoNoMachineDependsOnTheSortItUses() {
    // Eight jobs of equal cost over 3 shards: ties broken by id.
    let jobs = Self.plan().jobs.filter { $0.name.hasPrefix("badge/") && $0.width == 320 }.enumerated().map { i, job in
      var job = job
      job.index = i
      return job
    }
    let assigned = ShardBalance.assign(jobs, count: 3)
    let byID = jobs.indices.sorted { jobs[$0].id < jobs[$1].id }
    for (rank, position) in byID.enumerated() { expectEqual(assigned[position], rank % 3) }
  }
}
