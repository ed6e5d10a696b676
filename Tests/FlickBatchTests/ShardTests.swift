import FlickExpectations
import Testing

@testable import FlickBatch

/// `--shard I/N` and every scheduler variable `--shard auto` reads.
@Suite struct ShardTests {
  @Test func parsesIOverN() throws {
    try expectEqual(Shard.parse("2/3"), Shard(index: 2, count: 3))
    try expectEqual(Shard.parse("1/1"), Shard(index: 1, count: 1))
    for bad in ["0/3", "4/3", "a/b", "3", "1/0", "/3", "1/3/4", "-1/3", "0x1/0x2", "+1/3", "1/ 3", "1/nan"] {
      #expect(throws: BatchError.self, "\(bad)") { try Shard.parse(bad) }
    }
  }

  func detect(_ env: [String: String], count: Int? = nil) throws(BatchError) -> Shard {
    try Shard.detect(environment: env, count: count)
  }

  @Test func slurmArray() throws {
    let env = [
      "SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_COUNT": "3", "SLURM_ARRAY_TASK_MIN": "0",
      "SLURM_ARRAY_TASK_MAX": "2",
    ]
    try expectEqual(detect(env), Shard(index: 2, count: 3, source: "SLURM_ARRAY_TASK_ID"))
    try expectEqual(detect(env, count: 3), Shard(index: 2, count: 3, source: "SLURM_ARRAY_TASK_ID"))
    // One index resubmitted alone (--array=1): needs --shard-count, then it is still shard 2 of 3.
    let alone = [
      "SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_COUNT": "1", "SLURM_ARRAY_TASK_MIN": "1",
      "SLURM_ARRAY_TASK_MAX": "1",
    ]
    try expectEqual(detect(alone, count: 3).description, "2/3")
    #expect(
      throws: BatchError.invalidInput(
        "--shard auto: the Slurm array is 1…1 with 1 tasks, not 0…0; give --shard-count N (the full number of shards)")
    ) {
      try detect(alone)
    }
    #expect(throws: BatchError.self) { try detect(env, count: 2) }  // the array reaches index 2
    #expect(throws: BatchError.self) { try detect(["SLURM_ARRAY_TASK_ID": "1"]) }  // no count
    #expect(throws: BatchError.self) { try detect(["SLURM_ARRAY_TASK_ID": "x", "SLURM_ARRAY_TASK_COUNT": "3"]) }
    #expect(throws: BatchError.self) {
      try detect([
        "SLURM_ARRAY_TASK_ID": "5", "SLURM_ARRAY_TASK_COUNT": "3", "SLURM_ARRAY_TASK_MIN": "0",
        "SLURM_ARRAY_TASK_MAX": "2",
      ])
    }
  }

  @Test func kubernetesIndexedJob() throws {
    try expectEqual(
      detect(["JOB_COMPLETION_INDEX": "3"], count: 4), Shard(index: 4, count: 4, source: "JOB_COMPLETION_INDEX"))
    try expectEqual(detect(["JOB_COMPLETION_INDEX": "0"], count: 4).index, 1)
    // The count is not in the environment.
    #expect(throws: BatchError.self) { try detect(["JOB_COMPLETION_INDEX": "0"]) }
    #expect(throws: BatchError.self) { try detect(["JOB_COMPLETION_INDEX": "4"], count: 4) }
  }

  @Test func gitLabCountsFromOne() throws {
    try expectEqual(
      detect(["CI_NODE_INDEX": "1", "CI_NODE_TOTAL": "3"]), Shard(index: 1, count: 3, source: "CI_NODE_INDEX"))
    try expectEqual(detect(["CI_NODE_INDEX": "3", "CI_NODE_TOTAL": "3"]).index, 3)
    #expect(throws: BatchError.self) { try detect(["CI_NODE_INDEX": "0", "CI_NODE_TOTAL": "3"]) }
    #expect(throws: BatchError.self) { try detect(["CI_NODE_INDEX": "4", "CI_NODE_TOTAL": "3"]) }
    #expect(throws: BatchError.self) { try detect(["CI_NODE_INDEX": "1", "CI_NODE_TOTAL": "3"], count: 4) }
  }

  @Test func buildkiteAndCircleCI() throws {
    try expectEqual(detect(["BUILDKITE_PARALLEL_JOB": "2", "BUILDKITE_PARALLEL_JOB_COUNT": "3"]).description, "3/3")
    try expectEqual(detect(["CIRCLE_NODE_INDEX": "0", "CIRCLE_NODE_TOTAL": "2"]).description, "1/2")
    #expect(throws: BatchError.self) {
      try detect(["BUILDKITE_PARALLEL_JOB": "3", "BUILDKITE_PARALLEL_JOB_COUNT": "3"])
    }
    #expect(throws: BatchError.self) { try detect(["CIRCLE_NODE_INDEX": "0"]) }
  }

  @Test func refusesNoneOrDisagreement() throws {
    #expect(throws: BatchError.self) { try detect([:]) }
    #expect(throws: BatchError.self) { try detect(["PATH": "/usr/bin"], count: 3) }
    // Two schedulers naming the same shard agree (0-based 1 = 1-based 2).
    let same = ["SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_COUNT": "3", "CI_NODE_INDEX": "2", "CI_NODE_TOTAL": "3"]
    try expectEqual(detect(same).description, "2/3")
    let different = [
      "SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_COUNT": "3", "CIRCLE_NODE_INDEX": "0", "CIRCLE_NODE_TOTAL": "3",
    ]
    do {
      _ = try detect(different)
      Issue.record("disagreeing variables were accepted")
    } catch {
      expectEqual(error.exitCode, 2)
      #expect(error.description.contains("disagrees"))
      #expect(error.description.contains("CIRCLE_NODE_INDEX"))
    }
  }

  @Test func shardsPartitionThePlan() throws {
    let jobs = (0..<10).map {
      Plan.Job(
        index: $0, id: "\($0)", kind: "render", name: "", template: "", variant: "", width: 1, height: 1,
        frames: [0, 0],
        outputs: [], merge: nil)
    }
    let plan = Plan(format: 1, flick: "", renderer: "", manifest: "", output: "", jobs: jobs, merges: [])
    for n in 1...4 {
      let shares = (1...n).map { plan.jobs(shard: $0, of: n).map(\.index) }
      expectEqual(shares.flatMap { $0 }.sorted(), Array(0..<10))
      expectLessOrEqual(shares.map(\.count).max()! - shares.map(\.count).min()!, 1)
    }
    expectEqual(plan.jobs(shard: 2, of: 3).map(\.index), [1, 4, 7])
  }
}
