import FlickSnapshot
import FlickVideo

extension TemporaryFolderTracking {
  /// The process's cleanup registry (``FlickVideo/Cleanup``): a folder registered here is removed
  /// when the command is interrupted (SIGINT, SIGTERM, SIGHUP, SIGQUIT) or stopped by a watch.
  static let cleanup = TemporaryFolderTracking(
    add: { Cleanup.shared.add(folder: $0) }, remove: { Cleanup.shared.remove(folder: $0) })
}
