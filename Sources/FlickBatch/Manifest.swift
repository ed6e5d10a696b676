import FlickMotion
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
/// manifest's file, line, column and JSON path, like a template.
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
    /// Whether the template may read assets outside its folder.
    package var allowOutsideAssets: Bool
    /// Where each size and the frames were written, for errors found once the template is loaded.
    var sizePositions: [Position] = []
    var framesPosition: Position?
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
    /// Each inline or data-row value as text, for naming variants by a parameter (`variantName`).
    package var labels: [String: String] = [:]
    /// The CSV file and 1-based line of a data row, to point errors about its values there.
    package var row: (file: String, line: Int)?
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

  /// Reads and decodes the manifest at `path`.
  package static func load(path: String) throws(TemplateError) -> Manifest {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw TemplateError(file: path, path: "", message: FileManager.default.fileExists(atPath: path) ? "cannot read the manifest" : "no such manifest file")
    }
    guard let text = String(data: data, encoding: .utf8) else {
      throw TemplateError(file: path, path: "", message: "the manifest is not UTF-8 text")
    }
    return try decode(text, file: path)
  }

  /// Decodes manifest text; `file` names it in messages and relative paths resolve against its folder.
  package static func decode(_ text: String, file: String) throws(TemplateError) -> Manifest {
    let root: JSON5Value
    do {
      root = try JSON5Parser.parse(text)
    } catch {
      throw TemplateError(file: file, path: "", line: error.line, column: error.column, message: error.message)
    }
    let folder = URL(fileURLWithPath: file).deletingLastPathComponent().standardizedFileURL.path
    let doc = TemplateNode(document: root, file: file)
    guard case .object = root.kind else { throw doc.expected("an object (the batch manifest)") }
    let o = try doc.object(allowed: topKeys)
    guard let version = o["flick"] else {
      throw doc.error("missing the format version: add \"flick\": \(formatVersion) at the top level")
    }
    let v = try version.int(in: 1...Int.max)
    guard v == formatVersion else {
      throw version.error("manifest format version \(v) is newer than this Flick reads (\(formatVersion)); upgrade Flick")
    }
    _ = try o["$schema"]?.string()
    let output = try o["output"]?.string() ?? "out"
    guard !output.isEmpty else { throw o["output"]!.error("the output folder cannot be empty") }
    let chunk = try o["chunk"]?.int(in: 0...1_000_000) ?? 0
    guard let rendersNode = o["renders"] else { throw doc.error("missing 'renders' (the templates to render)") }
    let items = try rendersNode.array()
    guard !items.isEmpty else { throw rendersNode.error("'renders' is empty: list at least one template") }
    var renders: [Render] = []
    var names: [String: String] = [:]
    for node in items {
      let render = try decodeRender(node, folder: folder, defaultChunk: chunk)
      if let other = names[render.name] {
        throw node.error("two renders are named '\(quoted: render.name)' (also \(quoted: other)); give each a "
          + "distinct 'name'")
      }
      names[render.name] = node.path
      renders.append(render)
    }
    return Manifest(file: file, outputRoot: resolve(output, in: folder), renders: renders)
  }

  /// The keys of the manifest object (the JSON Schema lists the same; a test checks).
  package static let topKeys = ["$schema", "flick", "output", "chunk", "renders"]
  /// The keys of a `renders` entry.
  package static let renderKeys = [
    "template", "name", "variants", "data", "variantName", "sizes", "formats", "frames", "fps", "chunk",
    "encoding", "allowOutsideAssets",
  ]

  private static func decodeRender(_ node: TemplateNode, folder: String, defaultChunk: Int) throws(TemplateError) -> Render {
    let o = try node.object(allowed: renderKeys)
    guard let templateNode = o["template"] else { throw node.error("missing 'template' (a .json5 file or a bundled name)") }
    let written = try templateNode.string()
    let template: String
    let relative = resolve(written, in: folder)
    if FileManager.default.fileExists(atPath: relative) {
      template = relative
    } else if !written.contains("/"), let bundled = TemplateLibrary.resolve(written, in: TemplateLibrary.locate()) {
      template = URL(fileURLWithPath: bundled).standardizedFileURL.path
    } else {
      throw templateNode.error("no template file '\(quoted: relative)' and no bundled template named "
        + "'\(quoted: written)'")
    }
    let defaultName = URL(fileURLWithPath: template).deletingPathExtension().lastPathComponent
    let name = try o["name"].map { n throws(TemplateError) in try safeName(n) } ?? defaultName

    var variants: [Variant] = []
    if let list = o["variants"] {
      for item in try list.array() { variants.append(try variant(item, folder: folder)) }
    }
    if let data = o["data"] { variants += try dataRows(data, folder: folder) }
    if variants.isEmpty { variants = [Variant(name: "", values: ParameterValues(), files: [])] }
    try nameVariants(&variants, key: o["variantName"], owner: node)

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
      let f = OutputFormat(rawValue: try item.string(oneOf: names))!
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
      encoding: try encoding(o["encoding"]), allowOutsideAssets: try o["allowOutsideAssets"]?.bool() ?? false,
      sizePositions: sizePositions, framesPosition: o["frames"].map { Position(line: $0.value.line, column: $0.value.column) })
  }

  /// An inline object of values or the path of a params file.
  private static func variant(_ node: TemplateNode, folder: String) throws(TemplateError) -> Variant {
    var values = ParameterValues()
    if case .string(let written) = node.value.kind {
      let path = resolve(written, in: folder)
      guard FileManager.default.fileExists(atPath: path) else { throw node.error("no such params file '\(quoted: path)'") }
      try values.load(file: path)
      return Variant(name: "", values: values, files: [path])
    }
    var labels: [String: String] = [:]
    for (key, member) in try node.members() {
      values.set(key, value: member.value, file: node.file)
      labels[key] = label(member.value)
    }
    return Variant(name: "", values: values, files: [], labels: labels)
  }

  /// One variant per row of a CSV file (a header of parameter names; values as `--set` takes
  /// them) or of a JSON/JSON5 file holding an array of objects.
  private static func dataRows(_ node: TemplateNode, folder: String) throws(TemplateError) -> [Variant] {
    let path = resolve(try node.string(), in: folder)
    guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
      throw node.error("cannot read the data file '\(quoted: path)'")
    }
    if path.lowercased().hasSuffix(".csv") {
      let rows = try CSV.parse(text, file: path)
      guard let header = rows.first, !header.fields.isEmpty else {
        throw TemplateError(file: path, path: "", line: 1, column: 1, message: "the CSV file needs a header row of parameter names")
      }
      var out: [Variant] = []
      for row in rows.dropFirst() {
        guard row.fields.count == header.fields.count else {
          throw TemplateError(
            file: path, path: "", line: row.line, column: 1,
            message: "this row has \(row.fields.count) fields, the header has \(header.fields.count)")
        }
        var values = ParameterValues()
        var labels: [String: String] = [:]
        for (name, field) in zip(header.fields, row.fields) where !name.isEmpty {
          values.set(name, text: field)
          labels[name] = field
        }
        out.append(Variant(name: "", values: values, files: [path], labels: labels, row: (path, row.line)))
      }
      return out
    }
    let root: JSON5Value
    do {
      root = try JSON5Parser.parse(text)
    } catch {
      throw TemplateError(file: path, path: "", line: error.line, column: error.column, message: error.message)
    }
    let doc = TemplateNode(document: root, file: path)
    var out: [Variant] = []
    for row in try doc.array() {
      var values = ParameterValues()
      var labels: [String: String] = [:]
      for (key, member) in try row.members() {
        values.set(key, value: member.value, file: path)
        labels[key] = label(member.value)
      }
      out.append(Variant(name: "", values: values, files: [path], labels: labels))
    }
    return out
  }

  /// Names variants by `variantName`'s parameter (its value, made file-name safe) or by number.
  private static func nameVariants(_ variants: inout [Variant], key: TemplateNode?, owner: TemplateNode) throws(TemplateError) {
    if variants.count == 1 && key == nil && variants[0].files.isEmpty && variants[0].values.isEmpty {
      variants[0].name = "default"
      return
    }
    let digits = String(variants.count).count
    var seen: [String: Int] = [:]
    for i in variants.indices {
      var name = String(i + 1)
      name = String(repeating: "0", count: max(0, digits - name.count)) + name
      if key == nil, variants[i].labels.isEmpty, let file = variants[i].files.first, variants[i].files.count == 1,
        !file.lowercased().hasSuffix(".csv")
      {
        name = sanitised(URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent)
      }
      if let key {
        let parameter = try key.string()
        guard let text = variants[i].labels[parameter] else {
          throw key.error("variant \(i + 1) has no value for '\(quoted: parameter)', which names the variants")
        }
        name = sanitised(text)
      }
      if let first = seen[name] {
        throw (key ?? owner).error(
          "variants \(quoted: first + 1) and \(i + 1) are both named '\(quoted: name)'; set 'variantName' to a parameter that tells them apart")
      }
      seen[name] = i
      variants[i].name = name
    }
  }

  /// A scalar value as text (strings as written, numbers without a trailing `.0`).
  static func label(_ value: JSON5Value) -> String? {
    switch value.kind {
    case .string(let s): return s
    case .number(let v): return TemplateNode.format(v)
    case .bool(let b): return String(b)
    default: return nil
    }
  }

  private static func safeName(_ node: TemplateNode) throws(TemplateError) -> String {
    let s = try node.string()
    guard !s.isEmpty, s != ".", s != "..", s.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) })
    else { throw node.error("a name may only use letters, digits, '.', '_' and '-' (it becomes a folder), found \"\(quoted: s)\"") }
    return s
  }

  static func sanitised(_ text: String) -> String {
    let s = String(text.map { $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) ? $0 : "_" })
    return s.isEmpty || s == "." || s == ".." ? "_" : s
  }

  private static func size(_ node: TemplateNode) throws(TemplateError) -> SizeSpec {
    if case .number = node.value.kind {
      let s = try node.double()
      guard s > 0, s <= 16 else { throw node.error("a scale must be in (0, 16], found \(TemplateNode.format(s))") }
      return .scale(s)
    }
    let text = try node.string()
    let parts = text.lowercased().split(separator: "x")
    guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), (1...16384).contains(w), (1...16384).contains(h)
    else { throw node.error("expected \"WIDTHxHEIGHT\" in pixels (such as \"1280x720\") or a scale number, found \"\(quoted: text)\"") }
    return .pixels(width: w, height: h)
  }

  /// The keys of a render's `encoding` object.
  package static let encodingKeys = ["crf", "preset", "pad", "dither", "loop", "gifFps", "gifWidth"]
  /// The formats a manifest can ask for.
  package static let formats = OutputFormat.allCases.filter { $0 != .bgra }

  private static func encoding(_ node: TemplateNode?) throws(TemplateError) -> EncodingOptions {
    var e = EncodingOptions()
    guard let node else { return e }
    let o = try node.object(allowed: encodingKeys)
    e.crf = try o["crf"]?.int(in: 0...63)
    if let p = o["preset"] { e.preset = try p.string(oneOf: EncodingOptions.presets) }
    e.pad = try o["pad"]?.bool() ?? false
    if let d = o["dither"] {
      e.dither = EncodingOptions.Dither(rawValue: try d.string(oneOf: EncodingOptions.Dither.allCases.map(\.rawValue)))!
    }
    if let l = o["loop"] { e.plays = try l.int(in: 0...65535) }
    e.gifFPS = try o["gifFps"]?.int(in: 1...50)
    e.gifWidth = try o["gifWidth"]?.int(in: 1...16384)
    return e
  }

  static func resolve(_ path: String, in folder: String) -> String {
    let url = path.hasPrefix("/") ? URL(fileURLWithPath: path) : URL(fileURLWithPath: folder).appendingPathComponent(path)
    return url.standardizedFileURL.path
  }
}

/// The manifest's shapes that templates do not have.
extension TemplateNode {
  /// The members of an object in source order, any keys.
  fileprivate func members() throws(TemplateError) -> [(key: String, node: TemplateNode)] {
    guard case .object(let members) = value.kind else { throw expected("an object") }
    return members.map { ($0.key, child($0.key, $0.value)) }
  }

  /// An array, or a single value standing for an array of one.
  fileprivate func list() throws(TemplateError) -> [TemplateNode] {
    if case .array = value.kind { return try array() }
    return [self]
  }
}
