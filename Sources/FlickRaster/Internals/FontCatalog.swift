internal import CPango
import FlickMotion
import Foundation

/// The font families installed on this machine, read once from fontconfig through Pango.
enum FontCatalog {
  /// Names fontconfig resolves by configuration rather than by an installed family.
  static let genericFamilies: Set<String> = [
    "sans-serif", "sans", "serif", "monospace", "mono", "system-ui", "cursive", "fantasy", "emoji",
  ]

  private static let cache = Locked<Set<String>?>(nil)

  /// Lower-cased names of every installed family.
  static var families: Set<String> {
    cache.withLock { cached in
      if let cached { return cached }
      var names = Set<String>()
      let map = Pango.api.cairo_font_map_get_default()
      var list: UnsafeMutablePointer<UnsafeMutablePointer<PangoFontFamily>?>?
      var count: Int32 = 0
      Pango.api.font_map_list_families(map, &list, &count)
      if let list {
        for i in 0..<Int(count) {
          if let family = list[i], let name = Pango.api.font_family_get_name(family) {
            names.insert(String(cString: name).lowercased())
          }
        }
        Pango.api.free(list)
      }
      cached = names
      return names
    }
  }

  /// Whether `family` (case-insensitive) is installed or generic.
  static func isAvailable(_ family: String) -> Bool {
    let name = family.trimmingCharacters(in: .whitespaces).lowercased()
    return genericFamilies.contains(name) || families.contains(name) || FontRegistry.registeredFamilies.contains(name)
  }

  /// The family fontconfig substitutes for `family` (for error messages).
  static func fallback(for family: String) -> String {
    let map = Pango.api.cairo_font_map_get_default()
    guard let context = Pango.api.font_map_create_context(map) else { return "unknown" }
    defer { Pango.api.object_unref(UnsafeMutableRawPointer(context)) }
    guard let description = Pango.api.font_description_new() else { return "unknown" }
    defer { Pango.api.font_description_free(description) }
    Pango.api.font_description_set_family(description, family)
    Pango.api.font_description_set_absolute_size(description, 12 * Double(PANGO_SCALE))
    guard let font = Pango.api.font_map_load_font(map, context, description) else { return "unknown" }
    defer { Pango.api.object_unref(UnsafeMutableRawPointer(font)) }
    guard let loaded = Pango.api.font_describe(font) else { return "unknown" }
    defer { Pango.api.font_description_free(loaded) }
    guard let name = Pango.api.font_description_get_family(loaded) else { return "unknown" }
    return String(cString: name)
  }
}
