import FlickMotion
import FlickRaster
import Foundation

/// Writes a snapshot folder's goldens and its manifest together: all of them or none.
///
/// Every PNG and the manifest are first written to temporary files beside their destinations;
/// only when all of them are complete are they renamed into place (renames within a folder need
/// no space, so a full disk fails in the first phase and leaves the folder as it was). Then the
/// goldens the previous manifest listed and the new one does not are removed. The PNGs may wait
/// for the commit in a ``GoldenSpool`` (files of a temporary folder, each read back as its
/// temporary is written), so a commit of many goldens holds one in memory at a time.
///
/// Every name is checked first (``ContainedPath``): a previous manifest naming `../victim` or a
/// symbolic link out of the folder is refused before anything is written or removed, and so is an
/// `inputs` that is not a real folder (``SnapshotInputs/store(in:)``), stored inputs or not.
package struct SnapshotCommit: Sendable {
  /// The snapshot folder.
  package let directory: String
  /// What a file of the commit holds: its bytes, or the spooled file holding them.
  package enum Content: Sendable {
    /// The bytes themselves, in memory.
    case bytes(Data)
    /// A file of a ``GoldenSpool`` (kept while this content is), read when the commit writes it.
    case spooled(String, GoldenSpool)
  }

  /// The files to write (PNG goldens, the motion golden): name inside the folder and content.
  let files: [(name: String, content: Content)]
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
    var encoded: [(file: String, content: Content)] = []
    for (file, frame) in frames {
      encoded.append((file, .bytes(Data(try PNGFile.encode(frame, renderer: manifest.renderer)))))
    }
    try self.init(
      directory: directory, files: encoded, manifest: manifest, previous: previous, blobs: blobs, motion: motion)
  }

  /// Plans a commit of `files` (file name and content: PNG bytes already encoded with the
  /// manifest's renderer, or a ``GoldenSpool`` file of them) with `manifest` into `directory`.
  ///
  /// - Parameter previous: The manifest the folder held before, whose orphaned goldens go.
  /// - Throws: ``SnapshotError/unsafePath(_:reason:)`` for a name that leaves the folder.
  package init(
    directory: String, files frames: [(file: String, content: Content)], manifest: SnapshotManifest,
    previous: SnapshotManifest?, blobs: [String: Data] = [:], motion: MotionGolden? = nil
  ) throws(SnapshotError) {
    self.blobs = blobs
    let manifestPath = (directory as NSString).appendingPathComponent(SnapshotManifest.fileName)
    try manifest.validate(path: manifestPath)
    var files: [(name: String, content: Content)] = []
    for (file, content) in frames {
      _ = try ContainedPath.resolve(file, in: directory, what: "frame file", source: "the new manifest")
      files.append((file, content))
    }
    if let motion { files.append((MotionGolden.fileName, .bytes(Data(motion.text.utf8)))) }
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
    self.init(
      directory: directory, contents: encoded.map { ($0.name, .bytes($0.bytes)) }, manifest: manifest, blobs: blobs)
  }

  /// A commit of files (plain names inside `directory`, checked by the caller).
  init(
    directory: String, contents: [(name: String, content: Content)], manifest: SnapshotManifest,
    blobs: [String: Data] = [:]
  ) {
    self.blobs = blobs
    self.directory = directory
    self.files = contents
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
    let all: [(String, Content)] =
      newBlobs.sorted { $0.key < $1.key }.map { ("\(SnapshotInputs.folder)/\($0.key)", .bytes($0.value)) } + files
      + [(SnapshotManifest.fileName, .bytes(manifestData))]
    // Two entries for one file would share a temporary and overwrite each other: refused before
    // anything is written (names compared as a case-insensitive file system would).
    try Self.checkDistinct(all.map(\.0), in: directory)
    var temporary: [(tmp: String, final: String)] = []
    do {
      for (name, content) in all {
        let folder = (name as NSString).deletingLastPathComponent
        let file = ".\((name as NSString).lastPathComponent).\(getpid()).tmp"
        let tmp = path((folder.isEmpty ? "" : folder + "/") + file)
        temporary.append((tmp, path(name)))
        // A spooled file is read here, one at a time: only one is in memory.
        try writer(try content.bytes(for: path(name)), tmp)
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

extension SnapshotCommit.Content {
  /// The bytes to write at `destination`: the bytes themselves, or the spooled file's, read now.
  ///
  /// - Throws: ``SnapshotError/unwritableFile(path:reason:)`` naming `destination` when the
  ///   spooled file cannot be read (removed from the temporary folder meanwhile).
  func bytes(for destination: String) throws(SnapshotError) -> Data {
    switch self {
    case .bytes(let data): return data
    case .spooled(let file, _):
      do {
        return try Data(contentsOf: URL(fileURLWithPath: file))
      } catch {
        throw .unwritableFile(
          path: destination,
          reason: "its drawn frame \(quoted: file) cannot be read: \(escaped: MessageText.reason(error))")
      }
    }
  }
}
