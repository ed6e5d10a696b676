import FlickMotion
import Foundation

/// Where each file a render reads (a picture, an SVG or Lottie file, a font file) is to be found,
/// so a long-lived process never reads a path after it was made to lead elsewhere.
///
/// The caches of those files (``ImageStore``, ``ResourcePool``, ``FontRegistry``) read a path
/// again when the file changed on disk (``FileSignature``), long after the template that named
/// it was compiled and its paths confined to its folder (`flick studio` keeps drawing its last
/// good compile while a file does not compile). A template hands over canonical paths, with every
/// symbolic link resolved; a checkout that then replaces the file, or a folder on its way, with a
/// link to a file elsewhere would have that file read under the confined name. So every path is
/// bound to the real path it first had: the compiler binds the paths it confined, when it
/// confines them (``bind(_:)``), and any other path is bound where it is first read. A read whose
/// path resolves elsewhere now is refused (``refusal(_:)``), whatever the cache held: the same
/// confinement, applied again at every read.
package enum FileResolution {
  /// The real path each path was bound to, both as bytes: Swift's `String` equality (and
  /// hashing) is canonical equivalence, under which two different file names can be equal.
  private static let bound = Locked([[UInt8]: [UInt8]]())

  /// Binds `canonical`, a path with every symbolic link resolved (a template's confined asset),
  /// to itself: from now on it is read only while no link is on its way.
  package static func bind(_ canonical: String) {
    bound.withLock { $0[Array(canonical.utf8)] = Array(canonical.utf8) }
  }

  /// Why the file at `path` must not be read now: it resolves to another real path than the one
  /// it is bound to (bound now, on the first read of a path never bound). Nil when it may be read,
  /// or when it cannot be resolved (it is missing: the reader reports that).
  static func refusal(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    let now = Array(String(cString: resolved).utf8)
    free(resolved)
    let first = bound.withLock { table -> [UInt8] in
      if let first = table[Array(path.utf8)] { return first }
      table[Array(path.utf8)] = now
      return now
    }
    guard now != first else { return nil }
    let (shownNow, shownFirst) = (String(decoding: now, as: UTF8.self), String(decoding: first, as: UTF8.self))
    return
      "it now leads through a symbolic link to '\(quoted: shownNow)', not to '\(quoted: shownFirst)' as when it was "
      + "checked; Flick does not read a file through a link put in its way since"
  }
}
