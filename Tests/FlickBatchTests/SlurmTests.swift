import FlickExpectations
import FlickTestSupport
import Foundation
import Testing

/// Flick on a real Slurm: `scripts/slurm/test.sh` installs Slurm and munge if missing, starts a
/// one-node cluster on loopback, runs a 3-shard array with its dependent merge, checks the result
/// against a single-machine render, fails one shard with exit 3 (the merge is cancelled), resubmits
/// that index alone, and stops its daemons. Here: it passes, and no daemon it started is alive.
///
/// slurmd must be root to start jobs (CI runs as root); elsewhere the test is disabled.
@Suite struct SlurmTests {
  @Test(.enabled(if: getuid() == 0, "slurmd needs root"), .timeLimit(.minutes(5)))
  func arrayMergeFailureAndResubmission() throws {
    let script = BatchFixtures.root.appendingPathComponent("scripts/slurm/test.sh").path
    let r = try ProcessRunner.run(script, [BatchFixtures.flick])
    expectEqual(r.status, 0, "\(r.stderr)")
    #expect(r.stderr.contains("slurm-test: PASS"), "\(r.stderr)")
    let line = try #require(r.stderr.split(separator: "\n").first { $0.hasPrefix("slurm-test: daemons ") })
    let pids = line.dropFirst("slurm-test: daemons ".count).prefix { $0 != "(" }.split(separator: " ").compactMap {
      Int32($0)
    }
    expectEqual(pids.count, 3, "\(line)")
    for pid in pids {
      expectNotEqual(kill(pid, 0), 0, "daemon \(pid) is still running")
      expectEqual(errno, ESRCH, "daemon \(pid) is still running")
    }
  }
}
