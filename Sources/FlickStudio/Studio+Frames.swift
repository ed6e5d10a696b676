import FlickBatch
import FlickMotion
import FlickRaster
import FlickScene
import FlickSnapshot
import FlickTemplates
import Foundation

extension Studio {
  /// How the frame endpoints name `flick still`'s time options in messages.
  static let timeNames = StillTime.Names(time: "t=", frame: "frame=", at: "at=")
  /// The most pixels of one frame the studio renders.
  static let maximumFramePixels = 1 << 26

  /// `GET /api/frame.png`: exactly the bytes `flick still` writes, rendered by a warm worker;
  /// a newer request of the same `client` supersedes this one while it waits (204).
  func frame(_ request: HTTPRequest, reply: @escaping @Sendable (HTTPResponse) -> Void) {
    let client = request.argument("client")
    var sequence = 0
    if let text = request.argument("seq") {
      guard let n = Int(text), n >= 0 else {
        return reply(StudioResponse.error(400, "seq= expects a whole number ≥ 0, found \(quoted: text)"))
      }
      sequence = n
    }
    pool.submit(
      client: client, sequence: sequence, template: request.argument("template"),
      work: { self.renderFrame(request, renderer: $0) }, reply: reply)
  }

  /// The PNG of the requested frame.
  func renderFrame(_ request: HTTPRequest, renderer: (Double) -> FrameRenderer) -> HTTPResponse {
    withFrame(request) { revision, template, time, scale in
      let started = DispatchTime.now().uptimeNanoseconds
      let data: Data
      do {
        let frame = try renderer(scale).render(template.scene.renderTree(at: time))
        data = try frame.pngData(threads: Frame.threadsForOneFrame)
      } catch let error as RasterError {
        return StudioResponse.error(500, template.located(error))
      } catch {
        return StudioResponse.error(500, "\(escaped: error)")
      }
      let milliseconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6
      var response = StudioResponse.raw(contentType: "image/png", data: data)
      response.add("X-Flick-Render-Ms", String(format: "%.1f", milliseconds))
      response.add("X-Flick-Revision", String(revision))
      response.add("X-Flick-Time", String(time))
      return response
    }
  }

  /// Runs `body` with the revision, template (current parameters, or those of `set=`), time and
  /// scale of a frame request, or answers why they are refused. The revision is read before the
  /// template, so a reload in between labels the new template with the older revision (the page
  /// asks again) and never an old template's frame with the new revision.
  func withFrame(
    _ request: HTTPRequest, _ body: (Int, Template, Double, Double) -> HTTPResponse
  ) -> HTTPResponse {
    withSession(request) { session in
      let revision = session.snapshot.revision
      let sets = request.arguments("set")
      let template: Template
      do throws(TemplateError) {
        template = try session.template(assignments: sets.isEmpty ? nil : sets)
      } catch {
        return StudioResponse.json(TemplateErrorBody(status: 422, diagnostic: diagnostic(error)), status: 422)
      }
      let time: Double
      switch Self.sceneTime(of: request, in: template.scene) {
      case .success(let seconds): time = seconds
      case .failure(let refusal): return refusal.response
      }
      var scale = options.scale
      if let text = request.argument("scale") {
        guard let s = Double(text), Renderer.acceptsScale(s) else {
          return StudioResponse.error(
            400, "scale= expects a number in \(escaped: Renderer.scaleRange) such as 2 or 0.5, found \(quoted: text)")
        }
        scale = s
      }
      // Both bounds: a side under one pixel (scale=0.001 of a 640×360 canvas rounds to 1×0)
      // is refused here, as a side over the renderer's or a frame over the studio's limit.
      let side = Renderer.pixelSize(of: template.scene.size, scale: scale)
      guard Renderer.pixelSides.contains(side.width), Renderer.pixelSides.contains(side.height) else {
        return StudioResponse.error(
          400,
          "scale=\(escaped: String(scale)) draws the canvas at \(side.width)×\(side.height) pixels; "
            + Renderer.sideRefusal(canvas: template.scene.size, scale: "scale="))
      }
      let pixels = side.width * side.height
      guard pixels <= Self.maximumFramePixels else {
        return StudioResponse.error(
          400, "a frame of \(quoted: pixels) pixels is more than the studio draws; lower scale=")
      }
      return body(revision, template, time, scale)
    }
  }

  /// Why a request's time is refused: the 400 answer to send.
  struct TimeRefusal: Error {
    let response: HTTPResponse
  }

  /// The scene time a request names with `t=`, `frame=` or `at=`, read as `flick still` reads
  /// `--time`, `--frame` and `--at` (the same checks and messages, with the query's names).
  static func sceneTime(of request: HTTPRequest, in scene: Scene) -> Result<Double, TimeRefusal> {
    do throws(StillTime.Refusal) {
      return .success(
        try StillTime.seconds(
          time: request.argument("t"), frame: request.argument("frame"), at: request.argument("at"),
          in: scene, names: timeNames))
    } catch {
      return .failure(TimeRefusal(response: StudioResponse.error(400, error.message)))
    }
  }

  /// `GET /api/hit`: the topmost layer under a canvas point, as drawn at `t`.
  func hit(_ request: HTTPRequest, renderer: (Double) -> FrameRenderer) -> HTTPResponse {
    withFrame(request) { _, template, time, _ in
      guard let x = request.argument("x").flatMap(Double.init), let y = request.argument("y").flatMap(Double.init),
        x.isFinite, y.isFinite
      else { return StudioResponse.error(400, "hit needs x= and y= in canvas points") }
      let tree = template.scene.renderTree(at: time)
      let path = LayerHit.topmost(in: tree.layers, at: Point(x: x, y: y))
      let quad = path.last.flatMap { LayerHit.outline(of: $0, in: tree.layers, canvas: tree.size) }
      return StudioResponse.json(HitBody(layer: path.last, path: path, quad: quad.map(HitBody.corners)))
    }
  }

  /// `GET /api/layer`: a layer's animatable properties at `t`, with the numbers of `flick trace`.
  func layerState(_ request: HTTPRequest, _ session: TemplateSession) -> HTTPResponse {
    let template: Template
    do throws(TemplateError) {
      template = try session.template(assignments: nil)
    } catch {
      return StudioResponse.json(TemplateErrorBody(status: 422, diagnostic: diagnostic(error)), status: 422)
    }
    guard let id = request.argument("layer") else { return StudioResponse.error(400, "the request needs layer=ID") }
    guard let layer = template.tracks.layer(id) else {
      return StudioResponse.error(404, "no layer with id \(quoted: id)")
    }
    let time: Double
    switch Self.sceneTime(of: request, in: template.scene) {
    case .success(let seconds): time = seconds
    case .failure(let refusal): return refusal.response
    }
    let animated = Set(template.tracks.outline.filter { $0.layerID == id }.map(\.property))
    var tracks = template.tracks
    var properties: [LayerBody.Property] = []
    for name in AnyLayerProperty.names {
      guard let property = AnyLayerProperty.named(name), property.applies(to: layer) else { continue }
      guard let sample = tracks.trace(property, layerID: id, at: [time], limit: .right).first else { continue }
      let moving = !AnyLayerProperty.overlapping(name).filter(animated.contains).isEmpty
      properties.append(
        .init(
          name: name, value: sample.value, velocity: moving ? sample.velocity : nil, animated: moving,
          unit: property.descriptor?.unit.rawValue ?? ""))
    }
    let tree = template.scene.renderTree(at: time)
    let quad = LayerHit.outline(of: id, in: tree.layers, canvas: tree.size).map(HitBody.corners)
    return StudioResponse.json(LayerBody(layer: id, time: time, properties: properties, quad: quad))
  }

  /// `GET /api/trace`: exactly what `flick trace NAME --layer ID --property P --format json` prints.
  func trace(_ request: HTTPRequest, _ session: TemplateSession) -> HTTPResponse {
    let template: Template
    do throws(TemplateError) {
      template = try session.template(assignments: nil)
    } catch {
      return StudioResponse.json(TemplateErrorBody(status: 422, diagnostic: diagnostic(error)), status: 422)
    }
    guard let id = request.argument("layer"), let name = request.argument("property") else {
      return StudioResponse.error(400, "trace needs layer=ID and property=NAME")
    }
    guard let property = AnyLayerProperty.named(name) else {
      return StudioResponse.error(400, "\(quoted: name) is not an animatable property")
    }
    guard let layer = template.tracks.layer(id) else {
      return StudioResponse.error(404, "no layer with id \(quoted: id)")
    }
    if !property.applies(to: layer), let kind = property.contentKind {
      return StudioResponse.error(
        400,
        "\(quoted: name) is a property of \(kind.rawValue) layers, but \(quoted: id) is not a \(kind.rawValue) layer")
    }
    var fps = Double(template.scene.fps)
    if let text = request.argument("fps") {
      guard let v = Double(text), v.isFinite, v > 0, v <= 10_000 else {
        return StudioResponse.error(400, "fps= must be in (0, 10000], found \(quoted: text)")
      }
      fps = v
    }
    guard TraceReport.sampleCount(duration: template.scene.duration, fps: fps) <= TraceReport.maximumSamples else {
      return StudioResponse.error(400, "too many samples; lower fps=")
    }
    var tracks = template.tracks
    let samples = tracks.trace(
      property, layerID: id, at: TraceReport.frameTimes(duration: template.scene.duration, fps: fps), limit: .right)
    let text = TraceReport.json(samples, property, layer: id, side: "right") + "\n"
    return StudioResponse.raw(contentType: "application/json; charset=utf-8", data: Data(text.utf8))
  }
}

/// `{"error": {…Diagnostic, "status"}}` for a template that does not compile.
struct TemplateErrorBody: Encodable {
  struct Detail: Encodable {
    var status: Int
    var message: String
    var diagnostic: Diagnostic
  }
  var error: Detail

  init(status: Int, diagnostic: Diagnostic) {
    error = Detail(status: status, message: diagnostic.text, diagnostic: diagnostic)
  }
}

/// `GET /api/hit`.
struct HitBody: Encodable {
  var layer: String?
  var path: [String]
  /// The hit layer's outline in canvas points, for the page: its bounds' four corners ([x, y] × 4),
  /// or, for a layer reaching the viewer's eye, the polygon of its part in front (``LayerHit/outline(of:in:canvas:)``).
  var quad: [[Double]]?

  enum CodingKeys: String, CodingKey { case layer, path, quad }

  func encode(to encoder: Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(layer, forKey: .layer)
    try c.encode(path, forKey: .path)
    try c.encodeIfPresent(quad, forKey: .quad)
  }

  /// Points as `[x, y]` pairs.
  static func corners(_ points: [Point]) -> [[Double]] { points.map { [$0.x, $0.y] } }
}

/// `GET /api/layer`.
struct LayerBody: Encodable {
  struct Property: Encodable {
    var name: String
    var value: [Double]
    var velocity: [Double]?
    var animated: Bool
    var unit: String
  }
  var layer: String
  var time: Double
  var properties: [Property]
  /// The layer's outline at `time` (see ``HitBody/quad``).
  var quad: [[Double]]?
}
