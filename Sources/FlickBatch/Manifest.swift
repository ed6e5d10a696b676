import FlickMotion
import FlickRaster
import FlickTemplates
import FlickVideo
import Foundation

/// A batch manifest: which templates to render with which parameter sets, at which sizes, into
/// which formats (`docs/scale-out.md`; JSON Schema `Templates/plan.schema.json`).
///
///     {
///       flick: 1,
///       output: "out",
///       renders: [
///         { template: "card.json5", variants: [{ title: "A" }, "b.params.json5"],
///           sizes: ["1280x720", "640x360"], formats: ["mp4", "png"], chunk: 60 },
///       ],
///     }
///
/// Decoding checks every key and value and throws ``FlickTemplates/TemplateError`` with the
/// manifest's file, line, column and JSON path, like a template. A manifest is untrusted input:
/// every path it names is confined to its folder (``ManifestScope``, unless the
/// ``ManifestPolicy`` allows more), the files it names are read bounded and never quoted, names
/// taken from data are made plain, and its size is capped (``ManifestLimits``).
package struct Manifest: Sendable {
  /// The manifest format version this build reads.
  package static let formatVersion = 1

  /// One entry of `renders`: a template crossed with its variants and sizes.
  package struct Render: Sendable {
    /// The template file (absolute) as resolved: a path relative to the manifest or a bundled name.
    package var template: String
    /// Names the render in output paths and job names (`[A-Za-z0-9._-]+`).
    package var name: String
    /// The parameter sets, in order (one empty set when none are given).
    package var variants: [Variant]
    /// Output sizes.
    package var sizes: [SizeSpec]
    /// The formats to write, in the order given.
    package var formats: [OutputFormat]
    /// The frames to render (inclusive first and last), nil for all.
    package var frames: ClosedRange<Int>?
    /// Frames per second overriding the template's.
    package var fps: Int?
    /// Frames per chunk (0: never split).
    package var chunk: Int
    /// Encoder settings.
    package var encoding: EncodingOptions
    /// Whether the template may read assets outside its folder (the manifest asks, and the
    /// command line allowed it with `--allow-outside-assets`).
    package var allowOutsideAssets: Bool
    /// Where each size and the frames were written, for errors found once the template is loaded.
    var sizePositions: [Position] = []
    var framesPosition: Position?
    /// Where each key of `encoding` was written (`crf`: its value), for a setting an output
    /// format refuses once the template is loaded.
    var encodingPositions: [String: Position] = [:]
    /// Where the render's entry starts, for errors about the render as a whole.
    var position = Position(line: 0, column: 0)
  }

  /// A line and column in the manifest.
  struct Position: Sendable {
    var line: Int
    var column: Int
  }

  /// One parameter set.
  package struct Variant: Sendable {
    /// Names the variant in output paths.
    package var name: String
    /// The values.
    package var values: ParameterValues
    /// Files the values came from (a params file names its variant by its own name).
    package var files: [String]
    /// Each scalar value as text (inline, params file or data row), for naming variants by a
    /// parameter (`variantName`).
    package var labels: [String: String] = [:]
    /// The CSV file and 1-based line of a data row, to point errors about its values there.
    package var row: (file: String, line: Int)?
    /// Whether messages may quote the values (false for a data or params file outside the
    /// manifest's folder, allowed by `--allow-outside-manifest`: its text is never shown).
    package var quotable = true
  }

  /// An output size: exact pixels (same aspect ratio as the canvas) or a scale factor.
  package enum SizeSpec: Sendable, Equatable {
    case pixels(width: Int, height: Int)
    case scale(Double)
  }

  /// The manifest file.
  package var file: String
  /// Where outputs go (absolute).
  package var outputRoot: String
  /// The renders, in order.
  package var renders: [Render]
  /// What the manifest was allowed to reach, and its caps.
  package var policy = ManifestPolicy()
  /// Where `output` is written (the manifest's start when it is left out), for errors about the
  /// output folder found later.
  var outputPosition = Position(line: 1, column: 1)

  /// Reads and decodes the manifest at `path`.
  ///
  /// - Parameter showingInput: Whether errors may quote the manifest's text (false when the path
  ///   came from a plan file rather than from the user). Without it, an error in the manifest
  ///   names only the file, line and column: a key, value or path it found there is not echoed,
  ///   so a plan naming some other JSON file learns nothing of its content.
  package static func load(
    path: String, policy: ManifestPolicy = ManifestPolicy(), showingInput: Bool = true
  ) throws(TemplateError) -> Manifest {
    let text = try ManifestScope.read(path, what: "manifest", limit: policy.limits.manifestBytes, at: nil)
    guard !showingInput else { return try decode(text, file: path, policy: policy) }
    do {
      return try decode(text, file: path, policy: policy, showingInput: false)
    } catch {
      guard error.file == path else { throw error }
      throw TemplateError(
        file: path, path: "", line: error.line, column: error.column,
        message: "the plan's manifest does not plan here with these options (a manifest a plan names is not "
          + "quoted; run 'flick plan' on it with the same options to see why)")
    }
  }

  /// Decodes manifest text; `file` names it in messages and relative paths resolve against its folder.
  package static func decode(
    _ text: String, file: String, policy: ManifestPolicy = ManifestPolicy(), showingInput: Bool = true
  ) throws(TemplateError) -> Manifest {
    let root: JSON5Value
    do {
      root = try JSON5Parser.parse(text)
    } catch {
      throw TemplateError(
        file: file, path: "", line: error.line, column: error.column,
        message: showingInput ? error.message : error.plainMessage)
    }
    let scope = ManifestScope(manifest: file, policy: policy)
    let doc = TemplateNode(document: root, file: file)
    guard case .object = root.kind else { throw doc.expected("an object (the batch manifest)") }
    let o = try doc.object(allowed: topKeys)
    guard let version = o["flick"] else {
      throw doc.error("missing the format version: add \"flick\": \(formatVersion) at the top level")
    }
    let v = try version.int(in: 1...Int.max)
    guard v == formatVersion else {
      throw version.error(
        "manifest format version \(v) is newer than this Flick reads (\(formatVersion)); upgrade Flick")
    }
    _ = try o["$schema"]?.string()
    let outputRoot = try self.outputRoot(o["output"], scope: scope, document: doc)
    let chunk = try o["chunk"]?.int(in: 0...1_000_000) ?? 0
    guard let rendersNode = o["renders"] else { throw doc.error("missing 'renders' (the templates to render)") }
    let items = try rendersNode.array()
    guard !items.isEmpty else { throw rendersNode.error("'renders' is empty: list at least one template") }
    var renders: [Render] = []
    // Keyed by the name case-folded: names that differ only by case are one folder on a file
    // system that ignores case (macOS, Windows).
    var names: [String: (path: String, name: String)] = [:]
    var variantCount = 0
    for node in items {
      let render = try decodeRender(node, scope: scope, defaultChunk: chunk, variantsBefore: variantCount)
      if let other = names[caseFolded(render.name)] {
        guard other.name == render.name else {
          throw node.error(
            "renders are named '\(quoted: render.name)' and '\(quoted: other.name)' (\(quoted: other.path)), which "
              + "differ only by case: on a file system that ignores case (macOS, Windows) they are one folder; "
              + "give each a distinct 'name'")
        }
        throw node.error(
          "two renders are named '\(quoted: render.name)' (also \(quoted: other.path)); give each a "
            + "distinct 'name'")
      }
      names[caseFolded(render.name)] = (node.path, render.name)
      variantCount += render.variants.count
      // Each variant loads its template once: a render without variants counts as one.
      guard variantCount <= policy.limits.variants else { throw node.error(tooMany(policy.limits.variants)) }
      renders.append(render)
    }
    let position = o["output"].map { Position(line: $0.value.line, column: $0.value.column) }
    return Manifest(
      file: file, outputRoot: outputRoot, renders: renders, policy: policy,
      outputPosition: position ?? Position(line: root.line, column: root.column))
  }

  /// The output folder `node` names (default `out`): inside the manifest's folder, and neither it
  /// nor a folder on the way to it a symbolic link (Flick never writes through a link).
  private static func outputRoot(
    _ node: TemplateNode?, scope: ManifestScope, document: TemplateNode
  ) throws(TemplateError) -> String {
    var path = resolve("out", in: scope.folder)
    if let node {
      guard !(try node.string()).isEmpty else { throw node.error("the output folder cannot be empty") }
      path = try scope.path(node, what: "output folder").path
    }
    if let link = ManifestScope.link(in: path, below: scope.folder) {
      throw (node ?? document).error(
        "the output folder goes through the symbolic link '\(quoted: link)'; Flick does not write through links")
    }
    return path
  }

  /// The keys of the manifest object (the JSON Schema lists the same; a test checks).
  package static let topKeys = ["$schema", "flick", "output", "chunk", "renders"]
  /// The keys of a `renders` entry.
  package static let renderKeys = [
    "template", "name", "variants", "data", "variantName", "sizes", "formats", "frames", "fps", "chunk",
    "encoding", "allowOutsideAssets",
  ]

  private static func decodeRender(
    _ node: TemplateNode, scope: ManifestScope, defaultChunk: Int, variantsBefore: Int
  ) throws(TemplateError) -> Render {
    let o = try node.object(allowed: renderKeys)
    guard let templateNode = o["template"] else {
      throw node.error("missing 'template' (a .json5 file or a bundled name)")
    }
    let template = try self.template(templateNode, scope: scope)
    let name =
      try o["name"].map { n throws(TemplateError) in try safeName(n, scope: scope) }
      ?? sanitised(
        URL(fileURLWithPath: template).deletingPathExtension().lastPathComponent, limits: scope.policy.limits)
    let allowOutsideAssets = try o["allowOutsideAssets"]?.bool() ?? false
    if allowOutsideAssets, !scope.policy.allowOutsideAssets, let allowNode = o["allowOutsideAssets"] {
      throw allowNode.error(
        "a manifest cannot let a template read assets outside its folder by itself; "
          + "pass --allow-outside-assets to plan, run and merge to allow it")
    }

    let variants = try self.variants(o, owner: node, scope: scope, before: variantsBefore)

    var sizes: [SizeSpec] = []
    var sizePositions: [Position] = []
    if let list = o["sizes"] {
      for item in try list.list() {
        sizes.append(try size(item))
        sizePositions.append(Position(line: item.value.line, column: item.value.column))
      }
      guard !sizes.isEmpty else { throw list.error("'sizes' is empty: leave it out for the canvas size") }
    } else {
      sizes = [.scale(1)]
      sizePositions = [Position(line: node.value.line, column: node.value.column)]
    }
    guard let formatsNode = o["formats"] else { throw node.error("missing 'formats' (such as [\"mp4\", \"png\"])") }
    var formats: [OutputFormat] = []
    let names = Self.formats.map(\.rawValue)
    for item in try formatsNode.list() {
      // `string(oneOf:)` refuses any other name.
      guard let f = OutputFormat(rawValue: try item.string(oneOf: names)) else { preconditionFailure("format") }
      guard !formats.contains(f) else { throw item.error("the format '\(f.rawValue)' is listed twice") }
      formats.append(f)
    }
    guard !formats.isEmpty else { throw formatsNode.error("'formats' is empty") }

    var frames: ClosedRange<Int>?
    if let f = o["frames"] {
      let items = try f.array()
      guard items.count == 2 else { throw f.expected("[first, last] (inclusive frame numbers)") }
      let a = try items[0].int(in: 0...10_000_000), b = try items[1].int(in: 0...10_000_000)
      guard a <= b else { throw f.error("the last frame \(b) comes before the first \(a)") }
      frames = a...b
    }
    return Render(
      template: template, name: name, variants: variants, sizes: sizes, formats: formats, frames: frames,
      fps: try o["fps"]?.int(in: 1...240), chunk: try o["chunk"]?.int(in: 0...1_000_000) ?? defaultChunk,
      encoding: try encoding(o["encoding"]), allowOutsideAssets: allowOutsideAssets,
      sizePositions: sizePositions,
      framesPosition: o["frames"].map { Position(line: $0.value.line, column: $0.value.column) },
      encodingPositions: try o["encoding"]?.members().reduce(into: [:]) { positions, member in
        positions[member.key] = Position(line: member.node.value.line, column: member.node.value.column)
      } ?? [:],
      position: Position(line: node.value.line, column: node.value.column))
  }

  /// The template `node` names: a file inside the manifest's folder, or else a bundled
  /// template's name (`card-swap`).
  private static func template(_ node: TemplateNode, scope: ManifestScope) throws(TemplateError) -> String {
    let written = try node.string()
    let (path, exists, _) = try scope.path(node, what: "template")
    if exists {
      var info = stat()
      guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
        throw node.error("template '\(quoted: path)' is not a regular file")
      }
      return path
    }
    if !PathText.hasSeparator(written), let bundled = TemplateLibrary.resolve(written, in: TemplateLibrary.locate()) {
      return URL(fileURLWithPath: bundled).standardizedFileURL.path
    }
    throw node.error(
      "no template file '\(quoted: path)' and no bundled template named '\(quoted: written)'")
  }

  /// A render's `name`, as written: a plain name (it becomes a folder).
  private static func safeName(_ node: TemplateNode, scope: ManifestScope) throws(TemplateError) -> String {
    let s = try node.string()
    guard isPlain(s), s.count <= scope.policy.limits.nameCharacters else {
      throw node.error(
        "a name may only use letters, digits, '.', '_' and '-', not start with '.', and have at most "
          + "\(quoted: scope.policy.limits.nameCharacters) characters (it becomes a folder), found \"\(quoted: s)\"")
    }
    return s
  }

  /// Whether `name` is plain: ASCII letters, digits, `.`, `_`, `-`, not empty, not starting with a dot.
  static func isPlain(_ name: String) -> Bool {
    !name.isEmpty && !name.hasPrefix(".")
      && name.unicodeScalars.allSatisfy {
        $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "._-".unicodeScalars.contains($0))
      }
  }

  /// `name` as a file system that ignores case compares it (macOS's APFS and HFS+, Windows'
  /// NTFS, as configured by default): Unicode case folding (`Straße` and `STRASSE` are one name).
  static func caseFolded(_ name: String) -> String {
    name.folding(options: [.caseInsensitive], locale: nil)
  }

  /// `text` (a data value, a file name) made a plain name for a folder: every other character
  /// becomes `_`, leading dots become `_`, and it is cut to ``ManifestLimits/nameCharacters``; so
  /// `../../x` is `.._.._x` → `_._.._x`, never a path.
  static func sanitised(_ text: String, limits: ManifestLimits = ManifestLimits()) -> String {
    var scalars = Array(text.unicodeScalars.prefix(limits.nameCharacters)).map { s -> Unicode.Scalar in
      isPlain("a" + String(s)) ? s : "_"
    }
    if let first = scalars.first, first == "." { scalars[0] = "_" }
    let s = String(String.UnicodeScalarView(scalars))
    return s.isEmpty ? "_" : s
  }

  private static func size(_ node: TemplateNode) throws(TemplateError) -> SizeSpec {
    if case .number = node.value.kind {
      let s = try node.double()
      guard Renderer.acceptsScale(s) else {
        throw node.error("a scale must be in \(escaped: Renderer.scaleRange), found \(TemplateNode.format(s))")
      }
      return .scale(s)
    }
    let text = try node.string()
    let parts = text.lowercased().split(separator: "x")
    guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), (1...16384).contains(w),
      (1...16384).contains(h)
    else {
      throw node.error(
        "expected \"WIDTHxHEIGHT\" in pixels (such as \"1280x720\") or a scale number, "
          + "found \"\(quoted: text)\"")
    }
    return .pixels(width: w, height: h)
  }

  /// The keys of a render's `encoding` object.
  package static let encodingKeys = ["crf", "preset", "pad", "dither", "loop", "gifFps", "gifWidth"]
  /// The formats a manifest can ask for.
  package static let formats = OutputFormat.allCases.filter { $0 != .bgra }

  private static func encoding(_ node: TemplateNode?) throws(TemplateError) -> EncodingOptions {
    var e = EncodingOptions()
    // A job's id names the gifsicle its GIFs go through (JobIdentity): a GIF that gifsicle fails
    // on fails its job (exit 3, tried again with --retries) rather than being stamped unoptimised.
    e.requiresGIFOptimizer = true
    guard let node else { return e }
    let o = try node.object(allowed: encodingKeys)
    e.crf = try o["crf"]?.int(in: 0...63)
    if let p = o["preset"] { e.preset = try p.string(oneOf: EncodingOptions.presets) }
    e.pad = try o["pad"]?.bool() ?? false
    if let d = o["dither"] {
      // `string(oneOf:)` refuses any other name.
      let name = try d.string(oneOf: EncodingOptions.Dither.allCases.map(\.rawValue))
      guard let dither = EncodingOptions.Dither(rawValue: name) else { preconditionFailure("dither") }
      e.dither = dither
    }
    if let l = o["loop"] { e.plays = try l.int(in: 0...65535) }
    e.gifFPS = try o["gifFps"]?.int(in: 1...50)
    e.gifWidth = try o["gifWidth"]?.int(in: 1...16384)
    return e
  }

  static func resolve(_ path: String, in folder: String) -> String {
    let url =
      path.hasPrefix("/") ? URL(fileURLWithPath: path) : URL(fileURLWithPath: folder).appendingPathComponent(path)
    return url.standardizedFileURL.path
  }
}

/// The manifest's shapes that templates do not have.
extension TemplateNode {
  /// The members of an object in source order, any keys.
  func members() throws(TemplateError) -> [(key: String, node: TemplateNode)] {
    guard case .object(let members) = value.kind else { throw expected("an object") }
    return members.map { ($0.key, child($0.key, $0.value)) }
  }

  /// An array, or a single value standing for an array of one.
  func list() throws(TemplateError) -> [TemplateNode] {
    if case .array = value.kind { return try array() }
    return [self]
  }
}
