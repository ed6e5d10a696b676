import FlickMotion
import FlickRaster
import Foundation

/// Writes a snapshot folder's goldens and its manifest together: all of them or none.
///
/// Every PNG and the manifest are first written to temporary files beside their destinations;
/// only when all of them are complete are they renamed into place (renames within a folder need
/// no space, so a full disk fails in the first phase and leaves the folder as it was). Then the
/// goldens the previous manifest listed and the new one does not are removed.
///
/// Every name is checked first (``ContainedPath``): a previous manifest naming `../victim` or a
/// symbolic link out of the folder is refused before anything is written or removed, and so is an
/// `inputs` that is not a real folder (``SnapshotInputs/store(in:)``), stored inputs or not.
package struct SnapshotCommit: Sendable {
  /// The snapshot folder.
  package let directory: String
  /// The PNG files to write: name inside the folder and encoded bytes.
  let files: [(name: String, bytes: Data)]
  /// Stored inputs to write into `inputs/`, by SHA-256 (``SnapshotInputs``).
  let blobs: [String: Data]
  /// The manifest to write.
  package let manifest: SnapshotManifest
  /// Files of the previous manifest that the new one does not list (removed after the commit).
  package let orphans: [String]

  /// Plans a commit of `frames` (file name and frame) with `manifest` into `directory`.
  ///
  /// - Parameter previous: The manifest the folder held before, whose orphaned goldens go.
  /// - Throws: ``SnapshotError/unsafePath(_:reason:)`` for a name that leaves the folder,
  ///   ``SnapshotError/unwritableFile(path:reason:)`` when a frame cannot be encoded.
  package init(
    directory: String, frames: [(file: String, frame: Frame)], manifest: SnapshotManifest,
    previous: SnapshotManifest?, blobs: [String: Data] = [:], motion: MotionGolden? = nil
  ) throws(SnapshotError) {
    self.blobs = blobs
    let manifestPath = (directory as NSString).appendingPathComponent(SnapshotManifest.fileName)
    try manifest.validate(path: manifestPath)
    var files: [(name: String, bytes: Data)] = []
    for (file, frame) in frames {
      _ = try ContainedPath.resolve(file, in: directory, what: "frame file", source: "the new manifest")
      files.append((file, Data(try PNGFile.encode(frame, renderer: manifest.renderer))))
    }
    if let motion { files.append((MotionGolden.fileName, Data(motion.text.utf8))) }
    let kept = Set(manifest.frames.map(\.file))
    var orphans: [String] = []
    if previous?.motion != nil && manifest.motion == nil { orphans.append(MotionGolden.fileName) }
    for old in previous?.frames ?? [] where !kept.contains(old.file) {
      _ = try ContainedPath.resolve(old.file, in: directory, what: "frame file", source: manifestPath)
      orphans.append(old.file)
    }
    self.directory = directory
    self.files = files
    self.manifest = manifest
    self.orphans = orphans
  }

  /// A commit of already encoded files (plain names inside `directory`, checked by the caller).
  init(
    directory: String, encoded: [(name: String, bytes: Data)], manifest: SnapshotManifest, blobs: [String: Data] = [:]
  ) {
    self.blobs = blobs
    self.directory = directory
    self.files = encoded
    self.manifest = manifest
    self.orphans = []
  }

  /// Writes the files of one phase; replaceable in tests to simulate a full disk.
  package typealias Writer = @Sendable (Data, String) throws(SnapshotError) -> Void

  /// Writes `data` into the new temporary file `path`
  /// (``FlickMotion/AtomicDestination/writeTemporary(_:to:mode:)``: created with
  /// `O_EXCL | O_NOFOLLOW`, so a link planted under the predictable name is replaced, never
  /// written through).
  package static let fileWriter: Writer = { (data: Data, path: String) throws(SnapshotError) in
    do throws(AtomicDestination.Failure) {
      try AtomicDestination.writeTemporary(data, to: path)
    } catch {
      throw .unwritableFile(path: path, reason: error.reason)
    }
  }

  /// Commits: writes everything to temporary files, puts each in place
  /// (``FlickMotion/AtomicDestination/commit(_:to:)``: flushed, renamed, the folder flushed),
  /// removes orphans.
  ///
  /// - Throws: ``SnapshotError/unwritableFile(path:reason:)``; the folder is then unchanged.
  package func apply(writer: Writer = SnapshotCommit.fileWriter) throws(SnapshotError) {
    try AtomicFile.makeDirectory(directory)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    let manifestData: Data
    do {
      manifestData = try encoder.encode(manifest) + Data("\n".utf8)
    } catch {
      throw .unwritableFile(path: SnapshotManifest.fileName, reason: "\(escaped: error)")
    }
    func path(_ name: String) -> String { (directory as NSString).appendingPathComponent(name) }
    // Checked before anything reads, writes or removes in it, blobs to store or not.
    let store = try SnapshotInputs.store(in: directory)
    // Stored inputs are content-addressed: one already there with the right bytes is kept, when
    // it is a regular file of the folder. A symbolic link (wherever it leads) or anything else in
    // its place is never read: the input is written again, and the rename replaces the link.
    let newBlobs = blobs.filter { hash, bytes in
      let file = (store as NSString).appendingPathComponent(hash)
      var info = stat()
      guard lstat(file, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, Int(info.st_size) == bytes.count,
        let stored = try? ContainedPath.read(
          "\(SnapshotInputs.folder)/\(hash)", in: directory, what: "stored input", source: directory,
          maximumBytes: bytes.count)
      else { return true }
      return SHA256.hex([UInt8](stored)) != hash
    }
    if !newBlobs.isEmpty { try AtomicFile.makeDirectory(store) }
    let all =
      newBlobs.sorted { $0.key < $1.key }.map { ("\(SnapshotInputs.folder)/\($0.key)", $0.value) } + files
      + [(SnapshotManifest.fileName, manifestData)]
    // Two entries for one file would share a temporary and overwrite each other: refused before
    // anything is written (names compared as a case-insensitive file system would).
    try Self.checkDistinct(all.map(\.0), in: directory)
    var temporary: [(tmp: String, final: String)] = []
    do {
      for (name, bytes) in all {
        let folder = (name as NSString).deletingLastPathComponent
        let file = ".\((name as NSString).lastPathComponent).\(getpid()).tmp"
        let tmp = path((folder.isEmpty ? "" : folder + "/") + file)
        temporary.append((tmp, path(name)))
        try writer(bytes, tmp)
      }
    } catch {
      for t in temporary { unlink(t.tmp) }
      throw error
    }
    try Self.commitAll(temporary)
    for name in orphans {
      var info = stat()
      // Only regular files (a link is removed as a link, never followed).
      if lstat(path(name), &info) == 0, (info.st_mode & S_IFMT) == S_IFREG || (info.st_mode & S_IFMT) == S_IFLNK {
        unlink(path(name))
      }
    }
    removeUnreferencedInputs(in: store)
  }

  /// Removes stored inputs (64-hex-digit regular files in `store`, the `inputs/` folder
  /// ``SnapshotInputs/store(in:)`` checked) the new manifest does not list.
  private func removeUnreferencedInputs(in store: String) {
    let kept = Set(manifest.inputs?.files.map(\.sha256) ?? [])
    for name in (try? FileManager.default.contentsOfDirectory(atPath: store)) ?? [] where !kept.contains(name) {
      guard name.count == 64, name.allSatisfy(\.isASCIIHexDigit) else { continue }
      let file = (store as NSString).appendingPathComponent(name)
      var info = stat()
      if lstat(file, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG { unlink(file) }
    }
  }
}
