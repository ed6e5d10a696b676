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
    // The cookie the page gets works as the token.
    let page = try h.get("/")
    expectEqual(page.headers["set-cookie"]?.contains("flick_studio=\(h.token)"), true)
    expectEqual(page.headers["content-security-policy"]?.contains("default-src 'self'"), true)
    let cookie = try h.get("/api/templates", token: .some(nil), headers: ["Cookie": "flick_studio=\(h.token)"])
    expectEqual(cookie.status, 200)
    expectEqual(cookie.headers["cache-control"], "no-store")
    let head = try RawHTTP.request(
      port: h.port, method: "HEAD", target: "/api/templates?token=\(h.token)", host: "127.0.0.1:\(h.port)")
    expectEqual(head.status, 200)
    #expect(head.body.isEmpty)
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
