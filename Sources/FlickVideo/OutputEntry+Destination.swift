import FlickMotion
import Foundation

/// The checks of a destination every command that writes outputs makes before it writes any:
/// `flick render` and `still` (``EncodedFile``, ``PNGSequenceWriter``, the CLI's output
/// checks), and `flick merge`, which checks every output of a clip before it replaces the first.
extension OutputEntry {
  /// Refuses a destination that is a symbolic link, or a device, FIFO or socket (renaming a
  /// finished file over `/dev/null` would leave an ordinary file where the device was).
  ///
  /// - Parameter name: The path the message names (default `path`).
  /// - Throws: ``VideoError/linkedOutput(path:)`` or ``VideoError/invalidOption(_:)`` (invalid
  ///   input, exit 2).
  package static func refuseOddEntry(_ path: String, naming name: String? = nil) throws(VideoError) {
    try refuseLink(path)
    if let kind = specialKind(path) {
      throw .invalidOption(
        "\(quoted: name ?? path) is " + kind
          + ", not a regular file; Flick writes only files (and folders for PNG sequences), never over a device")
    }
  }

  /// Refuses a destination an output cannot be put at, before anything is written: a symbolic
  /// link or a device, FIFO or socket (``refuseOddEntry(_:naming:)``, exit 2); a folder that does
  /// not exist or that this process may not write into; a folder where a file goes, or a file
  /// where a PNG sequence's folder goes; a sequence's existing folder that may not be written.
  ///
  /// - Parameters:
  ///   - path: The file, or with `folder` a PNG sequence's folder.
  ///   - name: The path the messages name (default `path`: a sequence's pattern, say).
  /// - Throws: As ``refuseOddEntry(_:naming:)``, or ``VideoError/cannotWrite(path:reason:)``
  ///   (environment, exit 3).
  package static func checkDestination(_ path: String, folder: Bool, naming name: String? = nil) throws(VideoError) {
    let named = name ?? path
    try refuseOddEntry(path, naming: named)
    let url = URL(fileURLWithPath: entry(path))
    let parent = url.deletingLastPathComponent().path
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: parent, isDirectory: &isDirectory), isDirectory.boolValue else {
      throw .cannotWrite(path: named, reason: "the folder \(quoted: parent) does not exist")
    }
    // Every output is a new file renamed into its folder (a sequence's folder is rebuilt beside
    // it, or updated in place): both need to write there.
    if let reason = unwritable(parent) { throw .cannotWrite(path: named, reason: reason) }
    guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else { return }
    if folder && !isDirectory.boolValue {
      throw .cannotWrite(path: named, reason: "\(quoted: url.path) is a file, not a folder")
    }
    if !folder && isDirectory.boolValue { throw .cannotWrite(path: named, reason: "it is a folder") }
    if folder, let reason = unwritable(url.path) { throw .cannotWrite(path: named, reason: reason) }
  }

  /// Why this process may not create entries in the folder `folder` (`access(W_OK)`: its
  /// permissions, a read-only mount, an immutable folder), or nil.
  static func unwritable(_ folder: String) -> String? {
    guard access(folder, W_OK | X_OK) != 0 else { return nil }
    return "the folder \(quoted: folder) is not writable (\(quoted: String(cString: strerror(errno))))"
  }
}
