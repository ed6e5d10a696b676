import FlickRaster
import Foundation

/// Writes every frame as its own PNG file (8-bit RGBA, straight alpha), named by frame number.
///
/// `frames/` gives `frames/0000.png`, `frames/0001.png`, … (at least four digits, more when the
/// last frame number needs them); `frames/shot-%03d.png` gives `frames/shot-000.png`, … Numbers
/// are scene frame numbers, so `--frames 120..179` writes `0120.png` … `0179.png`.
///
/// The PNG files are encoded on the raster workers, in parallel (``workerStep``); they are
/// written into a temporary folder beside the destination folder; ``commit()`` renames
/// that folder into place when the destination does not exist yet, and otherwise moves the files
/// in one by one (replacing files of the same names, leaving others alone).
public final class PNGSequenceWriter: FrameSink {
  public let destination: String
  public let wantsStraightAlpha = false
  private let pattern: FrameNamePattern
  private let lastIndex: Int
  private let temporaryFolder: String
  private var written: [String] = []
  private var state = State.running

  private enum State { case running, finished, committed, aborted }

  /// Prepares a sequence at `destination` whose frames are numbered up to `lastIndex`.
  ///
  /// - Throws: ``VideoError/unsupportedFormat(path:)`` for a path that is not a folder or a
  ///   `%d` pattern, ``VideoError/cannotWrite(path:reason:)`` when the temporary folder cannot
  ///   be made.
  public init(destination: String, lastIndex: Int) throws(VideoError) {
    guard let pattern = FrameNamePattern(destination) else { throw .unsupportedFormat(path: destination) }
    self.destination = destination
    self.pattern = pattern
    self.lastIndex = lastIndex
    let folder = URL(fileURLWithPath: pattern.directory)
    let parent = folder.deletingLastPathComponent().path
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: parent, isDirectory: &isDirectory), isDirectory.boolValue else {
      throw .cannotWrite(path: destination, reason: "the folder \(parent) does not exist")
    }
    if FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), !isDirectory.boolValue {
      throw .cannotWrite(path: destination, reason: "\(folder.path) is a file, not a folder")
    }
    temporaryFolder = URL(fileURLWithPath: parent)
      .appendingPathComponent(".\(folder.lastPathComponent).\(getpid()).partial").path
    Cleanup.shared.add(folder: temporaryFolder)
    do {
      try? FileManager.default.removeItem(atPath: temporaryFolder)
      try FileManager.default.createDirectory(atPath: temporaryFolder, withIntermediateDirectories: false)
    } catch {
      Cleanup.shared.remove(folder: temporaryFolder)
      state = .aborted
      throw .cannotWrite(path: destination, reason: "cannot create \(temporaryFolder): \(error.localizedDescription)")
    }
  }

  deinit {
    abort()
  }

  /// The file name of frame `index` (without folder).
  public func fileName(ofFrame index: Int) -> String {
    pattern.fileName(index, lastIndex: lastIndex)
  }

  /// Encodes a frame into the temporary folder (Cairo's PNG writer un-premultiplies it); runs
  /// on the raster workers and touches only immutable state.
  public var workerStep: (@Sendable (PreparedFrame) throws -> Void)? {
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

  /// Records the frame, whose file the worker step has written.
  public func write(_ frame: PreparedFrame) throws {
    written.append(fileName(ofFrame: frame.index))
  }

  public func finish() throws {
    if state == .running { state = .finished }
  }

  /// Moves the frames into the destination folder.
  public func commit() throws {
    guard state == .finished else { return }
    let failure: VideoError? = Cleanup.shared.locked {
      defer {
        try? FileManager.default.removeItem(atPath: temporaryFolder)
        Cleanup.shared.remove(folder: temporaryFolder)
      }
      if rename(temporaryFolder, pattern.directory) == 0 { return nil }
      for name in written {
        let target = pattern.directory + "/" + name
        guard rename(temporaryFolder + "/" + name, target) == 0 else {
          return .cannotWrite(path: target, reason: String(cString: strerror(errno)))
        }
      }
      return nil
    }
    state = failure == nil ? .committed : .aborted
    if let failure { throw failure }
  }

  public func abort() {
    guard state == .running || state == .finished else { return }
    state = .aborted
    try? FileManager.default.removeItem(atPath: temporaryFolder)
    Cleanup.shared.remove(folder: temporaryFolder)
  }
}
