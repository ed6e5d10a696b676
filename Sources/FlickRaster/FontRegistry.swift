internal import CPango
import FlickMotion
import Foundation

/// Font files added to this process's fontconfig configuration, so that the families they
/// contain can be named in ``FlickScene/TextContent/fontFamily`` like installed ones.
///
/// Registration is process-wide, thread-safe (also against text being laid out on other threads
/// meanwhile) and idempotent: registering the same file twice
/// (by any spelling of its path) does nothing the second time. Renderers register a tree's
/// ``FlickScene/RenderTree/fontFiles`` themselves before laying out text; call
/// ``register(_:)`` directly to learn a file's families up front.
package enum FontRegistry {
  /// Registered files (resolved path → families) and how many registrations there have been.
  private static let state = Locked<(registered: [String: [String]], count: Int)>(([:], 0))

  /// Adds the font file at `path` (.ttf, .otf or .ttc) to fontconfig.
  ///
  /// - Returns: The family names the file contains (every face of a collection), in file order.
  /// - Throws: ``RasterError/unreadableFont(path:reason:)`` when the file is missing, unreadable
  ///   or not a font fontconfig understands.
  @discardableResult
  package static func register(_ path: String) throws(RasterError) -> [String] {
    let key = URL(fileURLWithPath: path).resolvingSymlinksInPath().standardizedFileURL.path
    // The whole registration holds the lock: two threads must not each install a configuration
    // missing the other's file.
    let result = state.withLock { state in
      Result { () throws(RasterError) -> [String] in try register(key, path, &state) }
    }
    return try result.get()
  }

  private static func register(
    _ key: String, _ path: String, _ state: inout (registered: [String: [String]], count: Int)
  ) throws(RasterError) -> [String] {
    if let families = state.registered[key] { return families }
    let families = try families(inFile: key)
    // The current configuration may be in use by text layout on other threads, so it is never
    // changed: a new one gets every registered file and replaces it (fontconfig reference-counts
    // configurations, so a lookup still running keeps the old one alive until it finishes).
    guard let config = FcInitLoadConfigAndFonts() else {
      throw .unreadableFont(path: path, reason: "cannot load the fontconfig configuration")
    }
    defer { FcConfigDestroy(config) }
    for file in Array(state.registered.keys) + [key] where FcConfigAppFontAddFile(config, file) == 0 {
      throw .unreadableFont(path: file == key ? path : file, reason: "fontconfig refused the file")
    }
    guard FcConfigSetCurrent(config) != 0 else {
      throw .unreadableFont(path: path, reason: "cannot install the fontconfig configuration")
    }
    state.registered[key] = families
    state.count += 1
    return families
  }

  /// Registers every file of `paths`, stopping at the first that fails.
  package static func register(_ paths: [String]) throws(RasterError) {
    for path in paths { try register(path) }
  }

  /// Lower-cased family names of every registered file.
  static var registeredFamilies: Set<String> {
    state.withLock { Set($0.registered.values.joined().map { $0.lowercased() }) }
  }

  /// How many files have been registered so far; a font map that saw fewer must be refreshed.
  static var generation: Int { state.withLock { $0.count } }

  /// The family names in a font file, read by fontconfig's FreeType query without registering it.
  static func families(inFile path: String) throws(RasterError) -> [String] {
    guard FileManager.default.isReadableFile(atPath: path) else {
      let exists = FileManager.default.fileExists(atPath: path)
      throw .unreadableFont(path: path, reason: exists ? "not readable" : "no such file")
    }
    var names: [String] = []
    var faces: Int32 = 1
    var index: Int32 = 0
    while index < faces {
      guard let pattern = FcFreeTypeQuery(path, UInt32(index), nil, &faces) else {
        if index == 0 { throw .unreadableFont(path: path, reason: "not a TrueType, OpenType or collection font file") }
        break
      }
      var value: UnsafeMutablePointer<FcChar8>?
      if FcPatternGetString(pattern, FC_FAMILY, 0, &value) == FcResultMatch, let value {
        let name = String(cString: value)
        if !names.contains(name) { names.append(name) }
      }
      FcPatternDestroy(pattern)
      index += 1
    }
    guard !names.isEmpty else { throw .unreadableFont(path: path, reason: "the font names no family") }
    return names
  }
}
