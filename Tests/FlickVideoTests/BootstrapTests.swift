import FlickExpectations
import Foundation
import Testing

/// `scripts/bootstrap` costs nothing on a system that has everything: it must not reach for
/// apt-get, however long the font list is (its check once piped `fc-list` into `grep -q` under
/// `pipefail`, which fails by SIGPIPE as soon as the list outgrows the pipe).
@Suite struct BootstrapTests {
  @Test func anInstalledSystemInstallsNothing() throws {
    let dir = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let marker = dir.appendingPathComponent("installer-ran").path
    // A long font list with the needed families first, and installers that only leave a mark.
    _ = try TestSupport.script(
      "printf 'Inter\\nDejaVu Sans\\nNoto Color Emoji\\n'; yes 'Filler Font Family' | head -c 4000000\n",
      named: "fc-list", in: dir)
    for name in ["apt-get", "sudo", "brew"] {
      _ = try TestSupport.script("echo \"$0 $*\" >> '\(marker)'\nexit 1\n", named: name, in: dir)
    }
    var env = ProcessInfo.processInfo.environment
    env["PATH"] = dir.path + ":" + (env["PATH"] ?? "/usr/bin:/bin")
    let script = TestSupport.root.appendingPathComponent("scripts/bootstrap").path
    let r = try TestSupport.run("/usr/bin/env", ["bash", script], environment: env)
    expectEqual(r.status, 0, "bootstrap failed: \(r.stderr)")
    #expect(!FileManager.default.fileExists(atPath: marker), "bootstrap ran an installer")
  }
}
