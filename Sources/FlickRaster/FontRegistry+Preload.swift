internal import CPango
import FlickMotion
import Foundation

extension FontRegistry {
  private static let preloading = Locked(false)

  /// Starts loading fontconfig's configuration and font cache (`FcInit`: about 24 M instructions,
  /// some 8 ms, on the benchmark machine) on a thread of its own, so that it overlaps the
  /// template's parsing instead of delaying the first text layout (Pango starts it only when its
  /// first font map is made, and waits for it there). Once per process; later calls do nothing.
  ///
  /// Nothing drawn depends on it: fontconfig keeps one current configuration, made once, and a
  /// template's own fonts (``register(_:)``) replace it with one holding them, as without it.
  package static func preloadConfiguration() {
    let first = preloading.withLock { started in
      defer { started = true }
      return !started
    }
    guard first else { return }
    Thread.detachNewThread { _ = FcInit() }
  }
}
