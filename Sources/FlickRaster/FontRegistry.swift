internal import CPango
import FlickMotion
import Foundation

/// Font files added to this process's fontconfig configuration, so that the families they
/// contain can be named in ``FlickScene/TextContent/fontFamily`` like installed ones.
///
/// Registration is process-wide, thread-safe (also against text being laid out on other threads
/// meanwhile) and idempotent: registering the same file twice
/// (by any spelling of its path) does nothing the second time, as long as the file did not change
/// on disk. A file that changed since it was registered (another ``FileSignature``: an edit, or
/// a new file saved over it; `flick studio` keeps one process across edits) is registered again:
/// fontconfig gets a new configuration holding the file as it is now, under a private copy with a
/// name never used before, because cairo and Pango keep faces and glyphs by file name, and a copy
/// is the one way their caches cannot hand back the old glyphs. The copy before the previous
/// one of a file is deleted; `flick studio` removes the folder (``copiesFolder``) when it ends.
/// Renderers register a tree's ``FlickScene/RenderTree/fontFiles`` themselves before laying out
/// text; call ``register(_:)`` directly to learn a file's families up front.
package enum FontRegistry {
  /// A registered file: the version registered, its families, and the file fontconfig reads
  /// (the file itself, or a private copy once it changed).
  struct Entry {
    var signature: FileSignature?
    var families: [String]
    var loaded: String
  }

  struct State {
    /// Registered files by resolved path.
    var registered: [String: Entry] = [:]
    /// Registrations so far (new files and changed ones).
    var count = 0
    /// Private copies made of changed files, oldest first.
    var copies: [String] = []
  }

  /// Registered files and how many registrations there have been.
  private static let state = Locked(State())

  /// Adds the font file at `path` (.ttf, .otf or .ttc) to fontconfig.
  ///
  /// - Returns: The family names the file contains (every face of a collection), in file order.
  /// - Throws: ``RasterError/unreadableFont(path:reason:)`` when the file is missing, unreadable
  ///   or not a font fontconfig understands.
  @discardableResult
  package static func register(_ path: String) throws(RasterError) -> [String] {
    let key = URL(fileURLWithPath: path).resolvingSymlinksInPath().standardizedFileURL.path
    let signature = FileSignature.of(key)
    if let known = state.withLock({ $0.registered[key] }), known.signature == signature { return known.families }
    // A file registered anew is read only where its path was bound: a font file replaced by a
    // symbolic link (or a folder on its way) after its template was compiled is refused.
    if let refusal = FileResolution.refusal(path) { throw .unreadableFont(path: path, reason: refusal) }
    // The whole registration holds the lock: two threads must not each install a configuration
    // missing the other's file.
    let result = state.withLock { state in
      Result { () throws(RasterError) -> [String] in try register(key, path, signature, &state) }
    }
    return try result.get()
  }

  private static func register(
    _ key: String, _ path: String, _ signature: FileSignature?, _ state: inout State
  ) throws(RasterError) -> [String] {
    let previous = state.registered[key]
    if let previous, previous.signature == signature { return previous.families }
    let families = try families(inFile: key)
    // A changed file is read by fontconfig, cairo and Pango under a name they never saw.
    let loaded = try previous == nil ? key : copy(key, path, serial: state.count)
    // A file registered earlier that is gone now (deleted from the studio's folder, or the
    // folder of a template that was closed) is dropped: it could not be drawn any more, and
    // fontconfig would refuse the whole configuration for it.
    var files = state.registered.filter { access($0.value.loaded, R_OK) == 0 }
    files[key] = Entry(signature: signature, families: families, loaded: loaded)
    // The current configuration may be in use by text layout on other threads, so it is never
    // changed: a new one gets every registered file and replaces it (fontconfig reference-counts
    // configurations, so a lookup still running keeps the old one alive until it finishes).
    guard let config = FcInitLoadConfigAndFonts() else {
      throw .unreadableFont(path: path, reason: "cannot load the fontconfig configuration")
    }
    defer { FcConfigDestroy(config) }
    var kept: [String: Entry] = [:]
    for (file, entry) in files.sorted(by: { $0.key < $1.key }) {
      if FcConfigAppFontAddFile(config, entry.loaded) != 0 {
        kept[file] = entry
        continue
      }
      // Only the file being registered is an error: an earlier one fontconfig cannot read now
      // vanished after the check above (a folder removed meanwhile) and is dropped like one gone
      // before it.
      guard file != key else { throw .unreadableFont(path: path, reason: "fontconfig refused the file") }
    }
    guard FcConfigSetCurrent(config) != 0 else {
      throw .unreadableFont(path: path, reason: "cannot install the fontconfig configuration")
    }
    files = kept
    state.registered = files
    state.count += 1
    if loaded != key {
      state.copies.append(loaded)
      // The copy before the previous one is no longer in any configuration or renderer.
      let stale = state.copies.filter { copy in !files.values.contains { $0.loaded == copy } }
      for old in stale.dropLast() { try? FileManager.default.removeItem(atPath: old) }
      state.copies.removeAll { stale.dropLast().contains($0) }
    }
    return families
  }

  /// The folder of this process's private copies of changed font files (made on the first copy).
  package static let copiesFolder =
    (NSTemporaryDirectory() as NSString).appendingPathComponent("flick-fonts-\(getpid())")

  /// Copies the changed file `key` to a new private name (`serial` makes it unique).
  private static func copy(_ key: String, _ path: String, serial: Int) throws(RasterError) -> String {
    let name = "\(serial)-" + (key as NSString).lastPathComponent
    let target = (copiesFolder as NSString).appendingPathComponent(name)
    do {
      try FileManager.default.createDirectory(atPath: copiesFolder, withIntermediateDirectories: true)
      try? FileManager.default.removeItem(atPath: target)
      try FileManager.default.copyItem(atPath: key, toPath: target)
    } catch {
      throw .unreadableFont(path: path, reason: "cannot copy the changed file: \(escaped: error)")
    }
    return target
  }

  /// Registers every file of `paths`, stopping at the first that fails.
  package static func register(_ paths: [String]) throws(RasterError) {
    for path in paths { try register(path) }
  }

  /// Lower-cased family names of every registered file.
  static var registeredFamilies: Set<String> {
    state.withLock { Set($0.registered.values.flatMap(\.families).map { $0.lowercased() }) }
  }

  /// How many files have been registered so far; a font map that saw fewer must be refreshed.
  static var generation: Int { state.withLock { $0.count } }

  /// The family names in a font file, read by fontconfig's FreeType query without registering it.
  static func families(inFile path: String) throws(RasterError) -> [String] {
    guard FileManager.default.isReadableFile(atPath: path) else {
      let exists = FileManager.default.fileExists(atPath: path)
      throw .unreadableFont(path: path, reason: exists ? "not readable" : "no such file")
    }
    // The check a template's font files get when it is compiled, again: a file that changed on
    // disk since (`flick studio` registers it again) must not hand fontconfig more than its caps.
    do {
      _ = try FontFile.families(at: path)
    } catch {
      throw .unreadableFont(path: path, reason: error.reason)
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
