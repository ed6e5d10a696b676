import FlickTestSupport
import Foundation

/// A folder this test process may not write into while the value lives: made immutable
/// (`chattr +i`) when the tests run as root, which permissions do not stop, else mode 0555.
final class UnwritableFolder {
  let path: String
  private let immutable: Bool

  /// nil when the folder cannot be made unwritable here (no `chattr`, a file system without
  /// the flag).
  init?(_ path: String) {
    self.path = path
    immutable = getuid() == 0
    if immutable {
      guard let r = try? ProcessRunner.run("/usr/bin/chattr", ["+i", path]), r.status == 0 else { return nil }
    } else {
      guard chmod(path, 0o555) == 0 else { return nil }
    }
    guard access(path, W_OK) != 0 else {
      undo()
      return nil
    }
  }

  /// Makes it writable again (the test's clean-up removes it).
  func undo() {
    if immutable {
      _ = try? ProcessRunner.run("/usr/bin/chattr", ["-i", path])
    } else {
      chmod(path, 0o755)
    }
  }

  deinit { undo() }
}
