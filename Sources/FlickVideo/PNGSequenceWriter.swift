import FlickMotion
import FlickScene
import FlickRaster
import Foundation

/// Writes every frame as its own PNG file (8-bit RGBA, straight alpha), named by frame number.
///
/// `frames/` gives `frames/0000.png`, `frames/0001.png`, … (at least four digits, more when the
/// last frame number needs them); `frames/shot-%03d.png` gives `frames/shot-000.png`, … Numbers
/// are scene frame numbers, so `--frames 120..179` writes `0120.png` … `0179.png`.
///
/// The PNG files are encoded on the raster workers, in parallel (``workerStep``); they are
/// written into a temporary folder beside the destination folder, and ``commit()`` puts the
/// sequence in place as a whole (see there): old and new frames never mix, stale frames of a
/// longer earlier render go when the folder's marker (``markerName``) shows Flick wrote them,
/// and files Flick did not write are kept.
package final class PNGSequenceWriter: FrameSink {
  package let destination: String
  package let wantsStraightAlpha = false
  private let pattern: FrameNamePattern
  private let lastIndex: Int
  /// Flick frames numbered past this are stale.
  private let staleAfter: Int
  private let temporaryFolder: String
  private var written: [String] = []
  private var state = SinkState.running
  /// What was written (the size of the frames once committed).
  package private(set) var report = SinkReport()

  /// Prepares a sequence at `destination` whose frames are numbered up to `lastIndex`.
  ///
  /// - Throws: ``VideoError/unsupportedFormat(path:)`` for a path that is not a folder or a
  ///   `%d` pattern, what ``OutputEntry/checkDestination(_:folder:naming:)`` throws for its
  ///   folder, ``VideoError/cannotWrite(path:reason:)`` when the temporary folder cannot be made.
  /// - Parameter sceneLastIndex: The scene's last frame number (default `lastIndex`): Flick frames
  ///   of the folder numbered past it are stale and go at commit; a render of part of the scene
  ///   (`--frames`) passes the scene's end so the other frames stay.
  package init(destination: String, lastIndex: Int, sceneLastIndex: Int? = nil) throws(VideoError) {
    guard let pattern = FrameNamePattern(destination) else { throw .unsupportedFormat(path: destination) }
    self.destination = destination
    self.pattern = pattern
    self.lastIndex = lastIndex
    self.staleAfter = max(lastIndex, sceneLastIndex ?? lastIndex)
    // The sequence's folder is never a link (its frames would go where it points, and the
    // rebuild below would gather that folder's files into the output), nor a file or a device,
    // and it and its parent can be written: the checks every destination gets.
    try OutputEntry.checkDestination(pattern.directory, folder: true, naming: destination)
    let folder = URL(fileURLWithPath: OutputEntry.entry(pattern.directory))
    let parent = folder.deletingLastPathComponent().path
    temporaryFolder =
      URL(fileURLWithPath: parent)
      .appendingPathComponent(".\(folder.lastPathComponent).\(getpid()).partial").path
    Cleanup.shared.add(folder: temporaryFolder)
    do {
      // Whatever has the temporary's name goes (a link itself, not what it points to); mkdir
      // then makes a new folder of Flick's own.
      if OutputEntry.isLink(temporaryFolder) {
        unlink(temporaryFolder)
      } else {
        try? FileManager.default.removeItem(atPath: temporaryFolder)
      }
      try FileManager.default.createDirectory(atPath: temporaryFolder, withIntermediateDirectories: false)
    } catch {
      Cleanup.shared.remove(folder: temporaryFolder)
      state = .aborted
      throw .cannotWrite(
        path: destination,
        reason: "cannot create \(quoted: temporaryFolder): "
          + "\(escaped: MessageText.reason(error))")
    }
  }

  deinit {
    abort()
  }

  /// The file name of frame `index` (without folder).
  package func fileName(ofFrame index: Int) -> String {
    pattern.fileName(index, lastIndex: lastIndex)
  }

  /// Encodes a frame into the temporary folder (Cairo's PNG writer un-premultiplies it); runs
  /// on the raster workers and touches only immutable state.
  package var workerStep: (@Sendable (PreparedFrame) throws -> Void)? {
    let folder = temporaryFolder
    let pattern = self.pattern
    let lastIndex = self.lastIndex
    return { frame in
      let name = pattern.fileName(frame.index, lastIndex: lastIndex)
      do {
        try frame.frame.writePNG(to: folder + "/" + name)
      } catch let error as RasterError {
        throw VideoError.cannotWrite(path: pattern.directory + "/" + name, reason: error.description)
      }
    }
  }

  /// The folder the frames go into before ``commit()`` (a new folder of Flick's own beside the
  /// destination). A caller that has the frames' files already (`flick merge`) puts each there
  /// as a new file of its own and records it with ``adopt(frame:)``.
  package var stagingFolder: String { temporaryFolder }

  /// Records frame `index`, whose file (named ``fileName(ofFrame:)``) the caller put in
  /// ``stagingFolder``, in place of a rendered frame.
  package func adopt(frame index: Int) {
    written.append(fileName(ofFrame: index))
  }

  /// Records the frame, whose file the worker step has written.
  package func write(_ frame: PreparedFrame) throws {
    written.append(fileName(ofFrame: frame.index))
  }

  package func finish() throws {
    if state == .running { state = .finished }
  }

  /// The file in a sequence folder that lists the frames Flick wrote there, one name a line
  /// after a header line. It is how a later render knows which files are its frames (and may go
  /// when a shorter render replaces them) and which are someone else's (never touched).
  package static let markerName = ".flick-sequence"
  /// The marker's first line, for tests that write markers.
  package static var markerHeaderForTests: String { markerHeader }
  static let markerHeader =
    "# PNG frames written by flick render; frames listed here may be replaced or removed by the next render"

  /// Puts the new frames in place.
  ///
  /// A new destination is the temporary folder renamed. An existing folder that holds nothing
  /// but Flick's own files (its marker, and frames the marker lists that are regular files of
  /// this user with one link each) is rebuilt in the temporary folder, which then replaces it
  /// with two renames (so a reader sees the old or the new sequence, never a mix): the frames
  /// that stay are hard-linked in, stale frames (``isStale(_:)``: of a longer earlier render, or
  /// named with other digits) are left out. Any other folder (one with files Flick did not
  /// write, sub-folders, links, or the current folder) is updated in place instead: the new
  /// frames are renamed in one by one (a rename replaces an entry, it never writes through a
  /// link), stale Flick frames (regular files the marker lists) are removed, the marker is
  /// rewritten, and nothing else is touched: Flick never links, moves or copies a file it did
  /// not write. A destination that became a symbolic link since the render started is refused.
  /// `flick merge` commits its sequences the same way (``adopt(frame:)``).
  package func commit() throws {
    guard state == .finished else { return }
    let failure: VideoError? = Cleanup.shared.locked {
      defer {
        try? FileManager.default.removeItem(atPath: temporaryFolder)
        Cleanup.shared.remove(folder: temporaryFolder)
      }
      let destination = OutputEntry.entry(pattern.directory)
      var info = stat()
      guard lstat(destination, &info) == 0 else {
        writeMarker(written)
        AtomicDestination.syncFolder(containing: temporaryFolder + "/.")
        return AtomicDestination.move(temporaryFolder, to: destination).map {
          .cannotWrite(path: destination, reason: $0.reason)
        }
      }
      switch info.st_mode & S_IFMT {
      case S_IFDIR: break
      case S_IFLNK: return .linkedOutput(path: destination)
      default: return .cannotWrite(path: destination, reason: "it is a file, not a folder")
      }
      if let listed = rebuildInTemporaryFolder() {
        writeMarker(listed)
        return swapIntoPlace()
      }
      return updateInPlace()
    }
    state = failure == nil ? .committed : .aborted
    if let failure { throw failure }
    report.bytes = written.reduce(0) { $0 + SinkReport.fileSize(pattern.directory + "/" + $1) }
  }

  /// The frame names an existing folder's marker lists (plain names only), or nil without one
  /// (or when the marker is not a regular file: a link is not read).
  static func listedFrames(in folder: String) -> Set<String>? {
    // Read once through the bounded reader: not through a link, not a FIFO, at most 16 MiB.
    guard
      let bytes = try? AssetFile.read(
        folder + "/" + markerName, maximumBytes: 16 << 20, kind: "a frame list", followingLinks: false),
      let text = String(bytes: bytes, encoding: .utf8),
      text.hasPrefix("# PNG frames written by flick")
    else { return nil }
    // Typed closures: inferred, this expression took the type checker 6.6 s of every build.
    let lines: [String] = text.split(separator: "\n").dropFirst().map { (line: Substring) -> String in String(line) }
    return Set(
      lines.filter { (name: String) -> Bool in
        !name.isEmpty && !PathText.hasSeparator(name) && name != "." && name != ".." && name != markerName
      })
  }

  /// The frame number of `name` in this sequence's pattern, or nil when it is not one.
  private func frameNumber(_ name: String) -> Int? {
    guard name.hasPrefix(pattern.prefix), name.hasSuffix(pattern.suffix),
      name.count > pattern.prefix.count + pattern.suffix.count
    else { return nil }
    let digits = name.dropFirst(pattern.prefix.count).dropLast(pattern.suffix.count)
    guard digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber) else { return nil }
    return Int(digits)
  }

  /// Whether the listed Flick frame `name` is stale: numbered past ``staleAfter`` (a frame of a
  /// longer render), or not named as this render names its number (`00003.png` of an earlier
  /// render whose last frame needed five digits, where this one writes `0003.png`). A name that
  /// is no frame of this pattern (another pattern's frames in the same folder) is not.
  private func isStale(_ name: String) -> Bool {
    guard let n = frameNumber(name) else { return false }
    return n > staleAfter || name != fileName(ofFrame: n)
  }

  /// Whether `path` is a file Flick wrote and may link: a regular file (not a link, not a
  /// folder) of this user, with no other hard link.
  private static func isOwnFrame(_ path: String) -> Bool {
    var info = stat()
    return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG && info.st_nlink == 1
      && info.st_uid == geteuid()
  }

  /// Hard-links the old folder's frames that stay into the temporary folder, when the folder
  /// holds nothing but Flick's own files.
  ///
  /// - Returns: The Flick frames the new folder holds (for its marker), or nil when the folder
  ///   is not rebuilt (then the temporary folder holds only the new frames again).
  private func rebuildInTemporaryFolder() -> [String]? {
    let destination = OutputEntry.entry(pattern.directory)
    let standardized = URL(fileURLWithPath: destination).standardizedFileURL.path
    guard standardized != FileManager.default.currentDirectoryPath, standardized != "/",
      let listed = Self.listedFrames(in: destination),
      let names = try? FileManager.default.contentsOfDirectory(atPath: destination)
    else { return nil }
    let rewritten = Set(written)
    var linked: [String] = []
    var keptFrames: [String] = []
    for name in names where name != Self.markerName {
      let path = destination + "/" + name
      // Anything the marker does not list, or that is not a plain file of Flick's, is someone
      // else's: the folder is then updated in place and the file left alone.
      guard listed.contains(name), Self.isOwnFrame(path) else {
        for l in linked { unlink(temporaryFolder + "/" + l) }
        return nil
      }
      if rewritten.contains(name) { continue }
      if isStale(name) { continue }  // of a longer render, or named with other digits
      guard link(path, temporaryFolder + "/" + name) == 0 else {
        for l in linked { unlink(temporaryFolder + "/" + l) }
        return nil
      }
      linked.append(name)
      keptFrames.append(name)
    }
    var info = stat()
    if lstat(destination, &info) == 0 { chmod(temporaryFolder, info.st_mode & 0o7777) }
    return (keptFrames + written).sorted()
  }

  /// Renames the new frames into the existing folder one by one, removes the stale Flick frames
  /// (regular files the marker lists, numbered past this render's scene end) and rewrites the
  /// marker; touches nothing else.
  private func updateInPlace() -> VideoError? {
    let destination = OutputEntry.entry(pattern.directory)
    let listed = Self.listedFrames(in: destination) ?? []
    for name in written {
      let target = destination + "/" + name
      if let failure = AtomicDestination.move(temporaryFolder + "/" + name, to: target, syncsFolder: false) {
        return .cannotWrite(path: target, reason: failure.reason)
      }
    }
    var frames = Set(written)
    let rewritten = Set(written)
    for name in listed where !rewritten.contains(name) {
      let path = destination + "/" + name
      var info = stat()
      guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { continue }
      if isStale(name) {
        unlink(path)
      } else {
        frames.insert(name)
      }
    }
    writeMarker(frames.sorted())
    // A rename replaces the entry (a link included) and never writes through it.
    _ = AtomicDestination.move(temporaryFolder + "/" + Self.markerName, to: destination + "/" + Self.markerName)
    return nil
  }

  private func writeMarker(_ frames: [String]) {
    let text = ([Self.markerHeader] + frames).joined(separator: "\n") + "\n"
    try? AtomicDestination.write(Data(text.utf8), to: temporaryFolder + "/" + Self.markerName)
  }

  /// Replaces the destination folder by the complete temporary one
  /// (``FlickMotion/AtomicDestination/replaceFolder(_:with:aside:)``): the two are exchanged in
  /// one step, so the destination is never missing (where the file system cannot, the old folder
  /// is renamed aside to `.NAME.PID.old`, which the next run puts back if it was left there, and
  /// back again if the new one cannot take its place); the old folder is removed only then.
  private func swapIntoPlace() -> VideoError? {
    let destination = URL(fileURLWithPath: OutputEntry.entry(pattern.directory)).standardizedFileURL
    let aside = destination.deletingLastPathComponent()
      .appendingPathComponent(".\(destination.lastPathComponent).\(getpid()).old").path
    AtomicDestination.syncFolder(containing: temporaryFolder + "/.")
    switch AtomicDestination.replaceFolder(destination.path, with: temporaryFolder, aside: aside) {
    case .success(let old):
      try? FileManager.default.removeItem(atPath: old)
      return nil
    case .failure(let failure):
      return .cannotWrite(path: destination.path, reason: failure.reason)
    }
  }

  package func abort() {
    guard state == .running || state == .finished else { return }
    state = .aborted
    try? FileManager.default.removeItem(atPath: temporaryFolder)
    Cleanup.shared.remove(folder: temporaryFolder)
  }
}
