import Foundation

/// Installed DejaVu fonts with their family renamed, for tests of font files as assets: a family
/// fontconfig cannot already know, drawn exactly like the installed font it was copied from.
package enum RenamedFont {
  /// The folder of the DejaVu fonts (Debian `fonts-dejavu-core`, installed by scripts/bootstrap).
  package static let dejaVu = "/usr/share/fonts/truetype/dejavu/"

  /// The bytes of the DejaVu font file `file` (`DejaVuSans.ttf`, `DejaVuSans-Bold.ttf`, …) with
  /// every `family` name (UTF-8 and UTF-16 big-endian) replaced by `renamed`, which must have as
  /// many letters, so the name table keeps its layout.
  package static func data(_ file: String, family: String = "DejaVu Sans", renamed: String) throws -> Data {
    precondition(renamed.utf8.count == family.utf8.count, "the new name must be as long as the old one")
    var data = try Data(contentsOf: URL(fileURLWithPath: dejaVu + file))
    // Each occurrence of `old` in turn, overwritten in place by `new` (as long): memchr and
    // memcmp, where a generic collection search took most of a second per font in a debug build.
    func replace(_ old: [UInt8], _ new: [UInt8]) {
      precondition(old.count == new.count, "a name is replaced in place")
      data.withUnsafeMutableBytes { raw in
        guard let base = raw.baseAddress, let first = old.first else { return }
        var offset = 0
        while offset + old.count <= raw.count,
          let hit = memchr(base + offset, Int32(first), raw.count - offset - old.count + 1)
        {
          let at = base.distance(to: hit)
          if memcmp(hit, old, old.count) == 0 {
            new.withUnsafeBytes { source in
              if let bytes = source.baseAddress { hit.copyMemory(from: bytes, byteCount: new.count) }
            }
            offset = at + old.count
          } else {
            offset = at + 1
          }
        }
      }
    }
    func utf16(_ s: String) -> [UInt8] { s.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] } }
    replace(Array(family.utf8), Array(renamed.utf8))
    replace(utf16(family), utf16(renamed))
    return data
  }
}
