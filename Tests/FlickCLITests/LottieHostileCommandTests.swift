import FlickExpectations
import FlickTestSupport
import Foundation
import Testing

/// The Lottie bypasses of issue 29 through the real `flick` binary: each is refused with exit 2
/// and a located message before rlottie sees the file, and `flick info` says so too.
@Suite struct LottieHostileCommandTests {
  static let ks =
    #"{"o":{"a":0,"k":100},"r":{"a":0,"k":0},"p":{"a":0,"k":[32,32,0]},"a":{"a":0,"k":[32,32,0]},"s":{"a":0,"k":[100,100,100]}}"#

  static func imageLottie(assets: String, top: String = "") -> String {
    #"{"v":"5.7.0","fr":10,"ip":0,"op":10,"w":64,"h":64,"assets":"# + assets + top
      + #","layers":[{"ddd":0,"ind":1,"ty":2,"refId":"img","ks":"# + ks + #","ip":0,"op":10,"st":0}]}"#
  }

  /// `project/` with the Lottie file, `outside/victim.png` beside it.
  static func place(_ lottie: (URL) -> String) throws -> (root: URL, file: String) {
    let root = try CLITests.temporaryDirectory()
    let project = root.appendingPathComponent("project")
    let outside = root.appendingPathComponent("outside")
    try FileManager.default.createDirectory(at: project, withIntermediateDirectories: true)
    try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
    try Data(HostileLottie.victimPNG).write(to: outside.appendingPathComponent("victim.png"))
    let file = project.appendingPathComponent("a.json").path
    try Data(lottie(outside).utf8).write(to: URL(fileURLWithPath: file))
    return (root, file)
  }

  static func expectRefused(_ file: String, _ message: String, extra: [String] = []) throws {
    let out = URL(fileURLWithPath: file).deletingLastPathComponent().appendingPathComponent("out.png").path
    for args in [["still", file, "-o", out] + extra, ["info", file] + extra] {
      let r = try CLITests.run(CLITests.flick, args)
      expectEqual(r.status, 2, "\(args[0]): \(r.stderr)")
      #expect(r.stderr.hasPrefix("flick: Lottie file \(file):1:"), "\(args[0]): \(r.stderr)")
      #expect(r.stderr.contains(message), "\(args[0]): \(r.stderr)")
      #expect(!FileManager.default.fileExists(atPath: out))
    }
  }

  @Test func aDuplicateAssetsKey() throws {
    let green = "data:image/png;base64," + TinyPNG.base64(TinyPNG.solid(width: 4, height: 4, rgb: (0, 200, 0)))
    let (root, file) = try Self.place { outside in
      Self.imageLottie(
        assets: #"[{"id":"img","w":64,"h":64,"u":"","p":""# + green + #"","e":1}]"#,
        top: #","assets":[{"id":"img","w":64,"h":64,"u":""# + outside.path + #"/","p":"victim.png","e":0}]"#)
    }
    defer { try? FileManager.default.removeItem(at: root) }
    try Self.expectRefused(file, "assets: duplicate key")
  }

  @Test func aClimbingUWithADataName() throws {
    let (root, file) = try Self.place { _ in
      Self.imageLottie(assets: #"[{"id":"img","w":64,"h":64,"u":"/../../outside/","p":"data:x.png","e":0}]"#)
    }
    defer { try? FileManager.default.removeItem(at: root) }
    try FileManager.default.createSymbolicLink(
      atPath: root.appendingPathComponent("outside/data:x.png").path, withDestinationPath: "victim.png")
    try Self.expectRefused(file, "assets[0].p: an embedded image must be a base64 data: URI")
  }

  @Test func aSymlinkNamedLikeAnEmbeddedImage() throws {
    let (root, file) = try Self.place { _ in
      Self.imageLottie(assets: #"[{"id":"img","w":64,"h":64,"u":"","p":"data:v.png","e":0}]"#)
    }
    defer { try? FileManager.default.removeItem(at: root) }
    try FileManager.default.createSymbolicLink(
      atPath: root.appendingPathComponent("project/data:v.png").path, withDestinationPath: "../outside/victim.png")
    try Self.expectRefused(file, "assets[0].p: an embedded image must be a base64 data: URI")
  }

  @Test func aHugeEmbeddedImageUnderMaxPixels() throws {
    let bomb = "data:image/png;base64," + TinyPNG.base64(TinyPNG.header(width: 20000, height: 20000))
    let (root, file) = try Self.place { _ in
      Self.imageLottie(assets: #"[{"id":"img","w":64,"h":64,"u":"","p":""# + bomb + #"","e":1}]"#)
    }
    defer { try? FileManager.default.removeItem(at: root) }
    try Self.expectRefused(
      file, "the embedded image is 20000×20000 pixels, more than the cap of 1000000",
      extra: ["--max-pixels", "1000000"])
  }

  @Test func aRepeaterOfTenMillionCopies() throws {
    let (root, file) = try Self.place { _ in
      #"{"v":"5.7.0","fr":10,"ip":0,"op":10,"w":64,"h":64,"layers":[{"ty":4,"ks":"# + Self.ks
        + #","ip":0,"op":10,"st":0,"shapes":[{"ty":"rc","s":{"a":0,"k":[4,4]},"p":{"a":0,"k":[0,0]}},"#
        + #"{"ty":"rp","c":{"a":0,"k":1e7},"o":{"a":0,"k":0},"tr":{"ty":"tr"}}]}]}"#
    }
    defer { try? FileManager.default.removeItem(at: root) }
    try Self.expectRefused(file, "layers[0].shapes[1].c: a repeater of 10000000 copies")
  }

  @Test func infoSaysAnExternalImageIsNotDrawn() throws {
    let (root, file) = try Self.place { outside in
      Self.imageLottie(assets: #"[{"id":"img","w":64,"h":64,"u":""# + outside.path + #"/","p":"victim.png","e":0}]"#)
    }
    defer { try? FileManager.default.removeItem(at: root) }
    let info = try CLITests.run(CLITests.flick, ["info", file])
    expectEqual(info.status, 0, "\(info.stderr)")
    #expect(info.stdout.contains("not drawn by rlottie"))
    #expect(info.stdout.contains("an external image file 'victim.png'"))
    #expect(!info.stdout.contains("every feature used is drawn"))
    let still = try CLITests.run(CLITests.flick, ["still", file, "-o", root.appendingPathComponent("o.png").path])
    expectEqual(still.status, 2, "\(still.stderr)")
    #expect(still.stderr.contains("external image file"), "\(still.stderr)")
  }
}
