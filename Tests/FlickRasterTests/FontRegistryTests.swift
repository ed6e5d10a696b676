import FlickExpectations
import FlickMotion
@testable import FlickRaster
import FlickScene
import FlickTestSupport
import Foundation
import Testing

/// Font files registered at render time: a copy of DejaVu Serif whose family is renamed (so
/// fontconfig cannot already know it) must draw exactly like the installed DejaVu Serif.
@Suite struct FontRegistryTests {
  static let dejaVuSerif = "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf"

  /// A copy of DejaVu Serif in a fresh temporary folder whose family is `family` (12 letters,
  /// the length of "DejaVu Serif", so the name table keeps its layout).
  static func renamedSerif(family: String) throws -> String {
    precondition(family.utf8.count == 12)
    var data = try Data(contentsOf: URL(fileURLWithPath: dejaVuSerif))
    func replace(_ old: [UInt8], _ new: [UInt8]) {
      var start = data.startIndex
      while let r = data[start...].firstRange(of: old) {
        data.replaceSubrange(r, with: new)
        start = r.upperBound
      }
    }
    let old = "DejaVu Serif"
    replace(Array(old.utf8), Array(family.utf8))
    replace(
      Array(old.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }),
      Array(family.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }))
    let folder = try ProcessRunner.temporaryDirectory(prefix: "flick-fonts")
    let url = folder.appendingPathComponent("Renamed.ttf")
    try data.write(to: url)
    return url.path
  }

  static func tree(family: String, fontFiles: [String] = []) -> RenderTree {
    let label = Layer(
      id: "label", bounds: Rect(x: 0, y: 0, width: 180, height: 40), position: Point(x: 100, y: 30),
      content: .text(TextContent(string: "Quartz glyph", fontFamily: family, fontSize: 24, textColor: .black)))
    return RenderTree(
      size: Size(width: 200, height: 60), backgroundColor: .white, layers: [label], time: 0, fontFiles: fontFiles)
  }

  @Test func fontFileRegisteredAfterTextWasDrawnRendersItsFamily() throws {
    let file = try Self.renamedSerif(family: "Zyxwvu Serif")
    // Text is laid out first, on this thread's default map and on a private map, so both have
    // cached fontconfig's font list before the file exists for it.
    let renderer = Renderer()
    let frameRenderer = FrameRenderer()
    let installed = try renderer.render(Self.tree(family: "DejaVu Serif"))
    _ = try frameRenderer.render(Self.tree(family: "DejaVu Sans"))
    #expect(throws: RasterError.self) { try renderer.render(Self.tree(family: "Zyxwvu Serif")) }

    let fromFile = try renderer.render(Self.tree(family: "Zyxwvu Serif", fontFiles: [file]))
    let fromFileCached = try frameRenderer.render(Self.tree(family: "Zyxwvu Serif", fontFiles: [file]))
    let sans = try renderer.render(Self.tree(family: "DejaVu Sans"))
    // Booleans, not arrays, so a failure does not print every pixel.
    let sameAsInstalled = fromFile.pixels == installed.pixels
    let cachedSameAsInstalled = fromFileCached.pixels == installed.pixels
    let sansDiffers = sans.pixels != installed.pixels
    #expect(sameAsInstalled, "the registered file did not draw as DejaVu Serif")
    #expect(cachedSameAsInstalled, "a FrameRenderer made before registration did not see the file")
    #expect(sansDiffers)
  }

  @Test func registeringWhileOtherThreadsLayOutTextChangesNothingForThem() throws {
    let files = try ["Ponmlk Serif", "Ponmlj Serif", "Ponmli Serif"].map { try Self.renamedSerif(family: $0) }
    let reference = try Renderer().render(Self.tree(family: "DejaVu Sans"))
    let same = Locked(true)
    DispatchQueue.concurrentPerform(iterations: 6) { i in
      if i < files.count {
        _ = try? FontRegistry.register(files[i])
      } else {
        let renderer = FrameRenderer()
        for _ in 0..<10 {
          let frame = try? renderer.render(Self.tree(family: "DejaVu Sans"))
          if frame?.pixels != reference.pixels { same.withLock { $0 = false } }
        }
      }
    }
    #expect(same.withLock { $0 })
    try expectEqual(FontRegistry.register(files[2]), ["Ponmli Serif"])
  }

  @Test func registrationIsIdempotentAndNamesTheFamilies() throws {
    let file = try Self.renamedSerif(family: "Qwerty Serif")
    try expectEqual(FontRegistry.register(file), ["Qwerty Serif"])
    try expectEqual(FontRegistry.register(file), ["Qwerty Serif"])
    try expectEqual(FontRegistry.register(Self.dejaVuSerif), ["DejaVu Serif"])
    try Renderer().checkResources(of: Self.tree(family: "Qwerty Serif"))
  }

  @Test func missingAndCorruptFontFilesNameThePath() throws {
    let missing = "/nonexistent/flick/Missing.ttf"
    #expect(throws: RasterError.unreadableFont(path: missing, reason: "no such file")) {
      try Renderer().render(Self.tree(family: "DejaVu Sans", fontFiles: [missing]))
    }
    let corrupt = FileManager.default.temporaryDirectory.appendingPathComponent(
      "flick-corrupt-\(UUID().uuidString).ttf")
    try Data("not a font".utf8).write(to: corrupt)
    defer { try? FileManager.default.removeItem(at: corrupt) }
    do {
      try Renderer().checkResources(of: Self.tree(family: "DejaVu Sans", fontFiles: [corrupt.path]))
      Issue.record("a corrupt font file was accepted")
    } catch {
      #expect(error.description.hasPrefix("cannot load font file \(corrupt.path): "))
    }
  }

  @Test func registeringManyFilesInstallsOneConfiguration() throws {
    // 40 names of one tiny font: each is a file of its own to fontconfig.
    let folder = try ProcessRunner.temporaryDirectory(prefix: "flick-fonts")
    let font = folder.appendingPathComponent("Tiny.ttf")
    try Data(HostileFont.tiny(family: "Manymany Tiny")).write(to: font)
    let files = try (0..<40).map { i in
      let link = folder.appendingPathComponent("t\(i).ttf")
      try FileManager.default.linkItem(at: font, to: link)
      return link.path
    }
    let before = FontRegistry.generation
    try FontRegistry.register(files)
    // One configuration for the 40 files (a configuration per file scanned every file registered
    // so far again: n² scans); other tests registering meanwhile may add a few of their own.
    let installed = FontRegistry.generation - before
    #expect(installed >= 1 && installed < files.count, "\(installed) configurations for \(files.count) files")
    try expectEqual(FontRegistry.register(files[39]), ["Manymany Tiny"])
    #expect(FontRegistry.registeredFamilies.contains("manymany tiny"))
  }

  @Test func aFontFileOverTheSizeCapIsRefusedBeforeFontconfigReadsIt() throws {
    // What `flick studio` registers again when a template's font file grows after its compile.
    let folder = try ProcessRunner.temporaryDirectory(prefix: "flick-fonts")
    let path = folder.appendingPathComponent("Big.ttf").path
    try Data(HostileFont.tiny(family: "Bigbig Sans")).write(to: URL(fileURLWithPath: path))
    #expect(truncate(path, off_t(FontFile.maximumBytes + 1)) == 0)
    do {
      try FontRegistry.register(path)
      Issue.record("a font file over the size cap was registered")
    } catch {
      #expect(error.description.contains("more than the 256 MiB a font file may be"), "\(error)")
    }
  }
}
