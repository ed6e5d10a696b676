import FlickExpectations
import FlickTestSupport
import Foundation
import Testing

@testable import FlickBatch

/// `Examples/batch/`: the manifest plans (48 jobs, 4 balanced shards) and a small run of it
/// renders; each CI example (GitHub Actions matrix, GitLab `parallel:`, Kubernetes Indexed Job,
/// Slurm array) gives `flick run` the shard its scheduler's variables name, and the shards'
/// union is the plan without overlap; the GitHub workflow installs what flick needs.
@Suite struct BatchExamplesTests {
  typealias F = BatchFixtures
  static let examples = F.root.appendingPathComponent("Examples/batch")

  /// A copy of `Examples/batch` (its output goes beside the manifest), planned.
  static func planned() throws -> URL {
    let dir = try ProcessRunner.temporaryDirectory(prefix: "flick-example")
    let copy = dir.appendingPathComponent("batch")
    try FileManager.default.copyItem(at: examples, to: copy)
    try? FileManager.default.removeItem(at: copy.appendingPathComponent("out"))
    let plan = try F.flick(["plan", "batch.json5", "-o", "plan.json", "--shards", "4"], in: copy)
    expectEqual(plan.status, 0, "\(plan.stderr)")
    #expect(plan.stderr.contains("planned 48 jobs"), "\(plan.stderr)")
    let ratio = plan.text.split(separator: "\n").first { $0.hasPrefix("max / mean ") }
      .flatMap { Double($0.dropFirst(11)) }
    expectEqual(ratio.map { $0 <= 1.06 }, true, "\(plan.text)")
    return copy
  }

  @Test func theExampleManifestPlansAndASmallRunRenders() throws {
    let dir = try Self.planned()
    defer { try? FileManager.default.removeItem(at: dir.deletingLastPathComponent()) }
    // The two smallest jobs of two templates, by name.
    let run = try F.flick(
      ["run", "plan.json", "--job", "promo/de/160x90", "--job", "badge/sale/160x90", "-q"], in: dir,
      environment: F.cleanEnvironment)
    expectEqual(run.status, 0, "\(run.stderr)")
    for name in ["promo/de/160x90", "badge/sale/160x90"] {
      for ext in ["mp4", "gif"] {
        let file = dir.appendingPathComponent("out/\(name).\(ext)")
        #expect(FileManager.default.fileExists(atPath: file.path), "\(name).\(ext)")
      }
    }
    let status = try F.flick(["status", "plan.json", "-q"], in: dir)
    expectEqual(status.status, 1, "\(status.text)")
    #expect(status.text.contains("48 jobs: 2 done, 46 missing"), "\(status.text)")
  }

  /// Runs `flick run plan.json ARGS --list` with `environment` added: the job indices it picks.
  static func shard(_ args: [String], _ environment: [String: String], in dir: URL) throws -> [Int] {
    let env = F.cleanEnvironment.merging(environment) { _, new in new }
    let r = try F.flick(["run", "plan.json"] + args + ["--list"], in: dir, environment: env)
    expectEqual(r.status, 0, "\(args) \(environment): \(r.stderr)")
    return r.text.split(separator: "\n").compactMap { Int($0.split(separator: "\t").first ?? "") }
  }

  /// The words after `marker` on the first line of `text` holding it, unquoted, up to a `\`.
  static func words(
    after marker: String, in text: String, substituting: (String) -> String = { $0 }
  ) throws -> [String] {
    let line = try #require(text.split(separator: "\n").first { $0.contains(marker) }, "no line with \(marker)")
    let rest = substituting(String(line[line.range(of: marker)!.upperBound...]))
    return rest.split(whereSeparator: { " ,[]".contains($0) }).map {
      $0.trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
    }.prefix { $0 != "\\" }.filter { !$0.isEmpty }
  }

  static func number(_ pattern: String, in text: String) throws -> Int {
    let regex = try NSRegularExpression(pattern: pattern)
    let match = try #require(regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)), "\(pattern)")
    return try #require(Int(text[Range(match.range(at: 1), in: text)!]))
  }

  @Test func everySchedulersVariablesGiveAPartitionOfThePlan() throws {
    let dir = try Self.planned()
    defer { try? FileManager.default.removeItem(at: dir.deletingLastPathComponent()) }
    let ci = Self.examples.appendingPathComponent("ci")
    func text(_ url: URL) throws -> String { try String(contentsOf: url, encoding: .utf8) }
    var schemes: [(name: String, shards: [[Int]])] = []

    // GitHub Actions: the matrix value is the shard, strategy.job-total the count.
    let github = try text(ci.appendingPathComponent("github-actions.yml"))
    let matrix = try Self.words(after: "shard:", in: github).compactMap(Int.init)
    schemes.append(
      (
        "GitHub Actions",
        try matrix.map { value in
          let args = try Self.words(after: "run \"$PLAN\"", in: github) {
            $0.replacingOccurrences(of: "${{ matrix.shard }}", with: "\(value)")
              .replacingOccurrences(of: "${{ strategy.job-total }}", with: "\(matrix.count)")
          }
          return try Self.shard(args, [:], in: dir)
        }
      ))

    // GitLab parallel: CI_NODE_INDEX 1…N, CI_NODE_TOTAL N.
    let gitlab = try text(ci.appendingPathComponent("gitlab-ci.yml"))
    let parallel = try Self.number(#"parallel: (\d+)"#, in: gitlab)
    let gitlabArgs = try Self.words(after: "flick run Examples/batch/plan.json", in: gitlab)
    schemes.append(
      (
        "GitLab",
        try (1...parallel).map {
          try Self.shard(gitlabArgs, ["CI_NODE_INDEX": "\($0)", "CI_NODE_TOTAL": "\(parallel)"], in: dir)
        }
      ))

    // Kubernetes Indexed Job: JOB_COMPLETION_INDEX 0…completions−1, the count in the command.
    let kubernetes = try text(ci.appendingPathComponent("kubernetes.yaml"))
    let completions = try Self.number(#"completions: (\d+)"#, in: kubernetes)
    let kubernetesArgs = try Self.words(after: "\"Examples/batch/plan.json\",", in: kubernetes)
    schemes.append(
      (
        "Kubernetes",
        try (0..<completions).map { try Self.shard(kubernetesArgs, ["JOB_COMPLETION_INDEX": "\($0)"], in: dir) }
      ))

    // Slurm array --array=0-(N-1): SLURM_ARRAY_TASK_ID, _COUNT, _MIN, _MAX; flick-run.sbatch's command.
    let slurm = try text(ci.appendingPathComponent("slurm.sh"))
    let tasks = try Self.number(#"submit\.sh "[^"]*" (\d+)"#, in: slurm)
    let sbatch = try text(F.root.appendingPathComponent("scripts/slurm/flick-run.sbatch"))
    let slurmArgs = try Self.words(after: "run \"$FLICK_PLAN\"", in: sbatch).map {
      $0.replacingOccurrences(of: "$FLICK_SHARDS", with: "\(tasks)")
    }
    schemes.append(
      (
        "Slurm",
        try (0..<tasks).map {
          try Self.shard(
            slurmArgs,
            [
              "SLURM_ARRAY_TASK_ID": "\($0)", "SLURM_ARRAY_TASK_COUNT": "\(tasks)", "SLURM_ARRAY_TASK_MIN": "0",
              "SLURM_ARRAY_TASK_MAX": "\(tasks - 1)",
            ], in: dir)
        }
      ))

    let everything = try Self.shard([], [:], in: dir)
    expectEqual(everything, Array(0..<48))
    for (name, shards) in schemes {
      expectEqual(shards.count, 4, "\(name)")
      expectEqual(shards.flatMap { $0 }.sorted(), everything, "\(name): the shards overlap or miss jobs: \(shards)")
      #expect(shards.allSatisfy { !$0.isEmpty }, "\(name)")
      // Every scheduler's shard I is the same jobs as --shard I/4.
      for (i, jobs) in shards.enumerated() {
        expectEqual(jobs, (try Self.shard(["--shard", "\(i + 1)/4"], [:], in: dir)), "\(name) shard \(i + 1)")
      }
    }
  }

  @Test func theGitHubWorkflowInstallsWhatFlickNeedsAndBuildsIt() throws {
    let workflow = try String(
      contentsOf: Self.examples.appendingPathComponent("ci/github-actions.yml"), encoding: .utf8)
    let bootstrap = try String(contentsOf: F.root.appendingPathComponent("scripts/bootstrap"), encoding: .utf8)
    // Every Debian package bootstrap installs to build and run flick (not the tools only the tests use).
    // The Debian section follows the macOS block, which ends with the first unindented `fi`.
    let debian = bootstrap.components(separatedBy: "\nfi\n").dropFirst().joined(separator: "\nfi\n")
    let regex = try NSRegularExpression(pattern: #"missing\+=\(([a-z0-9.+-]+)\)"#)
    let packages = regex.matches(in: debian, range: NSRange(debian.startIndex..., in: debian)).map {
      String(debian[Range($0.range(at: 1), in: debian)!])
    }.filter { !["python3", "time", "chromium", "gifsicle", "valgrind"].contains($0) }
    expectGreaterOrEqual(packages.count, 10, "\(packages)")
    // The jobs: each starts at a line `  NAME:` (two spaces) under `jobs:`.
    let body = try #require(workflow.components(separatedBy: "\njobs:\n").last)
    let jobs = body.components(separatedBy: "\n").reduce(into: [String]()) { sections, line in
      if line.hasPrefix("  ") && !line.hasPrefix("   ") && line.hasSuffix(":") { sections.append("") }
      if !sections.isEmpty { sections[sections.count - 1] += line + "\n" }
    }
    expectEqual(jobs.count, 3)
    for job in jobs {
      for package in packages { #expect(job.contains(" \(package)"), "a job does not install \(package)") }
      #expect(job.contains("download.swift.org"))
      #expect(job.contains("scripts/swift-release --product flick"))
    }
  }
}
