import FlickMotion
import Foundation

/// A temporary folder known to a command's cleanup (``TemporaryFolderTracking``): removed once,
/// by ``remove()`` or when the last reference goes, and then forgotten by the tracking. Shared by
/// what keeps files in one (``GoldenSpool``, ``StoredRendering``).
final class TrackedFolder: Sendable {
  let path: String
  private let tracking: TemporaryFolderTracking
  private let removed = Locked(false)

  /// Takes charge of `path`, which the caller has already told `tracking` of.
  init(path: String, tracking: TemporaryFolderTracking) {
    self.path = path
    self.tracking = tracking
  }

  /// Removes the folder and what it holds (once).
  func remove() {
    let first = removed.withLock { r -> Bool in
      defer { r = true }
      return !r
    }
    guard first else { return }
    try? FileManager.default.removeItem(atPath: path)
    tracking.remove(path)
  }

  deinit { remove() }
}
