import Foundation

/// The seeded cases of one fuzz test, and the knobs every fuzz test reads from the environment:
/// a count variable of the test's own (say `FLICK_FUZZ_CASES`), `FLICK_FUZZ_SEED` (the first
/// seed; a failure names its seed, and that seed with a count of 1 replays it),
/// `FLICK_FUZZ_KEEP=DIR` (keep the case folders there) and `FLICK_FUZZ_VERBOSE` (print a line a
/// case).
///
///     static let campaign = FuzzCampaign(countVariable: "FLICK_FUZZ_CASES", defaultCount: 150, defaultSeed: 7)
///     let problems = try campaign.problems(folderPrefix: "flick-fuzz") { seed, root in try check(seed, root) }
package struct FuzzCampaign: Sendable {
  package static let environment = ProcessInfo.processInfo.environment
  /// `FLICK_FUZZ_KEEP`: the folder that keeps the case folders, or nil to remove them.
  package static let keptFolder = environment["FLICK_FUZZ_KEEP"]
  /// `FLICK_FUZZ_VERBOSE`: whether a test prints a line a case.
  package static let isVerbose = environment["FLICK_FUZZ_VERBOSE"] != nil

  /// How many cases run (≥ 0).
  package var count: Int
  /// The seed of the first case; case `i` has seed `firstSeed &+ i`.
  package var firstSeed: UInt64
  /// How many cases run at once (≥ 1).
  package var parallel: Int

  /// The campaign set by the environment: `countVariable` (else `defaultCount`) cases from
  /// `FLICK_FUZZ_SEED` (else `defaultSeed`), `parallel` at a time.
  package init(countVariable: String, defaultCount: Int, defaultSeed: UInt64, parallel: Int = 1) {
    count = Int(Self.environment[countVariable] ?? "") ?? defaultCount
    firstSeed = UInt64(Self.environment["FLICK_FUZZ_SEED"] ?? "") ?? defaultSeed
    self.parallel = max(1, parallel)
  }

  /// Runs `check(seed, root)` for every case, ``parallel`` at a time, and returns the problems
  /// they found (an error a check throws becomes a problem naming its seed). `root` is
  /// ``keptFolder``, or a fresh temporary folder named after `folderPrefix` that is removed at
  /// the end; each case makes (and, unless kept, removes) its own folder in it.
  package func problems(
    folderPrefix: String, check: @escaping @Sendable (_ seed: UInt64, _ root: URL) throws -> [String]
  ) throws -> [String] {
    let root =
      try Self.keptFolder.map { URL(fileURLWithPath: $0) }
      ?? ProcessRunner.temporaryDirectory(prefix: folderPrefix)
    defer { Self.discard(root) }
    let problems = ProblemList()
    let slots = DispatchSemaphore(value: parallel)
    let group = DispatchGroup()
    for i in 0..<count {
      let seed = firstSeed &+ UInt64(i)
      slots.wait()
      group.enter()
      // A thread per case, not the global queue: each case waits on a process, and on Linux that
      // queue is the test runner's pool (see PipeDrain).
      Thread {
        defer {
          slots.signal()
          group.leave()
        }
        do {
          problems.append(try check(seed, root))
        } catch {
          problems.append(["seed \(seed): \(error)"])
        }
      }.start()
    }
    group.wait()
    return problems.all
  }

  /// What a failing test prints about `problems`: how many there are in how many cases, then
  /// the first 10, a line each.
  package func summary(_ problems: [String]) -> String {
    "\(problems.count) problems in \(count) cases:\n" + problems.prefix(10).joined(separator: "\n")
  }

  /// Removes `folder` unless ``keptFolder`` is set.
  package static func discard(_ folder: URL) {
    if keptFolder == nil { try? FileManager.default.removeItem(at: folder) }
  }

  private final class ProblemList: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [String] = []
    func append(_ found: [String]) { lock.withLock { items += found } }
    var all: [String] { lock.withLock { items } }
  }
}
