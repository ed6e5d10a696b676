import Foundation

/// Where a command keeps the temporary folders to remove when it is interrupted: told of each
/// folder before it is made (``add``) and after it is removed (``remove``). FlickSnapshot does
/// not handle signals itself; the command line passes its cleanup registry (`Cleanup`).
package struct TemporaryFolderTracking: Sendable {
  /// Called with a folder's path before the folder is made.
  package var add: @Sendable (String) -> Void
  /// Called with a folder's path once it is removed.
  package var remove: @Sendable (String) -> Void

  package init(add: @escaping @Sendable (String) -> Void, remove: @escaping @Sendable (String) -> Void) {
    self.add = add
    self.remove = remove
  }

  /// No tracking (library use, tests).
  package static let none = TemporaryFolderTracking(add: { _ in }, remove: { _ in })
}
