import FlickExpectations
import FlickTestSupport
import Foundation
import Testing

@testable import FlickStudio

/// A file a compiled template reads, or a folder on its way, that becomes a symbolic link out of
/// the opened folder later (a branch checkout) is never read by the last good compile, which the
/// studio keeps drawing (and the recompile refuses it): pictures, SVG, Lottie and font files alike.
@Suite struct StudioAssetLinkTests {
  enum Kind: String, CaseIterable, Sendable {
    case png, svg, lottie, font

    /// The file the template reads, in a folder of its own.
    var asset: String { "art/asset." + (self == .lottie ? "json" : self == .font ? "ttf" : rawValue) }

    /// The layer drawing the asset.
    var layer: String {
      switch self {
      case .png, .svg: #"{ id: "a", size: [40, 40], position: [20, 20], contents: "\#(asset)" }"#
      case .lottie: #"{ id: "a", type: "lottie", source: "\#(asset)", size: [40, 40], position: [20, 20] }"#
      case .font:
        #"{ id: "a", type: "text", string: "Link", size: [40, 40], position: [20, 20], fontFamily: "Lnkswap Sns", "#
          + ##"fontSize: 20, textColor: "#FFFFFF" }"##
      }
    }

    var template: String {
      let fonts = self == .font ? #"fonts: ["\#(asset)"], "# : ""
      return """
        { flick: 1, \(fonts)canvas: { width: 40, height: 40, fps: 10, duration: 1, background: "#000000" },
          layers: [\(layer)] }
        """
    }

    /// The asset's bytes: `inside` the folder at first, the other version outside it.
    func bytes(inside: Bool) throws -> Data {
      let (rgb, hex) = (inside ? "1,0,0" : "0,0,1", inside ? "#FF0000" : "#0000FF")
      switch self {
      case .png: return Data(TinyPNG.solid(width: 4, height: 4, rgb: inside ? (255, 0, 0) : (0, 0, 255)))
      case .svg:
        return Data(
          #"<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><rect width="4" height="4" fill="\#(hex)"/></svg>"#
            .utf8)
      case .lottie:
        let ks =
          #"{"o":{"a":0,"k":100},"r":{"a":0,"k":0},"p":{"a":0,"k":[0,0,0]},"a":{"a":0,"k":[0,0,0]},"s":{"a":0,"k":[100,100,100]}}"#
        let shapes =
          #"{"ty":"rc","d":1,"s":{"a":0,"k":[64,64]},"p":{"a":0,"k":[32,32]},"r":{"a":0,"k":0}},"#
          + #"{"ty":"fl","c":{"a":0,"k":[\#(rgb),1]},"o":{"a":0,"k":100}}"#
        return Data(
          (#"{"v":"5.7.0","fr":10,"ip":0,"op":10,"w":64,"h":64,"assets":[],"layers":[{"ty":4,"ind":1,"ks":"#
            + ks + #","ip":0,"op":10,"st":0,"shapes":["# + shapes + "]}]}").utf8)
      case .font:
        return try RenamedFont.data(inside ? "DejaVuSans.ttf" : "DejaVuSans-Bold.ttf", renamed: "Lnkswap Sns")
      }
    }
  }

  /// The file itself, or the folder that holds it (`folder`), becomes a link to a file or folder
  /// outside, renamed over it as a checkout replaces it.
  @Test(arguments: Kind.allCases, [false, true])
  func anAssetSwappedForALinkOutIsNeverReadAgain(_ kind: Kind, folder: Bool) throws {
    let h = try StudioHarness(
      workers: 1, files: ["t.json5": kind.template], data: [kind.asset: try kind.bytes(inside: true)])
    let outside = try ProcessRunner.temporaryDirectory(prefix: "flick-studio-outside")
    defer { try? FileManager.default.removeItem(at: outside) }
    let before = try h.get("/api/frame.png?template=t.json5&t=0")
    expectEqual(before.status, 200, "\(before.text)")
    let events = try EventReader(port: h.port, token: h.token)

    try FileManager.default.createDirectory(
      at: outside.appendingPathComponent("art"), withIntermediateDirectories: true)
    try kind.bytes(inside: false).write(to: outside.appendingPathComponent(kind.asset))
    let replaced = folder ? "art" : kind.asset
    let link = h.folder.appendingPathComponent(".link")
    try FileManager.default.createSymbolicLink(
      atPath: link.path, withDestinationPath: outside.appendingPathComponent(replaced).path)
    if folder {
      try #require(
        rename(h.folder.appendingPathComponent("art").path, h.folder.appendingPathComponent(".art").path) == 0)
    }
    try #require(rename(link.path, h.folder.appendingPathComponent(replaced).path) == 0)
    // A folder on the way is no file the template reads: the template is saved as well (as a
    // checkout would change it), so it recompiles and the workers start over with new renderers.
    if folder { try h.save("t.json5", Data(kind.template.utf8)) }
    // The recompile refuses the file outside (after, for a folder, maybe one that misses it).
    var errors: [String] = []
    while !errors.contains(where: { $0.contains("outside") }) {
      let more = events.wait(for: "error", count: errors.count + 1).map(\.data)
      guard more.count > errors.count else { break }
      errors = more
    }
    #expect(errors.contains { $0.contains("outside") }, "\(errors)")
    #expect(try h.get("/api/template?template=t.json5").text.contains(#""ok":false"#))

    // The last good compile is still drawn, but never with the file outside.
    let after = try h.get("/api/frame.png?template=t.json5&t=0")
    expectNotEqual(after.status, 200, "the frame was drawn with the file outside the folder")
    #expect(after.text.contains("symbolic link"), "\(after.text)")
  }
}
