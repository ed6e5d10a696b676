import FlickMotion
import Foundation

extension PNGSequenceWriter {
  /// Refuses, before anything is rendered, a sequence whose existing folder holds something that
  /// is no file (a folder, a FIFO, a socket, a device) under the name of a frame the render
  /// writes: the commit renames each new frame over its name, which fails on a folder (after
  /// the other outputs and some frames were in place) and would replace a device. A regular file
  /// or a symbolic link there is replaced by the new frame (a rename never writes through a link).
  ///
  /// - Parameters:
  ///   - destination: The sequence (a `DIR/` or a `DIR/…%0Nd….png` pattern).
  ///   - frames: The frame numbers the render writes.
  ///   - lastIndex: The last frame number (it sets the digits of the names).
  /// - Throws: ``VideoError/invalidOption(_:)`` (invalid input, exit 2) naming the entry.
  package static func refuseTakenFrameNames(
    destination: String, frames: Range<Int>, lastIndex: Int
  ) throws(VideoError) {
    guard let pattern = FrameNamePattern(destination) else { return }
    let folder = OutputEntry.entry(pattern.directory)
    var info = stat()
    guard lstat(folder, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else { return }
    for index in frames {
      let path = folder + "/" + pattern.fileName(index, lastIndex: lastIndex)
      guard lstat(path, &info) == 0 else { continue }
      let type = info.st_mode & S_IFMT
      if type == S_IFREG || type == S_IFLNK { continue }
      let kind = type == S_IFDIR ? "a folder" : AtomicDestination.specialKind(info.st_mode) ?? "not a regular file"
      throw .invalidOption(
        "cannot write the PNG sequence \(quoted: destination): \(quoted: path), the name of frame \(index), is "
          + kind + "; Flick puts frames only where there is no entry or a file (move it away, or give another folder)")
    }
  }
}
