import FlickMotion
import FlickVideo
import Foundation

/// The up-to-date marks: beside each output (`.NAME.flick-stamp`), the id of the job that wrote
/// it. A job is up to date, like a make target, when every output exists with its id.
enum Stamp {
  /// The stamp file for an output path (a file, a `DIR/` or a `DIR/%04d.png` sequence).
  static func path(for output: OutputTarget) -> String {
    let url = URL(fileURLWithPath: folder(of: output))
    return url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).flick-stamp").path
  }

  /// The file, or for a PNG sequence its folder.
  static func folder(of output: OutputTarget) -> String {
    guard output.format == .png else { return output.path }
    let p = output.path
    if p.hasSuffix("/") { return String(p.dropLast()) }
    return URL(fileURLWithPath: p).deletingLastPathComponent().path
  }

  /// The largest stamp read, in bytes: a stamp is a 64-digit id and a newline.
  static let maximumBytes = 256

  /// Whether `output` exists and carries the stamp `id`; for a PNG sequence every frame in
  /// `frames` must exist too. A stamp that is a symbolic link, not a regular file or over
  /// ``maximumBytes`` is not read: the output is stale, and rendering it again replaces the stamp.
  static func isCurrent(_ output: OutputTarget, id: String, frames: Range<Int>, digits: Int?) -> Bool {
    problem(output, id: id, frames: frames, digits: digits) == nil
  }

  /// What keeps `output` from being current with `id` (``isCurrent(_:id:frames:digits:)``), in
  /// words for a message: `stale (it has no stamp)`, `stale (its stamp is not its id)` (another
  /// id, or a stamp that is not read), `incomplete ('…/0.mp4' is missing)`, `incomplete (frame
  /// '…/0.frames/0003.png' is missing)`; nil when it is current.
  static func problem(_ output: OutputTarget, id: String, frames: Range<Int>, digits: Int?) -> String? {
    let stamp = path(for: output)
    var info = stat()
    guard lstat(stamp, &info) == 0 else { return "stale (it has no stamp)" }
    guard
      let text = try? ManifestScope.read(stamp, what: "stamp", limit: maximumBytes, at: nil, followingLinks: false),
      text.trimmingCharacters(in: .whitespacesAndNewlines) == id
    else { return "stale (its stamp is not its id)" }
    guard output.format == .png else {
      return FileManager.default.fileExists(atPath: output.path)
        ? nil : "incomplete (\(quoted: output.path) is missing)"
    }
    let dir = folder(of: output)
    let width = digits ?? max(4, String(frames.upperBound - 1).count)
    let file = { (index: Int) in dir + "/" + frameName(index, digits: width) }
    guard let missing = frames.first(where: { !FileManager.default.fileExists(atPath: file($0)) }) else { return nil }
    return "incomplete (frame \(quoted: file(missing)) is missing)"
  }

  static func frameName(_ index: Int, digits: Int) -> String {
    let n = String(index)
    return String(repeating: "0", count: max(0, digits - n.count)) + n + ".png"
  }

  /// Writes the stamp atomically (``FlickMotion/AtomicDestination``).
  static func write(_ output: OutputTarget, id: String) throws(BatchError) {
    let destination = path(for: output)
    do {
      try AtomicDestination.write(Data((id + "\n").utf8), to: destination)
    } catch {
      throw .environment("cannot write the stamp \(quoted: destination): \(escaped: MessageText.reason(error))")
    }
  }

  /// Refuses a stamp destination no stamp can be renamed onto, a folder (a link, a FIFO or a
  /// file are replaced), before the job's first output or stamp is touched.
  ///
  /// - Throws: ``BatchError/environment(_:)``.
  static func checkDestination(_ output: OutputTarget) throws(BatchError) {
    let stamp = path(for: output)
    var info = stat()
    guard lstat(stamp, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else { return }
    throw .environment("cannot write the stamp \(quoted: stamp): it is a folder")
  }

  static func remove(_ output: OutputTarget) {
    unlink(path(for: output))
  }
}
