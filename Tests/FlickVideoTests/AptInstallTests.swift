import FlickExpectations
import FlickTestSupport
import Foundation
import Testing

/// `scripts/apt-install` is the one way Flick's scripts install Debian packages. `make test` runs
/// the Slurm test and the browser tests side by side, and on a fresh machine both install
/// packages: two apt-get processes at once made the second fail on dpkg's lock. These tests run
/// the script against a stand-in apt-get that records when each call starts and ends.
@Suite struct AptInstallTests {
  static let script = TestSupport.root.appendingPathComponent("scripts/apt-install").path

  /// A folder with a stand-in `apt-get` (and a `sudo` that runs its arguments) that appends
  /// "start ARGS" and "end ARGS" to `log` around a pause, failing `install` when `failInstalls`
  /// says how many of the first installs fail, and the environment that uses them.
  static func standIn(_ dir: URL, pause: Double = 0.3, failInstalls: Int = 0) throws -> [String: String] {
    let log = dir.appendingPathComponent("log").path
    let count = dir.appendingPathComponent("installs").path
    _ = try TestSupport.script(
      """
      echo "start $*" >> '\(log)'
      sleep \(pause)
      echo "end $*" >> '\(log)'
      case " $* " in
        *" install "*)
          n=$(cat '\(count)' 2>/dev/null || echo 0); n=$((n + 1)); echo $n > '\(count)'
          [ $n -gt \(failInstalls) ] || exit 100 ;;
      esac
      exit 0

      """, named: "apt-get", in: dir)
    _ = try TestSupport.script("exec \"$@\"\n", named: "sudo", in: dir)
    var env = ProcessInfo.processInfo.environment
    env["PATH"] = dir.path + ":" + (env["PATH"] ?? "/usr/bin:/bin")
    env["APT_INSTALL_LOCK"] = dir.appendingPathComponent("lock").path
    env["APT_POLICY_RC"] = dir.appendingPathComponent("policy-rc.d").path
    return env
  }

  static func lines(_ dir: URL) throws -> [String] {
    try String(contentsOf: dir.appendingPathComponent("log"), encoding: .utf8)
      .split(separator: "\n").map(String.init)
  }

  @Test func installsStartedTogetherRunOneAtATime() async throws {
    let dir = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let env = try Self.standIn(dir)
    // Three stand-ins that pause in turn: waited for off the test runner's threads (OffPool).
    let statuses = try await OffPool.run {
      let processes = try ["pkg-one", "pkg-two", "pkg-three"].map { package in
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["bash", Self.script, package]
        p.environment = env
        p.standardError = FileHandle.nullDevice
        try p.runUnblocked()
        return p
      }
      for p in processes { p.waitUntilExit() }
      return processes.map(\.terminationStatus)
    }
    expectEqual(statuses, [0, 0, 0])
    let log = try Self.lines(dir)
    // Every call ends before the next one starts.
    var open: String?
    for line in log {
      if line.hasPrefix("start ") {
        #expect(open == nil, "\(line) began while \(open ?? "") ran: \(log)")
        open = line
      } else {
        open = nil
      }
    }
    for package in ["pkg-one", "pkg-two", "pkg-three"] {
      #expect(log.contains { $0.hasPrefix("end ") && $0.contains(" install ") && $0.hasSuffix(package) })
    }
  }

  @Test func aFailedInstallRefreshesTheListsAndTriesAgain() throws {
    let dir = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let env = try Self.standIn(dir, pause: 0, failInstalls: 1)
    let r = try TestSupport.run("/usr/bin/env", ["bash", Self.script, "some-package"], environment: env)
    expectEqual(r.status, 0, "\(r.stderr)")
    let calls = try Self.lines(dir).filter { $0.hasPrefix("start ") }
    let lists = FileManager.default.fileExists(atPath: "/var/lib/apt/lists")
    // With package lists on the machine the first install is tried before refreshing them.
    expectEqual(calls.last?.contains("install --no-install-recommends some-package"), true, "\(calls)")
    #expect(calls.contains { $0.hasSuffix(" update") }, "\(calls)")
    #expect(calls.allSatisfy { $0.contains("-o DPkg::Lock::Timeout=") && $0.contains(" -y ") }, "\(calls)")
    if lists { expectEqual(calls.count, 3, "\(calls)") }
  }

  @Test func whatCannotBeInstalledIsAnErrorNamingIt() throws {
    let dir = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let env = try Self.standIn(dir, pause: 0, failInstalls: 99)
    let r = try TestSupport.run("/usr/bin/env", ["bash", Self.script, "no-such-package"], environment: env)
    expectEqual(r.status, 3)
    #expect(r.stderr.contains("could not install no-such-package"), "\(r.stderr)")
  }

  @Test func noStartHoldsServicesBackOnlyWhileInstalling() throws {
    let dir = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    var env = try Self.standIn(dir, pause: 0)
    let policy = dir.appendingPathComponent("policy-rc.d").path
    // The stand-in records whether services were held back while it ran.
    let seen = dir.appendingPathComponent("seen").path
    env["PATH"] = dir.path + ":" + (env["PATH"] ?? "")
    _ = try TestSupport.script(
      "[ -x '\(policy)' ] && '\(policy)'; echo $? >> '\(seen)'\nexit 0\n", named: "apt-get", in: dir)
    let r = try TestSupport.run("/usr/bin/env", ["bash", Self.script, "--no-start", "a-daemon"], environment: env)
    expectEqual(r.status, 0, "\(r.stderr)")
    #expect(try String(contentsOfFile: seen, encoding: .utf8).split(separator: "\n").allSatisfy { $0 == "101" })
    #expect(!FileManager.default.fileExists(atPath: policy), "the policy file outlived the install")
  }

  /// The class, not the one case: no script, benchmark or make target calls apt-get itself.
  @Test func everyInstallGoesThroughTheScript() throws {
    let fm = FileManager.default
    var offenders: [String] = []
    let command = try Regex(#"(^|[;&|({]|\bsudo|\$sudo|\bthen|\bdo)\s*apt-get\s"#)
    for folder in ["scripts", "Benchmarks", ".ci"] {
      let base = TestSupport.root.appendingPathComponent(folder)
      guard let walk = fm.enumerator(at: base, includingPropertiesForKeys: nil) else { continue }
      for case let url as URL in walk where !url.path.contains("/.venv") && url.lastPathComponent != "apt-install" {
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { continue }
        for (n, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
          let code = line.trimmingCharacters(in: .whitespaces)
          if code.hasPrefix("#") || code.contains("echo ") { continue }
          if code.contains(command) { offenders.append("\(url.path):\(n + 1): \(code)") }
        }
      }
    }
    let makefile = try String(contentsOf: TestSupport.root.appendingPathComponent("Makefile"), encoding: .utf8)
    offenders += makefile.split(separator: "\n").filter { $0.contains("apt-get ") }.map { "Makefile: \($0)" }
    #expect(offenders.isEmpty, "call scripts/apt-install instead: \(offenders)")
  }
}
