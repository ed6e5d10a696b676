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
    /// Configurations installed so far (each adds new and changed files).
    var count = 0
    /// Private copies made so far (their serial numbers).
    var copiesMade = 0
    /// Private copies made of changed files, oldest first.
    var copies: [String] = []
  }

  /// A file to register: the path as given, the resolved path it is known by, its version.
  private struct Request {
    var path: String
    var key: String
    var signature: FileSignature?
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
    try registerAll([path]).first ?? []
  }

  /// Registers every file of `paths`, with one new fontconfig configuration for all the new and
  /// changed ones (none when every file is registered and unchanged): a configuration per file
  /// made registering n files cost n² file scans. Stops at the first file that fails; the files
  /// before it are registered.
  package static func register(_ paths: [String]) throws(RasterError) {
    _ = try registerAll(paths)
  }

  /// The families of each file of `paths`, registering those not registered (or changed).
  private static func registerAll(_ paths: [String]) throws(RasterError) -> [[String]] {
    var requests: [Request] = []
    var refusal: RasterError?
    var known: [[String]] = []
    for path in paths {
      let key = URL(fileURLWithPath: path).resolvingSymlinksInPath().standardizedFileURL.path
      let signature = FileSignature.of(key)
      let entry = state.withLock { $0.registered[key] }
      if let entry, entry.signature == signature, requests.isEmpty {
        known.append(entry.families)
        continue
      }
      // A file registered anew is read only where its path was bound: a font file replaced by a
      // symbolic link (or a folder on its way) after its template was compiled is refused.
      if entry?.signature != signature, let reason = FileResolution.refusal(path) {
        refusal = .unreadableFont(path: path, reason: reason)
        break
      }
      requests.append(Request(path: path, key: key, signature: signature))
    }
    guard !requests.isEmpty else {
      if let refusal { throw refusal }
      return known
    }
    // The whole registration holds the lock: two threads must not each install a configuration
    // missing the other's file.
    let result = state.withLock { state in
      Result { () throws(RasterError) -> [[String]] in try register(requests, &state) }
    }
    let families = try result.get()
    if let refusal { throw refusal }
    return known + families
  }

  /// Registers the files of `requests` not registered yet (or changed) with one configuration.
  private static func register(_ requests: [Request], _ state: inout State) throws(RasterError) -> [[String]] {
    var out: [[String]] = []
    var added: [String: Entry] = [:]
    var order: [Request] = []
    var failure: RasterError?
    for request in requests {
      let key = request.key
      if let entry = added[key] ?? state.registered[key].flatMap({ $0.signature == request.signature ? $0 : nil }) {
        out.append(entry.families)
        continue
      }
      do throws(RasterError) {
        let names = try families(inFile: key)
        // A changed file is read by fontconfig, cairo and Pango under a name they never saw.
        var loaded = key
        if state.registered[key] != nil {
          loaded = try copy(key, request.path, serial: state.copiesMade)
          state.copiesMade += 1
        }
        added[key] = Entry(signature: request.signature, families: names, loaded: loaded)
        order.append(request)
        out.append(names)
      } catch {
        failure = error
        break
      }
    }
    if let refused = try install(&added, order: order, &state) { throw refused }
    if let failure { throw failure }
    return out
  }

  /// Installs a new configuration holding every registered file and `added` (new and changed
  /// files, requested in `order`), unless `added` is empty. A file of `added` fontconfig refuses
  /// is left out with every file requested after it.
  ///
  /// - Returns: The error for the file fontconfig refused, if it refused one.
  private static func install(
    _ added: inout [String: Entry], order: [Request], _ state: inout State
  ) throws(RasterError) -> RasterError? {
    var order = order
    var refused: RasterError?
    while let first = order.first {
      // A file registered earlier that is gone now (deleted from the studio's folder, or the
      // folder of a template that was closed) is dropped: it could not be drawn any more, and
      // fontconfig would refuse the whole configuration for it.
      var files = state.registered.filter { access($0.value.loaded, R_OK) == 0 }
      files.merge(added) { $1 }
      // The current configuration may be in use by text layout on other threads, so it is never
      // changed: a new one gets every registered file and replaces it (fontconfig
      // reference-counts configurations, so a lookup still running keeps the old one alive
      // until it finishes).
      guard let config = FcInitLoadConfigAndFonts() else {
        throw .unreadableFont(path: first.path, reason: "cannot load the fontconfig configuration")
      }
      defer { FcConfigDestroy(config) }
      guard FontconfigPin.apply(to: config) else {
        throw .unreadableFont(path: first.path, reason: "cannot add Flick's rendering rules to fontconfig")
      }
      var kept: [String: Entry] = [:]
      for (file, entry) in files.sorted(by: { $0.key < $1.key }) where FcConfigAppFontAddFile(config, entry.loaded) != 0
      {
        kept[file] = entry
      }
      // Only the files being registered are errors: an earlier one fontconfig cannot read now
      // vanished after the check above (a folder removed meanwhile) and is dropped like one gone
      // before it.
      if let bad = order.firstIndex(where: { kept[$0.key] == nil }) {
        refused = .unreadableFont(path: order[bad].path, reason: "fontconfig refused the file")
        for request in order[bad...] {
          if let entry = added.removeValue(forKey: request.key), entry.loaded != request.key {
            try? FileManager.default.removeItem(atPath: entry.loaded)
          }
        }
        order.removeSubrange(bad...)
        continue
      }
      guard FcConfigSetCurrent(config) != 0 else {
        throw .unreadableFont(path: first.path, reason: "cannot install the fontconfig configuration")
      }
      state.registered = kept
      state.count += 1
      let copies = order.compactMap { request in
        added[request.key].map(\.loaded).flatMap { $0 == request.key ? nil : $0 }
      }
      if !copies.isEmpty {
        state.copies += copies
        // The copy before the previous one is no longer in any configuration or renderer.
        let stale = state.copies.filter { copy in !kept.values.contains { $0.loaded == copy } }
        for old in stale.dropLast() { try? FileManager.default.removeItem(atPath: old) }
        state.copies.removeAll { stale.dropLast().contains($0) }
      }
      break
    }
    return refused
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

  /// Lower-cased family names of every registered file.
  static var registeredFamilies: Set<String> {
    state.withLock { Set($0.registered.values.flatMap(\.families).map { $0.lowercased() }) }
  }

  /// How many configurations have been installed so far; a font map that saw fewer must be
  /// refreshed.
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
