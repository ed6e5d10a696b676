import FlickMotion
import FlickScene
import FlickRaster
import Foundation

extension Studio {
  /// Answers one request: the security checks, then the page or the API.
  func handle(_ given: HTTPRequest, reply: @escaping @Sendable (HTTPResponse) -> Void) {
    if let refusal = refusal(given) { return reply(refusal) }
    // HEAD is answered as GET (libmicrohttpd sends the headers only).
    let request =
      given.method == "HEAD"
      ? HTTPRequest(
        method: "GET", path: given.path, arguments: given.arguments, headers: given.headers,
        body: given.body) : given
    let path = request.path
    switch (request.method, path) {
    case ("GET", "/"), ("GET", "/index.html"):
      reply(pageFile("index.html"))
    case ("GET", _) where path.hasPrefix("/studio/"):
      reply(pageFile(String(path.dropFirst("/studio/".count))))
    case ("GET", "/api/events"):
      reply(eventStream())
    case ("GET", "/api/frame.png"):
      frame(request, reply: reply)
    case ("GET", "/api/hit"):
      onWorker(request, reply: reply) { self.hit(request, renderer: $0) }
    case ("GET", "/api/files"), ("GET", "/api/templates"), ("GET", "/api/file"), ("GET", "/api/compare"),
      ("GET", "/api/compare/image"), ("POST", "/api/accept"):
      listings.addOperation { reply(self.answer(request)) }
    default:
      DispatchQueue.global().async { reply(self.answer(request)) }
    }
  }

  /// The answers that need no renderer, off the server's threads.
  func answer(_ request: HTTPRequest) -> HTTPResponse {
    switch (request.method, request.path) {
    case ("GET", "/api/templates"): return templates()
    case ("GET", "/api/template"): return withSession(request) { templateState($0) }
    case ("GET", "/api/trace"): return withSession(request) { trace(request, $0) }
    case ("GET", "/api/layer"): return withSession(request) { layerState(request, $0) }
    case ("GET", "/api/params"): return withSession(request) { parameters($0) }
    case ("POST", "/api/params"): return withSession(request) { setParameters(request, $0) }
    case ("POST", "/api/params/save"): return withSession(request) { saveParameters(request, $0) }
    case ("POST", "/api/export"): return withSession(request) { export(request, $0) }
    case ("GET", "/api/file"): return file(request)
    case ("GET", "/api/files"): return files(request)
    case ("GET", "/api/compare"): return compare(request)
    case ("GET", "/api/compare/image"): return compareImage(request)
    case ("POST", "/api/accept"): return accept(request)
    case (let method, let path):
      let known = [
        "/api/templates", "/api/template", "/api/trace", "/api/layer", "/api/params", "/api/params/save",
        "/api/export", "/api/file", "/api/files", "/api/compare", "/api/compare/image", "/api/accept", "/api/events",
        "/api/frame.png", "/api/hit",
      ]
      if known.contains(path) {
        return StudioResponse.error(405, "\(quoted: method) is not allowed on \(quoted: path)")
      }
      return StudioResponse.error(404, "no such endpoint \(quoted: path)")
    }
  }

  /// The security checks every request passes (docs/studio.md, "Server"): the `Host` header
  /// names this server (no DNS rebinding), the token is right, a POST carries it in
  /// `X-Flick-Token` too. The token comes in the query (`token=`) alone, never in a cookie: a
  /// browser sends a cookie of 127.0.0.1 to every port of 127.0.0.1, so any other local server
  /// the user visits would receive it. The page's own files (`/studio/…`, compiled into
  /// `flick`, the same for everyone) need only the `Host` check, as the page loads them by
  /// plain URLs.
  func refusal(_ request: HTTPRequest) -> HTTPResponse? {
    let host = request.header("host")?.lowercased() ?? ""
    guard allowedHosts.contains(host) else {
      return StudioResponse.error(403, "the Host header \(quoted: host) is not this server's address")
    }
    if request.path.hasPrefix("/studio/") && (request.method == "GET" || request.method == "HEAD") { return nil }
    guard let given = request.argument("token") else {
      return StudioResponse.error(401, "the session token is missing (open the URL flick studio printed)")
    }
    guard Self.same(given, token) else { return StudioResponse.error(403, "the session token is wrong") }
    if request.method == "POST" {
      guard let header = request.header("x-flick-token"), Self.same(header, token) else {
        return StudioResponse.error(403, "a POST needs the session token in the X-Flick-Token header")
      }
    } else if request.method != "GET" && request.method != "HEAD" {
      return StudioResponse.error(405, "\(quoted: request.method) is not allowed")
    }
    return nil
  }

  /// `Host` values accepted: the loopback names and the listening address, with the port.
  var allowedHosts: Set<String> {
    let bound = options.host.contains(":") ? "[\(options.host)]" : options.host
    return Set(["127.0.0.1", "localhost", "[::1]", bound.lowercased()].map { "\($0):\(port)" })
  }

  /// Constant-time comparison of two tokens.
  static func same(_ a: String, _ b: String) -> Bool {
    let x = Array(a.utf8)
    let y = Array(b.utf8)
    guard x.count == y.count else { return false }
    return zip(x, y).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
  }

  /// A page file with the page's CSP (and not the API's, which would sandbox it).
  func pageFile(_ name: String) -> HTTPResponse {
    guard let data = page.files[name] else { return StudioResponse.error(404, "no page file \(quoted: name)") }
    var response = HTTPResponse(contentType: StudioPage.contentType(name), data: data)
    response.headers += StudioResponse.commonHeaders
    response.add("Content-Security-Policy", StudioPage.contentSecurityPolicy)
    response.add("Referrer-Policy", "no-referrer")
    response.add("X-Frame-Options", "DENY")
    return response
  }

  /// A new event stream (`text/event-stream`), announced with a first comment.
  func eventStream() -> HTTPResponse {
    let stream = EventStream()
    stream.send(raw: ": flick studio\n\n")
    events.withLock { $0.append(stream) }
    var response = HTTPResponse(
      status: 200, headers: [("Content-Type", "text/event-stream"), ("X-Accel-Buffering", "no")],
      body: .events(stream))
    response.headers += StudioResponse.apiHeaders
    return response
  }

  /// Runs `body` with the session of `template=`, or answers why there is none.
  func withSession(_ request: HTTPRequest, _ body: (TemplateSession) -> HTTPResponse) -> HTTPResponse {
    guard let name = request.argument("template") else {
      return StudioResponse.error(400, "the request needs template=NAME")
    }
    switch session(name) {
    case .success(let session): return body(session)
    case .failure(let refusal): return refusal.response
    }
  }

  /// Runs `body` on a render worker (no client superseding).
  func onWorker(
    _ request: HTTPRequest, reply: @escaping @Sendable (HTTPResponse) -> Void,
    _ body: @escaping @Sendable (_ renderer: (Double) -> FrameRenderer) -> HTTPResponse
  ) {
    pool.submit(client: nil, sequence: 0, template: request.argument("template"), work: body, reply: reply)
  }

  /// `GET /api/templates`.
  func templates() -> HTTPResponse {
    StudioResponse.json(TemplatesBody(folder: folderName, templates: templateList()))
  }

  /// The opened folder's name, as the page shows it.
  var folderName: String { URL(fileURLWithPath: workspace.folder).lastPathComponent }

  /// The templates `GET /api/templates` lists.
  func templateList() -> [TemplatesBody.Entry] {
    workspace.templates().map { TemplatesBody.Entry(name: $0.name, title: $0.title) }
  }

  /// Pushes `templates` (the list as `GET /api/templates` answers it) when a burst of changed
  /// files that may add, remove or rename a template (a JSON5 or JSON file, or a folder) changed
  /// the list.
  func templatesChanged(_ changed: Set<String>) {
    let mayList = changed.contains { path in
      let ext = URL(fileURLWithPath: path).pathExtension.lowercased()
      return ext.isEmpty || ext == "json5" || ext == "json"
    }
    guard mayList else { return }
    let now = templateList()
    let changed = listed.withLock { list -> Bool in
      defer { list = now }
      return list != now
    }
    if changed { broadcast("templates", TemplatesBody(folder: folderName, templates: now)) }
  }

  /// `GET /api/file?path=REL`: a file of the opened folder, never a live page
  /// (``StudioResponse/folderFile(_:name:)``).
  func file(_ request: HTTPRequest) -> HTTPResponse {
    guard let relative = request.argument("path") else {
      return StudioResponse.error(400, "the request needs path=REL")
    }
    switch workspace.resolve(relative) {
    case .failure(let refusal): return refusal.response
    case .success(let path):
      // Read once through the bounded reader: a FIFO cannot hold the request, and nothing larger
      // than the largest picture a template may draw is read.
      do {
        let bytes = try AssetFile.read(path, maximumBytes: AssetFile.maximumImageBytes, kind: "a folder file")
        return StudioResponse.folderFile(Data(bytes), name: path)
      } catch {
        switch error.cause {
        case .notRegular(isFolder: true): return StudioResponse.error(404, "\(quoted: relative) is a folder")
        case .tooLarge: return StudioResponse.error(413, "\(quoted: relative): \(escaped: error.reason)")
        default: return StudioResponse.error(404, "cannot read \(quoted: relative)")
        }
      }
    }
  }
}
