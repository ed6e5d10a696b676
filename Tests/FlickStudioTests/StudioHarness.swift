import FlickStudio
import FlickTestSupport
import FlickVideo
import Foundation

/// A studio started in-process on port 0 over a copy of the fixtures, for one test.
final class StudioHarness: Sendable {
  let folder: URL
  let studio: Studio

  /// The pixels of the fixture's picture at first (a solid red square).
  static let red = TinyPNG.solid(width: 4, height: 4, rgb: (255, 0, 0))

  /// - Parameters:
  ///   - files: More files (name, contents) written before the studio starts (a file written
  ///     later may be reported by the watcher in the middle of a test).
  ///   - data: More files given as bytes, written the same way (with their folders).
  ///   - exportLimits: The caps exports are checked against (`flick studio --max-work`, …).
  init(
    workers: Int = 2, files: [String: String] = [:], data: [String: Data] = [:], frameTimeout: Double = 120,
    exportLimits: RenderLimits = RenderLimits()
  ) throws {
    folder = try ProcessRunner.temporaryDirectory(prefix: "flick-studio")
    let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
    for name in try FileManager.default.contentsOfDirectory(atPath: fixtures.path) {
      try FileManager.default.copyItem(
        at: fixtures.appendingPathComponent(name), to: folder.appendingPathComponent(name))
    }
    try Data(Self.red).write(to: folder.appendingPathComponent("pic.png"))
    for (name, text) in files { try Data(text.utf8).write(to: folder.appendingPathComponent(name)) }
    for (name, bytes) in data {
      let file = folder.appendingPathComponent(name)
      try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
      try bytes.write(to: file)
    }
    var options = Studio.Options(folder: folder.path)
    options.workers = workers
    options.frameTimeout = frameTimeout
    options.exportLimits = exportLimits
    studio = try Studio(options: options)
  }

  deinit {
    studio.stop()
    try? FileManager.default.removeItem(at: folder)
  }

  var port: Int { studio.port }
  var token: String { studio.token }

  /// `GET path` with the token in the query (unless `token` is nil) and `Host: 127.0.0.1:PORT`.
  func get(_ path: String, token: String?? = .none, host: String? = nil, headers: [String: String] = [:]) throws
    -> RawHTTP.Response
  {
    let given: String? = token ?? self.token
    var target = path
    if let given { target += (path.contains("?") ? "&" : "?") + "token=" + given }
    return try RawHTTP.request(
      port: port, method: "GET", target: target, host: host ?? "127.0.0.1:\(port)", headers: headers)
  }

  /// `POST path` with a JSON body, the token in the query and in `X-Flick-Token`.
  func post(_ path: String, json: String, header: String? = nil) throws -> RawHTTP.Response {
    let target = path + (path.contains("?") ? "&" : "?") + "token=" + token
    return try RawHTTP.request(
      port: port, method: "POST", target: target, host: "127.0.0.1:\(port)",
      headers: ["X-Flick-Token": header ?? token, "Content-Type": "application/json"], body: Data(json.utf8))
  }

  /// Writes `text` over the file `name` the way editors save: a temporary file renamed over it.
  func save(_ name: String, _ data: Data) throws {
    let target = folder.appendingPathComponent(name)
    let temporary = folder.appendingPathComponent(".\(name).swp")
    try data.write(to: temporary)
    guard rename(temporary.path, target.path) == 0 else { throw CocoaError(.fileWriteUnknown) }
  }

  func text(_ name: String) throws -> String {
    try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
  }
}
