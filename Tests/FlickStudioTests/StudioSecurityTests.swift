import FlickExpectations
import Foundation
import Testing

@testable import FlickStudio

/// The checks every request passes: the token, the Host header, the POST header, and the
/// confinement of every path to the opened folder.
@Suite struct StudioSecurityTests {
  @Test func aMissingTokenIs401AndAWrongOne403() throws {
    let h = try StudioHarness()
    try expectEqual(h.get("/api/templates", token: .some(nil)).status, 401)
    try expectEqual(h.get("/api/templates", token: "0123456789abcdef0123456789abcdef").status, 403)
    try expectEqual(h.get("/api/templates").status, 200)
    let page = try h.get("/")
    expectEqual(page.headers["content-security-policy"]?.contains("default-src 'self'"), true)
    expectEqual(try h.get("/api/templates").headers["cache-control"], "no-store")
    // No cookie: a browser sends a cookie of 127.0.0.1 to every port of 127.0.0.1, so any other
    // local server the user visited would receive the token. The page is not given one, and one
    // sent anyway is not a token.
    expectEqual(page.headers["set-cookie"], nil)
    for name in ["flick_studio", "token"] {
      let cookie = try h.get("/api/templates", token: .some(nil), headers: ["Cookie": "\(name)=\(h.token)"])
      expectEqual(cookie.status, 401, "Cookie \(name)")
    }
    try expectEqual(h.get("/", token: .some(nil)).status, 401)
    let head = try RawHTTP.request(
      port: h.port, method: "HEAD", target: "/api/templates?token=\(h.token)", host: "127.0.0.1:\(h.port)")
    expectEqual(head.status, 200)
    #expect(head.body.isEmpty)
  }

  /// The page's own files (compiled into `flick`, the same for everyone) load by plain URLs,
  /// without the token, but only under this server's `Host`; the API needs the token.
  @Test func thePagesFilesNeedOnlyTheHost() throws {
    let h = try StudioHarness()
    for file in ["/studio/app.js", "/studio/api.js", "/studio/app.css"] {
      let plain = try h.get(file, token: .some(nil))
      expectEqual(plain.status, 200, "\(file)")
      expectEqual(plain.headers["content-security-policy"]?.contains("default-src 'self'"), true, "\(file)")
      try expectEqual(h.get(file, token: .some(nil), host: "evil.example:\(h.port)").status, 403, "\(file)")
    }
    try expectEqual(h.get("/studio/missing.js", token: .some(nil)).status, 404)
    for refused in ["/api/templates", "/api/events", "/api/frame.png?template=pulse.json5", "/index.html"] {
      try expectEqual(h.get(refused, token: .some(nil)).status, 401, "\(refused)")
    }
  }

  /// A request refused by its head (no token, another Host, a body declared over 1 MiB) is
  /// answered before its body is read: a client that declares a large body and sends a few bytes
  /// of it holds no buffer and no worker. The answer comes while the rest of the body is still
  /// missing (the client waits at most its 60 s read timeout, and then the test fails).
  @Test func aRefusedRequestIsAnsweredBeforeItsBody() throws {
    let h = try StudioHarness()
    let cases: [(target: String, host: String, headers: String, status: Int)] = [
      ("/api/params?template=pulse.json5", "127.0.0.1:\(h.port)", "", 401),
      ("/api/params?template=pulse.json5&token=\(h.token)", "evil.example:\(h.port)", "", 403),
      (
        "/api/params?template=pulse.json5&token=\(h.token)", "127.0.0.1:\(h.port)", "X-Flick-Token: \(h.token)\r\n",
        413
      ),
    ]
    for item in cases {
      let fd = try RawHTTP.connect(port: h.port)
      defer { close(fd) }
      let head =
        "POST \(item.target) HTTP/1.1\r\nHost: \(item.host)\r\n\(item.headers)Content-Length: 1000000000\r\n\r\n{\"values\":"
      let bytes = Array(head.utf8)
      expectEqual(write(fd, bytes, bytes.count), bytes.count)
      let answer = try RawHTTP.response(fd)
      expectEqual(answer.status, item.status, "\(item.target) Host \(item.host): \(answer.text)")
    }
    // A request that passes is still read whole and answered.
    let body = ##"{"values": {"accent": "#22C55E"}}"##
    try expectEqual(h.post("/api/params?template=pulse.json5", json: body).status, 200)
  }

  /// The opened folder is untrusted (a pull request's checkout): its files are served sandboxed
  /// and, but for raster pictures, as downloads, never as live pages of the studio's origin, where
  /// a script would read the token from its own URL and call the API.
  @Test func filesOfTheFolderAreNeverLivePages() throws {
    let script = "<script>fetch('/api/templates' + location.search)</script>"
    let h = try StudioHarness(files: [
      "evil.svg": #"<svg xmlns="http://www.w3.org/2000/svg">\#(script)</svg>"#, "evil.html": script,
      "evil.xml": "<x/>", "evil.js": "alert(1)",
    ])
    let sandbox = "sandbox; default-src 'none'"
    for name in ["evil.svg", "evil.html", "evil.xml", "evil.js", "pulse.json5"] {
      let file = try h.get("/api/file?path=\(name)")
      expectEqual(file.status, 200, "\(name)")
      expectEqual(file.headers["content-security-policy"], sandbox, "\(name)")
      expectEqual(file.headers["content-disposition"], "attachment", "\(name)")
      expectEqual(file.headers["x-content-type-options"], "nosniff", "\(name)")
    }
    // A picture stays inline (the page may draw it in an <img>), sandboxed all the same.
    let picture = try h.get("/api/file?path=pic.png")
    expectEqual(picture.body, Data(StudioHarness.red))
    expectEqual(picture.headers["content-type"], "image/png")
    expectEqual(picture.headers["content-security-policy"], sandbox)
    expectEqual(picture.headers["content-disposition"], nil)
    // Every API answer is sandboxed, errors too; the page keeps its own policy.
    for path in ["/api/templates", "/api/file?path=missing.svg", "/api/frame.png?template=pulse.json5&t=0"] {
      try expectEqual(h.get(path).headers["content-security-policy"], sandbox, "\(path)")
    }
    try expectEqual(h.get("/").headers["content-security-policy"], StudioPage.contentSecurityPolicy)
    try expectEqual(h.get("/studio/app.js").headers["content-security-policy"], StudioPage.contentSecurityPolicy)
  }

  @Test func anotherHostIs403() throws {
    let h = try StudioHarness()
    for host in ["evil.example:\(h.port)", "127.0.0.1:1", "127.0.0.1", "localhost.evil.example:\(h.port)"] {
      try expectEqual(h.get("/api/templates", host: host).status, 403, "Host: \(host)")
    }
    try expectEqual(h.get("/api/templates", host: "localhost:\(h.port)").status, 200)
  }

  @Test func postsNeedTheTokenHeader() throws {
    let h = try StudioHarness()
    let body = ##"{"values": {"accent": "#22C55E"}}"##
    try expectEqual(h.post("/api/params?template=pulse.json5", json: body, header: "wrong").status, 403)
    try expectEqual(h.post("/api/params?template=pulse.json5", json: body).status, 200)
  }

  @Test(arguments: [
    "..%2F..%2Fetc%2Fpasswd", "%2e%2e/%2e%2e/etc/passwd", "%2E%2E%2Fsecret.txt", "sub/..%2F..%2Fsecret.txt",
    "%2Fetc%2Fpasswd", "/etc/passwd", "pic.png%00.json5", "..\\secret.txt",
  ])
  func traversalIsRefused(_ path: String) throws {
    let h = try StudioHarness()
    try Data("secret".utf8).write(to: h.folder.deletingLastPathComponent().appendingPathComponent("secret.txt"))
    defer {
      try? FileManager.default.removeItem(at: h.folder.deletingLastPathComponent().appendingPathComponent("secret.txt"))
    }
    for endpoint in ["/api/file?path=", "/api/template?template=", "/api/frame.png?template="] {
      let response = try h.get(endpoint + path)
      expectEqual(response.status, 403, "\(endpoint)\(path) → \(response.status) \(response.text)")
      #expect(!response.text.contains("secret") || response.text.contains("secret.txt"))
    }
  }

  @Test func aSymlinkOutOfTheFolderIsRefused() throws {
    let h = try StudioHarness()
    let outside = try FileManager.default.url(
      for: .itemReplacementDirectory, in: .userDomainMask, appropriateFor: h.folder, create: true)
    defer { try? FileManager.default.removeItem(at: outside) }
    try Data("outside".utf8).write(to: outside.appendingPathComponent("o.txt"))
    try FileManager.default.createSymbolicLink(
      atPath: h.folder.appendingPathComponent("link").path, withDestinationPath: outside.path)
    let response = try h.get("/api/file?path=link/o.txt")
    expectEqual(response.status, 403)
    #expect(!response.text.contains("outside\""))
    // Inside the folder, files are served; missing ones are 404.
    try expectEqual(h.get("/api/file?path=pic.png").body, Data(StudioHarness.red))
    try expectEqual(h.get("/api/file?path=nothing.png").status, 404)
  }
}
