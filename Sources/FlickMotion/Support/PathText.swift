/// File paths as the kernel reads them: split at every `/` byte and compared byte for byte.
///
/// Swift's `String` does neither: it splits and compares by grapheme cluster under canonical
/// equivalence. A `/` followed by a combining mark (U+0301) is one `Character`, so splitting
/// `"../\u{301}x"` at `"/"` gives one component where the kernel sees `..` and `\u{301}x`; and
/// `"café" == "cafe\u{301}"` is true for two different folders. Every check of where a path
/// from input leads (containment, `..`, plain names) goes through these.
package enum PathText {
  /// The components of `path` between `/` bytes, empty ones (`a//b`, a leading `/`) left out.
  package static func components(_ path: String) -> [String] {
    path.utf8.split(separator: UInt8(ascii: "/")).map { String(decoding: $0, as: UTF8.self) }
  }

  /// Whether `path` contains a `/` byte.
  package static func hasSeparator(_ path: String) -> Bool { path.utf8.contains(UInt8(ascii: "/")) }

  /// Whether `path` is `folder` or lies inside it, byte for byte (both absolute and canonical).
  package static func isInside(_ path: String, folder: String) -> Bool {
    relative(path, to: folder) != nil
  }

  /// What follows `folder/` in `path` ("" for `folder` itself), compared byte for byte; nil when
  /// `path` is not inside `folder`.
  package static func relative(_ path: String, to folder: String) -> String? {
    let p = Array(path.utf8)
    var f = Array(folder.utf8)
    while f.count > 1, f.last == UInt8(ascii: "/") { f.removeLast() }
    if p == f { return "" }
    if f == [UInt8(ascii: "/")] {
      return p.first == UInt8(ascii: "/") ? String(decoding: p.dropFirst(), as: UTF8.self) : nil
    }
    guard p.count > f.count, p.starts(with: f), p[f.count] == UInt8(ascii: "/") else { return nil }
    return String(decoding: p[(f.count + 1)...], as: UTF8.self)
  }
}
