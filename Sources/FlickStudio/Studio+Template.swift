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
  }
  struct Event: Encodable {
    var time: Double
    var name: String
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

  enum CodingKeys: String, CodingKey {
    case name, revision, ok, error, canvas, parameters, layers, tracks, events
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
  }
}

extension Studio {
  /// The state of `session`: the last good compile, and the error when the file does not compile now.
  func templateState(_ session: TemplateSession) -> HTTPResponse {
    let (revision, template, error, _) = session.snapshot
    var state = TemplateState(
      name: session.name, revision: revision, ok: error == nil, error: error.map(diagnostic))
    if let template { Self.describe(template, into: &state) }
    return StudioResponse.json(state)
  }

  static func describe(_ template: Template, into state: inout TemplateState) {
    let scene = template.scene
    state.canvas = .init(
      width: scene.size.width, height: scene.size.height, fps: scene.fps, duration: scene.duration,
      frameCount: scene.frameCount,
      background: scene.backgroundColor.alpha == 0 ? nil : scene.backgroundColor.hexString)
    state.parameters = template.parameters.map { p in
      .init(
        name: p.name, type: p.kind.rawValue, default: p.defaultValue.map(JSONValue.init),
        value: template.parameterValues[p.name].map(JSONValue.init), min: p.minimum, max: p.maximum,
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
    state.tracks = template.tracks.outline.map { track in
      .init(
        layer: track.layerID, property: track.property,
        segments: track.segments.map { s in
          let length = s.end.map { TemplateNumber.seconds($0 - s.begin) + " s" } ?? "open"
          let name = s.released.map { "release (\($0))" } ?? s.kind
          return .init(start: s.begin, end: s.end, kind: s.kind, label: "\(name) \(length)")
        }, joins: track.joins)
    }
    state.events = []
  }

  /// `error` for the page: located, with the source line under it and the CLI's exact text.
  func diagnostic(_ error: TemplateError) -> Diagnostic {
    var sourceLine: String?
    if error.line > 0, let path = try? workspace.resolve(error.file).get(),
      let text = try? String(contentsOfFile: path, encoding: .utf8)
    {
      let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
      if error.line <= lines.count { sourceLine = String(lines[error.line - 1].prefix(1_000)) }
    }
    return Diagnostic(
      file: error.file, line: error.line, column: error.column, path: error.path, message: error.message,
      sourceLine: sourceLine, caret: error.column, text: "flick: " + MessageText.logEntry(error.description))
  }
}

/// Seconds for labels: `0.25`, `1` (at most 3 decimals).
enum TemplateNumber {
  static func seconds(_ v: Double) -> String {
    if v == v.rounded() && abs(v) < 1e15 { return String(Int(v)) }
    var s = String(format: "%.3f", v)
    while s.hasSuffix("0") { s.removeLast() }
    return s
  }
}
