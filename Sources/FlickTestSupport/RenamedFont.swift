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
    func replace(_ old: [UInt8], _ new: [UInt8]) {
      var start = data.startIndex
      while let r = data[start...].firstRange(of: old) {
        data.replaceSubrange(r, with: new)
        start = r.upperBound
      }
    }
    func utf16(_ s: String) -> [UInt8] { s.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] } }
    replace(Array(family.utf8), Array(renamed.utf8))
    replace(utf16(family), utf16(renamed))
    return data
  }
}
