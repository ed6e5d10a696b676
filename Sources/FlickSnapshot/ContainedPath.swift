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

  /// A distinct plain folder name for each of `names` (untrusted file names), in the same order.
  ///
  /// The folder is the name without a `.png` extension (any case). When that is a plain name
  /// (``isPlainName(_:)``) of at most 100 characters that no other name shares, ignoring case, it
  /// is kept; otherwise it is made plain (``sanitized(_:fallback:)``), cut to 80 characters and
  /// given `-` and the first 12 hex digits of the whole name's SHA-256. So `a:b.png` and `a;b.png`,
  /// `x.png` and `x.PNG`, or names sharing their first 100 characters never share a folder, and the
  /// result depends only on the names. No folder is one of `reserved` (the names the folder's
  /// owner writes beside them, such as a report's `index.html`), ignoring case, as a
  /// case-insensitive checkout of the folder would: `index.html.png` and `Summary.JSON.png` get
  /// the hashed form.
  package static func distinctFolderNames(
    _ names: [String], reserved: [String] = [], fallback: String = "unnamed"
  ) -> [String] {
    let bases = names.map { $0.lowercased().hasSuffix(".png") ? String($0.dropLast(4)) : $0 }
    let taken = Set(reserved.map { $0.lowercased() })
    var counts: [String: Int] = [:]
    for base in bases { counts[base.lowercased(), default: 0] += 1 }
    func kept(_ i: Int) -> Bool {
      isPlainName(bases[i]) && bases[i].count <= 100 && counts[bases[i].lowercased()] == 1
        && !taken.contains(bases[i].lowercased())
    }
    var used = taken
    var out = [String](repeating: "", count: names.count)
    // Kept names first, so a hashed name never takes a kept one's folder; ties in input order.
    let order = names.indices.sorted { a, b in
      kept(a) != kept(b) ? kept(a) : (names[a] != names[b] ? names[a] < names[b] : a < b)
    }
    for i in order {
      if kept(i) {
        used.insert(bases[i].lowercased())
        out[i] = bases[i]
        continue
      }
      var salt = 0
      repeat {
        let digest = SHA256.hex(Array((salt == 0 ? names[i] : "\(names[i])\u{0}\(salt)").utf8))
        out[i] = String(sanitized(bases[i], fallback: fallback).prefix(80)) + "-" + digest.prefix(12)
        salt += 1
      } while !used.insert(out[i].lowercased()).inserted
    }
    return out
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
