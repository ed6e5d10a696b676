import FlickMotion
import FlickRaster
import Foundation

/// Where a command that commits many goldens at once (`flick snapshot`, `flick verify --record`,
/// `flick accept --renderer`) keeps each one between drawing it and the commit: encoded as PNG
/// the moment it is drawn and written to a file of a fresh temporary folder, so the process holds
/// one frame at a time, however long the list of times (the memory estimate counts one frame per
/// worker). ``SnapshotCommit`` reads each file back, one at a time, when it writes its temporary
/// beside the destination; the goldens folder itself is untouched until then.
///
/// The folder is removed by ``remove()``, or when the last ``SnapshotCommit/Content`` naming it is
/// released, and by the command's cleanup (`tracking`) when the process is interrupted or stopped
/// by a watch.
package final class GoldenSpool: Sendable {
  /// The temporary folder holding the encoded frames.
  package var folder: String { storage.path }
  private let storage: TrackedFolder
  /// How many files were spooled: the next file's number.
  private let count = Locked(0)

  /// Makes a fresh folder in the system's temporary folder.
  ///
  /// - Parameter tracking: Told of the folder before it is made and after it is removed (the
  ///   command line passes its cleanup registry).
  /// - Throws: ``SnapshotError/unwritableFile(path:reason:)`` when the folder cannot be made.
  package init(tracking: TemporaryFolderTracking = .none) throws(SnapshotError) {
    let folder = (NSTemporaryDirectory() as NSString).appendingPathComponent("flick-frames-\(UUID().uuidString)")
    // Registered before it exists: an interruption at any point removes it.
    tracking.add(folder)
    storage = TrackedFolder(path: folder, tracking: tracking)
    try AtomicFile.makeDirectory(folder)
  }

  /// Removes the folder and what it holds (once): nothing spooled can be committed after.
  package func remove() { storage.remove() }

  /// Encodes `frame` as the PNG a golden is (``PNGFile/encode(_:renderer:)``, with `renderer`'s
  /// fingerprint) into a new file of the spool; the caller then lets go of the frame.
  ///
  /// - Returns: The file, to commit.
  /// - Throws: ``SnapshotError/unwritableFile(path:reason:)`` when the frame cannot be encoded
  ///   or the file written (a full disk).
  package func add(_ frame: Frame, renderer: RendererFingerprint) throws(SnapshotError) -> SnapshotCommit.Content {
    let number = count.withLock { n -> Int in
      defer { n += 1 }
      return n
    }
    let path = (folder as NSString).appendingPathComponent("\(number).png")
    let bytes = Data(try PNGFile.encode(frame, renderer: renderer))
    do {
      try bytes.write(to: URL(fileURLWithPath: path))
    } catch {
      throw .unwritableFile(path: path, reason: MessageText.reason(error))
    }
    return .spooled(path, self)
  }
}
