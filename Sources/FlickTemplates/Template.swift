import FlickMotion
import FlickScene
import Foundation

/// A decoded, validated template: metadata, its parameters and the ``Scene`` it describes.
///
/// Format version 1 (`"flick": 1`) is documented in `docs/templates.md` and described by the
/// JSON Schema `Templates/schema.json`.
///
///     var values = ParameterValues()
///     try values.set("accent=#22C55E")
///     let template = try Template.load(path: "Templates/hello.json5", parameters: values)
///     let tree = template.scene.renderTree(at: 1.5)
public struct Template: Sendable {
  /// The format version this build reads.
  public static let formatVersion = 1

  /// Short name (defaults to the file name without extension).
  public var name: String
  /// One-line description for `flick templates` and `flick info`.
  public var description: String
  /// The declared parameters, in declaration order.
  public var parameters: [TemplateParameter]
  /// The value each parameter took (given or default), by name.
  public var parameterValues: [String: JSON5Value]
  /// Whether the canvas duration was `"auto"` (computed from the timeline).
  public var automaticDuration: Bool
  /// The scene, ready to render.
  public var scene: Scene
  /// The scene's animations as property tracks: value and velocity of any property of any
  /// layer at any time, with left and right limits (what `flick trace` prints).
  package var tracks: PropertyTracks = PropertyTracks(layers: [])
  /// Every component instance (`use:` layers), outer before inner, with qualified ids.
  package var componentInstances: [ComponentInstance] = []
  /// Where each layer was written, by id: for located messages about drawing it.
  package var layerSites: [String: LayerSite] = [:]
  /// Where each of ``FlickScene/Scene/fontFiles`` was first named (a `fonts` entry or a `font`
  /// parameter), by path: for located messages when fontconfig cannot load it.
  package var fontSites: [String: SourceSite] = [:]
  /// The crossings `when` entries waited for, with their resolved times (`flick info`).
  package var crossings: [ResolvedCrossing] = []
  /// The timeline's entries with an id, in compile order (what the studio's timeline marks).
  package var timelineMarkers: [TimelineMarker] = []
  /// Warnings for bare angles above a full turn, from the text as written
  /// (``angleWarnings(in:file:)``); only with ``TemplateOptions/collectsAngleWarnings``.
  package var angleWarnings: [String] = []

  /// Reads and decodes the template at `path` with its default parameters.
  ///
  /// - Throws: ``TemplateError`` naming the file, the JSON path, the line and column.
  public static func load(path: String) throws(TemplateError) -> Template {
    try load(path: path, parameters: ParameterValues(), options: TemplateOptions())
  }

  /// Reads and decodes the template at `path`.
  ///
  /// - Parameters:
  ///   - path: The template file; its folder is where relative asset paths resolve.
  ///   - parameters: Values for declared parameters (unknown names are errors).
  ///   - options: Loading policy, such as whether assets may leave the template's folder.
  /// - Throws: ``TemplateError`` naming the file (or `--set …`), the JSON path, line and column.
  public static func load(
    path: String, parameters: ParameterValues, options: TemplateOptions = TemplateOptions()
  ) throws(TemplateError) -> Template {
    let bytes: [UInt8]
    do {
      bytes = try AssetFile.read(path, maximumBytes: options.limits.maximumFileBytes, kind: "a template")
    } catch {
      throw readError(error.cause, path: path, limits: options.limits)
    }
    return try load(
      path: path, contents: AssetFile.Head(bytes: bytes, size: bytes.count), parameters: parameters, options: options)
  }

  /// ``load(path:parameters:options:)`` with the file already read (once, through
  /// ``FlickScene/AssetFile/read(_:wholeUpTo:headBytes:)``: `flick render` reads its SOURCE once to tell a
  /// template from a Lottie file and loads those bytes). A file over the cap is refused by its size.
  package static func load(
    path: String, contents: AssetFile.Head, parameters: ParameterValues, options: TemplateOptions
  ) throws(TemplateError) -> Template {
    guard contents.size <= options.limits.maximumFileBytes else {
      throw readError(.tooLarge(size: contents.size), path: path, limits: options.limits)
    }
    guard contents.isWhole else { throw readError(.changed, path: path, limits: options.limits) }
    let data = Data(contents.bytes)
    guard let text = String(data: data, encoding: .utf8) else {
      let at = SourceText.firstInvalidUTF8(in: data) ?? (0, 0)
      throw TemplateError(
        file: path, path: "", line: at.line, column: at.column,
        message: "the file is not UTF-8 text (the first byte that is not UTF-8 is here)")
    }
    let url = URL(fileURLWithPath: path)
    return try decode(
      text, file: path, defaultName: url.deletingPathExtension().lastPathComponent,
      parameters: parameters, options: options, baseFolder: url.deletingLastPathComponent().path)
  }

  /// Decodes a template from JSON5 text.
  ///
  /// - Parameters:
  ///   - file: Names the template in error messages.
  ///   - baseFolder: Where relative asset paths resolve (default: the current directory).
  public static func decode(
    _ text: String, file: String = "", defaultName: String = "template",
    parameters: ParameterValues = ParameterValues(), options: TemplateOptions = TemplateOptions(),
    baseFolder: String? = nil
  ) throws(TemplateError) -> Template {
    let root: JSON5Value
    do {
      root = try JSON5Parser.parse(text)
    } catch {
      // Text that does not begin as an object is not a template, and is not quoted: a path on
      // the command line may lead anywhere (a link in a pull request to a token file, whose first
      // word a message would print into a build log).
      let message =
        beginsAsAnObject(text)
        ? error.message
        : "not a template: a template is a JSON5 object, beginning with '{' (\(quoted: error.plainMessage))"
      throw TemplateError(file: file, path: "", line: error.line, column: error.column, message: message)
    }
    var context = TemplateContext(
      baseFolder: baseFolder ?? FileManager.default.currentDirectoryPath,
      allowOutsideAssets: options.allowOutsideAssets, limits: options.limits)
    context.source = TemplateSource(file: file, text: text)
    context.assetLog = options.assetLog
    context.outsideRemedy = options.outsideRemedy
    context.fontReads = TemplateFontFiles()
    let raw = TemplateNode(value: root, path: "", file: file, context: context)
    try checkVersion(raw)

    // Parameters are declared with literal values; everything else may reference them.
    let declared = try decodeParameters(raw.member("parameters"))
    var values = try resolveParameters(declared, given: parameters, file: file, context: context)
    var fontSites: [String: SourceSite] = [:]
    var fontFiles = try fontParameterFiles(declared, values: &values, sites: &fontSites, file: file, context: context)
    var budget = ExpansionBudget(limit: options.limits.maximumExpandedBytes)
    // Components are substituted per instance, with their own parameters (Template+Components.swift).
    let components = try TemplateComponent.decodeAll(raw.member("components"))
    var body = root
    if case .object(let members) = root.kind {
      body.kind = .object(members.filter { $0.key != "parameters" && $0.key != "components" })
    }
    let doc = TemplateNode(
      value: try substitute(
        TemplateNode(value: body, path: "", file: file, context: context), values: values,
        budget: &budget),
      path: "", file: file, context: context)
    try refuseNULCharacters(in: doc)
    let o = try doc.object(allowed: [
      "$schema", "flick", "name", "description", "parameters", "fonts", "styles", "canvas", "layers", "timeline",
      "motionBlur", "colorSpace", "components",
    ])
    _ = try o["$schema"]?.string()

    guard let canvasNode = o["canvas"] else { throw doc.error("missing 'canvas' (size, fps and duration)") }
    let canvas = try decodeCanvas(canvasNode, fps: options.fps)
    options.decodeObserver?.canvasDecoded(canvas.scene)
    var scene = canvas.scene
    if let fontsNode = o["fonts"] {
      for (index, node) in try fontsNode.array().enumerated() {
        guard index < TemplateLimits.maximumFontFiles else {
          throw node.error("'fonts' may list at most \(TemplateLimits.maximumFontFiles) font files")
        }
        let path = try node.fontFile().path
        if !fontFiles.contains(path) {
          fontFiles.append(path)
          fontSites[path] = SourceSite(node)
        }
      }
    }
    scene.fontFiles = fontFiles
    let styles = try decodeStyles(o["styles"])
    try checkUnusedStyles(o["styles"], usedIn: [o["layers"], o["components"]])
    var ids = Set<String>()
    if let gradient = canvas.gradient {
      scene.layers.append(gradient)
      ids.insert(gradient.id)
    }
    let colorSpace = try o["colorSpace"]?.colorSpace() ?? .sRGB
    let horizon = canvas.automaticDuration ? nil : canvas.scene.duration
    var expander = ComponentExpander(
      components: components, templateValues: values, budget: budget,
      instanceLimit: options.limits.maximumComponentInstances, layerLimit: options.limits.maximumLayers)
    let content = try decodeContent(
      layers: o["layers"], timeline: o["timeline"], in: doc, expander: &expander, styles: styles, fontFiles: fontFiles,
      scene: &scene, ids: &ids, horizon: horizon, colorSpace: colorSpace, observer: options.decodeObserver)
    try checkUnusedComponents(
      components, used: Set(content.instances.map(\.component)), in: doc, styles: styles, values: values,
      fontFiles: fontFiles, canvas: canvas.scene, horizon: horizon, colorSpace: colorSpace)
    if let n = o["motionBlur"] { scene.motionBlur = try decodeMotionBlur(n) }
    if canvas.automaticDuration {
      scene.duration = try automaticDuration(of: scene, canvas: canvasNode)
    }
    var template = Template(
      name: try o["name"]?.string() ?? defaultName,
      description: try o["description"]?.string() ?? "",
      parameters: declared,
      parameterValues: values,
      automaticDuration: canvas.automaticDuration,
      scene: scene, tracks: content.tracks, componentInstances: content.instances, layerSites: content.layerSites)
    template.crossings = content.crossings
    template.timelineMarkers = content.markers
    template.fontSites = fontSites
    if options.collectsAngleWarnings { template.angleWarnings = angleWarnings(in: root, file: file) }
    return template
  }

  /// Font files given as `font` parameter values: each value becomes the file's preferred
  /// family name (what `fontFamily` needs) and the file joins the scene's font files.
  private static func fontParameterFiles(
    _ declared: [TemplateParameter], values: inout [String: JSON5Value], sites: inout [String: SourceSite],
    file: String, context: TemplateContext
  ) throws(TemplateError) -> [String] {
    var files: [String] = []
    func family(_ value: JSON5Value, _ name: String) throws(TemplateError) -> JSON5Value {
      guard case .string(let s) = value.kind, TemplateParameter.isFontFile(s) else { return value }
      let node = TemplateNode(value: value, path: "parameters.\(name)", file: file, context: context)
      let font = try node.fontFile()
      if !files.contains(font.path) {
        files.append(font.path)
        sites[font.path] = SourceSite(node)
      }
      var out = value
      out.kind = .string(font.families[0])
      return out
    }
    for p in declared {
      guard let value = values[p.name] else { continue }
      if p.kind == .font {
        values[p.name] = try family(value, p.name)
      } else if p.kind == .list, p.itemKind == .font, case .array(let items) = value.kind {
        var out: [JSON5Value] = []
        for item in items { out.append(try family(item, p.name)) }
        values[p.name] = JSON5Value(.array(out), line: value.line, column: value.column)
      }
    }
    return files
  }

  /// Checks the `flick` version header before anything else, so a newer file fails clearly.
  private static func checkVersion(_ doc: TemplateNode) throws(TemplateError) {
    // Not quoted (a string's text, a number), as for a syntax error before the first `{`.
    guard case .object = doc.value.kind else {
      throw doc.error(
        "not a template: a template is a JSON5 object, beginning with '{' (found \(quoted: doc.value.kindDescription))")
    }
    guard let version = doc.member("flick") else {
      throw doc.error("missing the format version: add \"flick\": \(formatVersion) at the top level")
    }
    let v = try version.int(in: 1...Int.max)
    guard v == formatVersion else {
      throw version.error("format version \(v) is newer than this Flick reads (\(formatVersion)); upgrade Flick")
    }
  }
}

extension TemplateNode {
  /// The member `key` of an object node, without checking the other keys.
  func member(_ key: String) -> TemplateNode? {
    value[key].map { child(key, $0) }
  }

  /// The same node (path, file, context) holding another value.
  func with(value: JSON5Value) -> TemplateNode {
    TemplateNode(value: value, path: path, file: file, context: context)
  }
}

extension Template {
  /// Whether `text`, after a byte order mark, white space and comments, begins with `{`.
  static func beginsAsAnObject(_ text: String) -> Bool {
    var rest = Substring(text)
    if rest.first == "\u{FEFF}" { rest = rest.dropFirst() }
    while let c = rest.first {
      if c.isWhitespace {
        rest = rest.dropFirst()
      } else if rest.hasPrefix("//") {
        rest = rest.drop { $0 != "\n" }
      } else if rest.hasPrefix("/*") {
        guard let close = rest.dropFirst(2).range(of: "*/") else { return false }
        rest = rest[close.upperBound...]
      } else {
        return c == "{"
      }
    }
    return false
  }
}
