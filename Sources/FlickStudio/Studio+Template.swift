import FlickMotion
import FlickScene
import FlickTemplates
import Foundation

/// `GET /api/template`: the compiled state of a template.
struct TemplateState: Encodable {
  struct Canvas: Encodable {
    var width: Double
    var height: Double
    var fps: Int
    var duration: Double
    var frameCount: Int
    var background: String?
  }
  struct Parameter: Encodable {
    var name: String
    var type: String
    var `default`: JSONValue?
    var value: JSONValue?
    var min: Double?
    var max: Double?
    var options: [String]?
    var description: String?
  }
  struct LayerEntry: Encodable {
    var id: String
    var parent: String?
    var kind: String

    enum CodingKeys: String, CodingKey { case id, parent, kind }

    func encode(to encoder: Encoder) throws {
      var c = encoder.container(keyedBy: CodingKeys.self)
      try c.encode(id, forKey: .id)
      try c.encode(parent, forKey: .parent)  // null for a top-level layer
      try c.encode(kind, forKey: .kind)
    }
  }
  struct Segment: Encodable {
    var start: Double
    var end: Double?
    var kind: String
    var label: String
  }
  struct Track: Encodable {
    var layer: String
    var property: String
    var segments: [Segment]
    var joins: [Double]
    /// Each join read from both sides (``JoinLimit``), in the order of `joins`.
    var handOvers: [JoinLimit]
  }
  /// A timeline entry with an id (``FlickTemplates/TimelineMarker``): its name, begin and end.
  struct Event: Encodable {
    var time: Double
    var name: String
    /// When its motion has settled (nil when it never does).
    var end: Double?
  }
  /// A segment kind the tracks use, with its colour (``SegmentKindColor``).
  struct Kind: Encodable {
    var name: String
    var color: String
  }

  var name: String
  var revision: Int
  var ok: Bool
  var error: Diagnostic?
  var canvas: Canvas?
  var parameters: [Parameter]?
  var layers: [LayerEntry]?
  var tracks: [Track]?
  var events: [Event]?
  var kinds: [Kind]?

  enum CodingKeys: String, CodingKey {
    case name, revision, ok, error, canvas, parameters, layers, tracks, events, kinds
  }

  func encode(to encoder: Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(name, forKey: .name)
    try c.encode(revision, forKey: .revision)
    try c.encode(ok, forKey: .ok)
    try c.encode(error, forKey: .error)  // null when it compiles
    try c.encodeIfPresent(canvas, forKey: .canvas)
    try c.encodeIfPresent(parameters, forKey: .parameters)
    try c.encodeIfPresent(layers, forKey: .layers)
    try c.encodeIfPresent(tracks, forKey: .tracks)
    try c.encodeIfPresent(events, forKey: .events)
    try c.encodeIfPresent(kinds, forKey: .kinds)
  }
}

extension Studio {
  /// The state of `session`: the last good compile, and the error when the file does not compile now.
  func templateState(_ session: TemplateSession) -> HTTPResponse {
    let (revision, template, error, _) = session.snapshot
    var state = TemplateState(
      name: session.name, revision: revision, ok: error == nil, error: error.map(diagnostic))
    if let template { describe(template, session: session, into: &state) }
    return StudioResponse.json(state)
  }

  func describe(_ template: Template, session: TemplateSession, into state: inout TemplateState) {
    let scene = template.scene
    state.canvas = .init(
      width: scene.size.width, height: scene.size.height, fps: scene.fps, duration: scene.duration,
      frameCount: scene.frameCount,
      background: scene.backgroundColor.alpha == 0 ? nil : scene.backgroundColor.hexString)
    let templateFolder = (session.path as NSString).deletingLastPathComponent
    // A font parameter's value is the family its file holds: the page is given the file instead.
    var assigned: [String: String] = [:]
    for assignment in session.snapshot.assignments {
      guard let eq = assignment.firstIndex(of: "=") else { continue }
      assigned[String(assignment[..<eq])] = String(assignment[assignment.index(after: eq)...])
    }
    state.parameters = template.parameters.map { p in
      var value = template.parameterValues[p.name].map { fileRelative($0, p, from: templateFolder) }
      if p.kind == .font, let text = assigned[p.name], Self.isFile(text, p) {
        value = fileRelative(JSON5Value(.string(text)), p, from: workspace.folder)
      } else if p.kind == .font, assigned[p.name] == nil, let given = p.defaultValue,
        case .string(let text) = given.kind, Self.isFile(text, p)
      {
        value = fileRelative(given, p, from: templateFolder)
      }
      return .init(
        name: p.name, type: p.kind.rawValue, default: p.defaultValue.map { fileRelative($0, p, from: templateFolder) },
        value: value, min: p.minimum, max: p.maximum,
        options: p.choices.isEmpty ? nil : p.choices, description: p.description.isEmpty ? nil : p.description)
    }
    var layers: [TemplateState.LayerEntry] = []
    func walk(_ layer: Layer, parent: String?) {
      let kind = layer.content.kind != .none ? layer.content.kind.rawValue : layer.contents != nil ? "image" : "layer"
      layers.append(.init(id: layer.id, parent: parent, kind: kind))
      for child in layer.sublayers { walk(child, parent: layer.id) }
    }
    for layer in scene.layers { walk(layer, parent: nil) }
    state.layers = layers
    var tracks = template.tracks
    let outline = tracks.outline
    state.tracks = outline.map { track in
      .init(
        layer: track.layerID, property: track.property,
        segments: track.segments.map { s in
          let length = s.end.map { DecimalText.format($0 - s.begin) + " s" } ?? "open"
          let name = s.released.map { "release (\($0))" } ?? s.kind
          return .init(start: s.begin, end: s.end, kind: s.kind, label: "\(name) \(length)")
        }, joins: track.joins, handOvers: JoinLimit.limits(of: track, in: &tracks))
    }
    state.kinds = SegmentKindColor.legend(outline)
    state.events = template.timelineMarkers.map { marker in
      .init(time: marker.begin, name: marker.name, end: marker.end.isFinite ? marker.end : nil)
    }
  }

  /// A parameter's value for the page, files named relative to the opened folder.
  ///
  /// An image or font file is named as the page's pickers list it and `--set` run in the opened
  /// folder reads it; relative values (defaults as written) are relative to `base`, the
  /// template's folder. Other values are as they are.
  func fileRelative(_ value: JSON5Value, _ parameter: TemplateParameter, from base: String) -> JSONValue {
    guard case .string(let text) = value.kind, Self.isFile(text, parameter) else { return JSONValue(value) }
    let absolute =
      text.hasPrefix("/") ? text : URL(fileURLWithPath: base).appendingPathComponent(text).standardizedFileURL.path
    let relative = workspace.relative(absolute)
    guard relative != absolute else { return JSONValue(value) }
    var out = value
    out.kind = .string(relative)
    return JSONValue(out)
  }

  /// Whether `text`, a value of `parameter`, names a file: any image, a font file (a font
  /// parameter may also name an installed family).
  static func isFile(_ text: String, _ parameter: TemplateParameter) -> Bool {
    guard !text.isEmpty else { return false }
    let ext = (text as NSString).pathExtension.lowercased()
    return parameter.kind == .image || (parameter.kind == .font && AssetKind.font.extensions.contains(ext))
  }

  /// `error` for the page: located, with the source line under it and the CLI's exact text.
  ///
  /// The line is the one the parser counted, whatever the file's line ends (``SourceText``), and
  /// the caret its column: Unicode scalars from 1 (the page counts code points alike). At most
  /// 1,000 scalars of the line are sent.
  func diagnostic(_ error: TemplateError) -> Diagnostic {
    var sourceLine: String?
    // The file is a template or a params file (both capped at 16 MiB), read through the bounded reader.
    if error.line > 0, let path = try? workspace.resolve(error.file).get(),
      let bytes = try? AssetFile.read(
        path, maximumBytes: max(options.templateLimits.maximumFileBytes, ParameterValues.maximumFileBytes),
        kind: "a template"),
      let text = String(bytes: bytes, encoding: .utf8),
      let line = SourceText.line(error.line, of: text)
    {
      sourceLine = String(String.UnicodeScalarView(line.unicodeScalars.prefix(1_000)))
    }
    return Diagnostic(
      file: error.file, line: error.line, column: error.column, path: error.path, message: error.message,
      sourceLine: sourceLine, caret: error.column, text: "flick: " + MessageText.logEntry(error.description))
  }
}
