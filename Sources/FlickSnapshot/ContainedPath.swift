import FlickMotion
import Foundation

/// Paths read from manifests, reports and templates, checked to stay inside their folder.
///
/// A goldens folder or a CI report may come from someone else's pull request, so every name in
/// it is untrusted: it must be a plain relative path (no `..`, no absolute path, no hidden
/// component), and what it resolves to through symbolic links must lie inside the folder.
/// Anything else is refused as invalid input before a single file is touched.
package enum ContainedPath {
  /// Whether `name` is a plain file name: letters, digits, `.`, `_`, `-`, `+`, not starting with
  /// a dot, at most 255 bytes.
  package static func isPlainName(_ name: String) -> Bool {
    !name.isEmpty && !name.hasPrefix(".") && name.utf8.count <= 255
      && name.unicodeScalars.allSatisfy {
        ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
          || "._-+".unicodeScalars.contains($0)
      }
  }

  /// `name` made plain for use as a folder or file name: other characters become `-`, leading dots
  /// and dashes are dropped; empty results become `fallback`.
  package static func sanitized(_ name: String, fallback: String = "unnamed") -> String {
    let mapped = String(
      String.UnicodeScalarView(
        name.unicodeScalars.map {
          isPlainName(String($0)) || $0 == "." ? $0 : "-"
        }))
    let trimmed = String(mapped.drop { $0 == "." || $0 == "-" }.prefix(100))
    return trimmed.isEmpty ? fallback : trimmed
  }

  /// The path of `relative` inside `directory`, after checking it stays there.
  ///
  /// - Parameters:
  ///   - relative: A path relative to `directory` whose components are plain names.
  ///   - directory: The folder it must stay in.
  ///   - what: What the path is, for the message (`frame file`, `artefact`).
  ///   - source: The file that named it (manifest or summary), for the message.
  /// - Throws: ``SnapshotError/unsafePath(_:reason:)``.
  package static func resolve(_ relative: String, in directory: String, what: String, source: String)
    throws(SnapshotError) -> String
  {
    let shown = "\(what) '\(relative)' in \(source)"
    guard !relative.hasPrefix("/") else { throw .unsafePath(shown, reason: "an absolute path is not allowed") }
    // Split at every "/" byte: "/" and a combining mark after it are one Character.
    let parts = relative.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
      .map { String(decoding: $0, as: UTF8.self) }
    for part in parts where !isPlainName(part) {
      throw .unsafePath(
        shown, reason: part == ".." ? "'..' leaves the folder" : "'\(quoted: part)' is not a plain file name")
    }
    let path = parts.reduce(directory) { ($0 as NSString).appendingPathComponent($1) }
    // Through symbolic links, whatever exists must still be inside the folder.
    guard let base = realPath(directory) else { return path }
    var probe = path
    while realPath(probe) == nil && probe != directory && probe.count > directory.count {
      probe = (probe as NSString).deletingLastPathComponent
    }
    if let real = realPath(probe), !PathText.isInside(real, folder: base) {
      throw .unsafePath(shown, reason: "it resolves to \(quoted: real), outside \(quoted: base)")
    }
    return path
  }

  static func realPath(_ path: String) -> String? {
    guard let p = realpath(path, nil) else { return nil }
    defer { free(p) }
    return String(cString: p)
  }
}
