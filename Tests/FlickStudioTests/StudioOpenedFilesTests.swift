import FlickExpectations
import FlickTestSupport
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `flick studio TEMPLATE…` opens what `flick still TEMPLATE` loads: a symbolic link under its
/// own name, from its own folder; several templates from their deepest common folder.
@Suite struct StudioOpenedFilesTests {
  static let template = """
    { flick: 1, canvas: { width: 20, height: 20, fps: 10, duration: 1, background: "#000000" },
      layers: [{ id: "p", size: [10, 10], position: [10, 10], contents: "pics/a.png" }] }
    """

  /// A folder with `files` (relative names) holding ``template``, and `pics/a.png` beside each
  /// name in `pictures`.
  static func folder(templates: [String], pictures: [String]) throws -> URL {
    let root = try ProcessRunner.temporaryDirectory(prefix: "flick-studio-opened")
    for name in templates {
      let file = root.appendingPathComponent(name)
      try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(template.utf8).write(to: file)
    }
    for folder in pictures {
      let pics = root.appendingPathComponent(folder).appendingPathComponent("pics")
      try FileManager.default.createDirectory(at: pics, withIntermediateDirectories: true)
      try Data(StudioHarness.red).write(to: pics.appendingPathComponent("a.png"))
    }
    return root
  }

  static func stop(_ process: Process) {
    guard process.isRunning else { return }
    kill(process.processIdentifier, SIGTERM)
    process.waitUntilExit()
  }

  @Test func aLinkedTemplateOpensUnderItsNameFromItsFolder() throws {
    // real/T.json5 draws pics/a.png, which only the link's folder has (flick still sym/link.json5 draws it).
    let root = try Self.folder(templates: ["real/T.json5"], pictures: ["sym"])
    defer { try? FileManager.default.removeItem(at: root) }
    try FileManager.default.createSymbolicLink(
      atPath: root.appendingPathComponent("sym/link.json5").path, withDestinationPath: "../real/T.json5")
    let (process, url, _) = try StudioCommandTests.start(root, ["sym/link.json5"])
    defer { Self.stop(process) }
    let (port, token) = try StudioCommandTests.address(url)
    func get(_ target: String) throws -> RawHTTP.Response {
      try RawHTTP.request(port: port, method: "GET", target: target + "&token=\(token)", host: "127.0.0.1:\(port)")
    }
    #expect(try get("/api/templates?").text.contains(#""name":"link.json5""#))
    let state = try get("/api/template?template=link.json5")
    expectEqual(state.status, 200)
    #expect(state.text.contains(#""ok":true"#), "\(state.text)")
    let output = root.appendingPathComponent("still.png")
    let still = try ProcessRunner.run(
      ProcessRunner.flick(root: StudioFrameTests.root), ["still", "sym/link.json5", "-q", "-o", output.path],
      directory: root.path)
    expectEqual(still.status, 0)
    expectEqual(try get("/api/frame.png?template=link.json5&t=0").body, try Data(contentsOf: output))
    // An edit of the file the link leads to reloads it.
    let events = try EventReader(port: port, token: token)
    let wider = Self.template.replacingOccurrences(of: "width: 20", with: "width: 30")
    try Data(wider.utf8).write(to: root.appendingPathComponent("real/T.json5"))
    let reloads = events.wait(for: "reload", timeout: 10)
    expectEqual(reloads.first?.data.contains(#""template":"link.json5""#), true)
  }

  @Test(arguments: [["b/two.json5", "a/deep/one.json5"], ["a/deep/one.json5", "b/two.json5"]])
  func severalTemplatesOpenTheirDeepestCommonFolder(_ arguments: [String]) throws {
    let root = try Self.folder(templates: ["a/deep/one.json5", "b/two.json5"], pictures: ["a/deep", "b"])
    defer { try? FileManager.default.removeItem(at: root) }
    let (process, url, _) = try StudioCommandTests.start(root, arguments)
    defer { Self.stop(process) }
    let (port, token) = try StudioCommandTests.address(url)
    let list = try RawHTTP.request(
      port: port, method: "GET", target: "/api/templates?token=\(token)", host: "127.0.0.1:\(port)")
    #expect(list.text.contains(#""name":"a/deep/one.json5""#), "\(list.text)")
    #expect(list.text.contains(#""name":"b/two.json5""#), "\(list.text)")
    for name in ["a/deep/one.json5", "b/two.json5"] {
      let state = try RawHTTP.request(
        port: port, method: "GET", target: "/api/template?template=\(name)&token=\(token)",
        host: "127.0.0.1:\(port)")
      #expect(state.text.contains(#""ok":true"#), "\(state.text)")
    }
  }
}
