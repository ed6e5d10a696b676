import FlickExpectations
import FlickTestSupport
import Foundation
import Testing

@testable import FlickStudio

/// `/api/files`: the opened folder's images and fonts for the parameters form's pickers, under
/// the confinement rules of every path.
@Suite struct StudioFilesTests {
  struct Body: Decodable {
    var kind: String
    var folder: String
    var files: [String]
  }

  @Test func imagesAndFontsOfTheFolderAreListedAndNothingOutside() throws {
    let h = try StudioHarness()
    let outside = try ProcessRunner.temporaryDirectory(prefix: "flick-studio-outside")
    defer { try? FileManager.default.removeItem(at: outside) }
    let files = FileManager.default
    try files.createDirectory(at: h.folder.appendingPathComponent("art/fonts"), withIntermediateDirectories: true)
    try files.createDirectory(at: h.folder.appendingPathComponent(".hidden"), withIntermediateDirectories: true)
    for name in ["art/cover.JPG", "art/logo.svg", "art/fonts/Brand.ttf", "art/notes.txt", ".hidden/x.png"] {
      try Data("x".utf8).write(to: h.folder.appendingPathComponent(name))
    }
    try Data("x".utf8).write(to: outside.appendingPathComponent("secret.png"))
    try Data("x".utf8).write(to: outside.appendingPathComponent("secret.ttf"))
    // Links: to a file inside (listed), to files and a folder outside (not listed, not entered).
    try files.createSymbolicLink(
      atPath: h.folder.appendingPathComponent("alias.png").path, withDestinationPath: "pic.png")
    try files.createSymbolicLink(
      atPath: h.folder.appendingPathComponent("escape.png").path,
      withDestinationPath: outside.appendingPathComponent("secret.png").path)
    try files.createSymbolicLink(
      atPath: h.folder.appendingPathComponent("elsewhere").path, withDestinationPath: outside.path)

    let images = try JSONDecoder().decode(Body.self, from: h.get("/api/files?kind=image").body)
    expectEqual(images.kind, "image")
    expectEqual(images.folder, "")
    expectEqual(images.files, ["alias.png", "art/cover.JPG", "art/logo.svg", "pic.png"])
    let fonts = try JSONDecoder().decode(Body.self, from: h.get("/api/files?kind=font").body)
    expectEqual(fonts.files, ["art/fonts/Brand.ttf"])
    let sub = try JSONDecoder().decode(Body.self, from: h.get("/api/files?kind=image&folder=art").body)
    expectEqual(sub.folder, "art")
    expectEqual(sub.files, ["art/cover.JPG", "art/logo.svg"])

    // Refused: traversal raw and percent-encoded, absolute, through a link out, no token.
    for target in [
      "/api/files?kind=image&folder=..", "/api/files?kind=image&folder=%2e%2e",
      "/api/files?kind=image&folder=art%2F..%2F..", "/api/files?kind=image&folder=%2Ftmp",
      "/api/files?kind=image&folder=elsewhere", "/api/files?kind=font&folder=art/../..",
    ] {
      let response = try h.get(target)
      expectEqual(response.status, 403, "\(target): \(response.status) \(response.text)")
      #expect(!response.text.contains("secret"), "\(target)")
    }
    try expectEqual(h.get("/api/files?kind=image", token: .some(nil)).status, 401)
    try expectEqual(h.get("/api/files?kind=video").status, 400)
    try expectEqual(h.get("/api/files?kind=image&folder=pic.png").status, 404)
  }

  @Test func pickedFilesAreReadRelativeToTheOpenedFolder() throws {
    // A template in a subfolder with an image parameter: values are named relative to the
    // opened folder (as the picker lists them), whatever the process's current directory.
    let template = """
      { flick: 1, parameters: { photo: { type: "image", default: "a.png" } },
        canvas: { width: 8, height: 8, fps: 1, duration: 1 },
        layers: [{ id: "p", size: [8, 8], position: [4, 4], contents: "$photo" }] }
      """
    let h = try StudioHarness()
    let sub = h.folder.appendingPathComponent("sub")
    try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
    try Data(template.utf8).write(to: sub.appendingPathComponent("t.json5"))
    try Data(TinyPNG.solid(width: 8, height: 8, rgb: (255, 0, 0))).write(to: sub.appendingPathComponent("a.png"))
    let state = try h.get("/api/template?template=sub/t.json5").text
    #expect(state.contains(#""default":"sub/a.png""#), "\(state)")
    #expect(state.contains(#""value":"sub/a.png""#), "\(state)")
    try Data(TinyPNG.solid(width: 8, height: 8, rgb: (0, 0, 255))).write(to: sub.appendingPathComponent("b.png"))
    let listed = try JSONDecoder().decode(Body.self, from: h.get("/api/files?kind=image&folder=sub").body)
    expectEqual(listed.files, ["sub/a.png", "sub/b.png"])
    let red = try h.get("/api/frame.png?template=sub/t.json5&t=0")
    let set = try h.post("/api/params?template=sub/t.json5", json: #"{"values": {"photo": "sub/b.png"}}"#)
    expectEqual(set.status, 200, "\(set.text)")
    let after = try h.get("/api/template?template=sub/t.json5").text
    #expect(after.contains(#""value":"sub/b.png""#), "\(after)")
    let blue = try h.get("/api/frame.png?template=sub/t.json5&t=0")
    expectEqual(blue.status, 200, "\(blue.text)")
    expectNotEqual(blue.body, red.body, "\(blue.text)")
    // Outside the template's folder: refused as the command refuses it.
    let outside = try h.post("/api/params?template=sub/t.json5", json: #"{"values": {"photo": "pic.png"}}"#)
    expectEqual(outside.status, 400, "\(outside.text)")
    #expect(outside.text.contains("photo"), "\(outside.text)")
  }

  /// `/api/file` reads a folder file once through the bounded reader: a file over the largest
  /// picture a template may draw (256 MiB) is refused by its size (413) without being read (it
  /// was read whole and sent), a FIFO is refused at once, a folder keeps its 404.
  @Test func aFolderFileOverTheCapOrAFIFOIsRefusedNotRead() throws {
    let h = try StudioHarness()
    let big = h.folder.appendingPathComponent("big.png").path
    try FIFOGuard.sparseFile(big, bytes: (256 << 20) + 1)
    let fifo = h.folder.appendingPathComponent("pipe.png").path
    try FIFOGuard.make(fifo)
    try FileManager.default.createDirectory(
      at: h.folder.appendingPathComponent("art"), withIntermediateDirectories: true)
    let started = Date()
    let tooLarge = try h.get("/api/file?path=big.png")
    expectEqual(tooLarge.status, 413)
    #expect(
      String(decoding: tooLarge.body, as: UTF8.self).contains("the file is 268435457 bytes, more than the 256 MiB"),
      "\(String(decoding: tooLarge.body, as: UTF8.self))")
    #expect(Date().timeIntervalSince(started) < 5, "refused from fstat, not after reading")
    let run = FIFOGuard.ends(fifo: fifo) {
      guard try h.get("/api/file?path=pipe.png").status == 404 else { throw CocoaError(.fileReadUnknown) }
    }
    #expect(run.ended && !run.threw, "/api/file on a FIFO: \(run)")
    try expectEqual(h.get("/api/file?path=art").status, 404)
  }

  /// Saving params reads the file already at the path (to refuse overwriting a template) once
  /// through the bounded reader: a FIFO there is not a template and is not waited on; it is a file
  /// that exists, so the save asks for `overwrite`.
  @Test func savingParamsOverAFIFODoesNotWaitOnIt() throws {
    let h = try StudioHarness()
    let fifo = h.folder.appendingPathComponent("pipe.json5").path
    try FIFOGuard.make(fifo)
    let run = FIFOGuard.ends(fifo: fifo) {
      let saved = try h.post("/api/params/save?template=pulse.json5", json: #"{"path": "pipe.json5"}"#)
      guard saved.status == 409, saved.text.contains("exists") else { throw CocoaError(.fileReadUnknown) }
    }
    #expect(run.ended && !run.threw, "/api/params/save over a FIFO: \(run)")
  }
}
