import FlickMotion
import FlickRaster
import FlickScene
import FlickTemplates
import Foundation

/// What a snapshot's frames were rendered from, stored beside the goldens so that another
/// renderer can draw them again: the template file, its `--set` values, its parameter files and
/// every asset and font file it resolved, each file content-addressed in `inputs/<sha256>`
/// (deduplicated; the manifest lists the hashes and where each file sat).
///
/// When the renderer that made the goldens differs from the current one, `flick verify` renders
/// these stored inputs with the current renderer (``materialize(from:into:)``) and compares the
/// current template's frames with *those*, exactly: a design change fails as on the same renderer,
/// and the renderer's own drift (old golden against re-rendered golden) is reported apart.
package struct SnapshotInputs: Sendable, Equatable, Codable {
  /// The folder inside a goldens folder that holds the stored files, named by SHA-256.
  package static let folder = "inputs"
  /// The largest asset file stored: the largest an asset the template load read may be (a picture
  /// or a font, 256 MiB; an SVG, a Lottie file and a shape source have smaller caps).
  package static let maximumAssetBytes = max(AssetFile.maximumImageBytes, FontFile.maximumBytes)

  /// One stored file.
  package struct File: Sendable, Equatable, Codable {
    /// Where it sits, relative to the template's folder (plain components, no `..`, no leading
    /// `/`); parameter files from outside the template's folder sit under `.flick-params/`.
    package var path: String
    /// SHA-256 of its bytes (hex): its name in ``SnapshotInputs/folder``.
    package var sha256: String
    /// Its size in bytes.
    package var bytes: Int
  }

  /// The template file (its path is the file name).
  package var template: File
  /// Every image, font, Lottie and SVG file the template resolved, in first-use order.
  package var assets: [File]
  /// The `--params` files, in the order given.
  package var parameterFiles: [File]
  /// The `--set NAME=VALUE` arguments, in order; a value naming a stored asset is rewritten to
  /// its path relative to the template's folder.
  package var sets: [String]
  /// Whether the template was loaded with `--allow-outside-assets`: a record, reported but never
  /// obeyed, since a goldens folder may come from someone else's pull request. Loading the stored
  /// inputs reads files outside them only when the caller grants it
  /// (``load(template:parameterFiles:allowOutsideAssets:limits:)``).
  package var allowOutsideAssets: Bool

  /// Every stored file.
  package var files: [File] { [template] + assets + parameterFiles }

  /// The stored inputs and the bytes of each distinct file, ready to commit.
  package struct Captured: Sendable {
    package var inputs: SnapshotInputs
    /// Bytes by SHA-256.
    package var blobs: [String: Data]
  }

  /// Why inputs could not be stored (the goldens are then written without them).
  package struct NotStored: Error, Sendable, CustomStringConvertible {
    package var description: String
  }

  /// Reads what a template load used.
  ///
  /// - Parameters:
  ///   - templateFile: The template file.
  ///   - templateBytes: Its bytes, as the template was loaded from them (not read again).
  ///   - parameterFiles: The `--params` files, in order.
  ///   - sets: The `--set` arguments, in order.
  ///   - assets: The canonical paths the load resolved (``FlickTemplates/AssetLog``).
  /// - Throws: ``NotStored`` when an asset lies outside the template's folder or a file cannot be read.
  package static func capture(
    templateFile: String, templateBytes: [UInt8], parameterFiles: [String], sets: [String], allowOutsideAssets: Bool,
    assets: [String]
  ) throws(NotStored) -> Captured {
    let templateURL = URL(fileURLWithPath: templateFile).standardizedFileURL.resolvingSymlinksInPath()
    let base = templateURL.deletingLastPathComponent().path
    var blobs: [String: Data] = [:]
    func store(_ bytes: [UInt8], as stored: String) -> File {
      let hash = SHA256.hex(bytes)
      blobs[hash] = Data(bytes)
      return File(path: stored, sha256: hash, bytes: bytes.count)
    }
    // Each file read once through the bounded reader, with the largest cap its kind has when loaded.
    func store(_ path: String, as stored: String, maximumBytes: Int) throws(NotStored) -> File {
      do {
        return store(try AssetFile.read(path, maximumBytes: maximumBytes, kind: "an input file"), as: stored)
      } catch {
        throw NotStored(description: "cannot read \(quoted: path): \(escaped: error.reason)")
      }
    }
    func relative(_ path: String) -> String? {
      let canonical = URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
      guard let inside = PathText.relative(canonical, to: base), !inside.isEmpty else { return nil }
      return inside
    }
    let template = store(templateBytes, as: templateURL.lastPathComponent)
    var stored: [File] = []
    var byPath: [String: String] = [:]
    for asset in assets {
      guard let rel = relative(asset) else {
        throw NotStored(description: "\(quoted: asset) lies outside the template's folder")
      }
      stored.append(try store(asset, as: rel, maximumBytes: Self.maximumAssetBytes))
      byPath[URL(fileURLWithPath: asset).standardizedFileURL.resolvingSymlinksInPath().path] = rel
    }
    var params: [File] = []
    for (i, file) in parameterFiles.enumerated() {
      let name = URL(fileURLWithPath: file).lastPathComponent
      params.append(
        try store(
          file, as: relative(file) ?? ".flick-params/\(i)-\(name)", maximumBytes: ParameterValues.maximumFileBytes))
    }
    // A --set value naming a stored file (relative to the current folder) becomes its stored path.
    let cwd = FileManager.default.currentDirectoryPath
    let rewritten = sets.map { assignment -> String in
      guard let eq = assignment.firstIndex(of: "=") else { return assignment }
      let value = String(assignment[assignment.index(after: eq)...])
      guard !value.isEmpty else { return assignment }
      let absolute = value.hasPrefix("/") ? value : cwd + "/" + value
      let canonical = URL(fileURLWithPath: absolute).standardizedFileURL.resolvingSymlinksInPath().path
      guard let rel = byPath[canonical] else { return assignment }
      return String(assignment[...eq]) + rel
    }
    let inputs = SnapshotInputs(
      template: template, assets: stored, parameterFiles: params, sets: rewritten,
      allowOutsideAssets: allowOutsideAssets)
    return Captured(inputs: inputs, blobs: blobs)
  }

  /// Checks every stored path is a plain relative path and every hash is 64 hex digits
  /// (a goldens folder may come from someone else's pull request).
  ///
  /// - Throws: ``SnapshotError/unsafePath(_:reason:)`` naming the entry.
  package func validate(path manifestPath: String) throws(SnapshotError) {
    for file in files {
      // Split at every "/" byte: "/" and a combining mark after it are one Character.
      let parts = file.path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        .map { String(decoding: $0, as: UTF8.self) }
      guard !file.path.hasPrefix("/"), !parts.isEmpty,
        parts.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." && !$0.contains("\0") })
      else {
        throw .unsafePath(
          "input path '\(quoted: file.path)' in \(quoted: manifestPath)",
          reason: "a stored input must be a relative path inside the template's folder")
      }
      guard file.sha256.count == 64, file.sha256.allSatisfy({ $0.isASCIIHexDigit && !$0.isUppercase }) else {
        throw .unsafePath(
          "input hash '\(quoted: file.sha256)' in \(quoted: manifestPath)", reason: "it is not a SHA-256 in hex")
      }
    }
  }

  /// The stored inputs' folder of the goldens or report folder `directory`, once checked to be
  /// a real folder (or absent): a symbolic link or anything else named `inputs` is refused before
  /// anything lists, reads, writes or removes in it. Every use goes through here.
  ///
  /// - Throws: ``SnapshotError/unsafePath(_:reason:)``.
  package static func store(in directory: String) throws(SnapshotError) -> String {
    let path = (directory as NSString).appendingPathComponent(folder)
    var info = stat()
    guard lstat(path, &info) == 0 else { return path }  // none yet
    switch info.st_mode & S_IFMT {
    case S_IFDIR: return path
    case S_IFLNK:
      throw .unsafePath(
        path,
        reason: "the stored inputs' folder is a symbolic link; Flick never reads, lists, writes or removes "
          + "stored inputs through a link (remove it)")
    default: throw .unsafePath(path, reason: "the stored inputs' folder is not a folder")
    }
  }

  /// The stored bytes of `file`, checked against its hash.
  ///
  /// - Throws: ``SnapshotError/damagedInput(path:reason:)`` when missing or altered,
  ///   ``SnapshotError/unsafePath(_:reason:)`` when `inputs` is not a real folder (``store(in:)``).
  package static func bytes(of file: File, in goldens: String) throws(SnapshotError) -> Data {
    let path = (try store(in: goldens) as NSString).appendingPathComponent(file.sha256)
    guard
      let data = try ContainedPath.read(
        "\(folder)/\(file.sha256)", in: goldens, what: "stored input", source: goldens,
        maximumBytes: ContainedPath.maximumInputBytes)
    else {
      throw .damagedInput(path: path, reason: "missing (\(quoted: file.path) of the goldens' inputs)")
    }
    guard SHA256.hex([UInt8](data)) == file.sha256 else {
      throw .damagedInput(path: path, reason: "its SHA-256 is not the manifest's (\(quoted: file.path))")
    }
    return data
  }

  /// Writes the stored files into the empty folder `root`, each at its path, after checking
  /// each one's hash.
  ///
  /// - Returns: The template file and the parameter files to load, within `root`.
  /// - Throws: ``SnapshotError/damagedInput(path:reason:)``, ``SnapshotError/unwritableFile(path:reason:)``.
  package func materialize(from goldens: String, into root: String) throws(SnapshotError)
    -> (template: String, parameterFiles: [String])
  {
    try validate(path: (goldens as NSString).appendingPathComponent(SnapshotManifest.fileName))
    func place(_ file: File) throws(SnapshotError) -> String {
      let data = try Self.bytes(of: file, in: goldens)
      let destination = (root as NSString).appendingPathComponent(file.path)
      try AtomicFile.makeDirectory((file.path as NSString).deletingLastPathComponent, below: root)
      try AtomicFile.write(data, to: destination)
      return destination
    }
    let template = try place(template)
    for asset in assets { _ = try place(asset) }
    var params: [String] = []
    for file in parameterFiles { params.append(try place(file)) }
    return (template, params)
  }

  /// Loads the stored template from a folder ``materialize(from:into:)`` filled.
  ///
  /// `--set` values naming files resolve against the template's folder (where the stored assets are).
  ///
  /// - Parameter allowOutsideAssets: Whether the template may read assets outside that folder:
  ///   only the command line's `--allow-outside-assets` grants it, never what the manifest
  ///   records (``SnapshotInputs/allowOutsideAssets``).
  package func load(
    template: String, parameterFiles: [String], allowOutsideAssets: Bool = false,
    limits: TemplateLimits = TemplateLimits()
  ) throws(TemplateError) -> Template {
    var values = ParameterValues()
    for file in parameterFiles { try values.load(file: file) }
    let folder = (template as NSString).deletingLastPathComponent
    for assignment in sets {
      guard let eq = assignment.firstIndex(of: "=") else { continue }
      let name = String(assignment[..<eq]).trimmingCharacters(in: .whitespaces)
      values.set(name, text: String(assignment[assignment.index(after: eq)...]), folder: folder)
    }
    return try Template.load(
      path: template, parameters: values,
      options: TemplateOptions(allowOutsideAssets: allowOutsideAssets, limits: limits))
  }
}
