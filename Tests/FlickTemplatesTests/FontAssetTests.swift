@testable import FlickTemplates
import FlickExpectations
import FlickRaster
import FlickTestSupport
import Foundation
import Testing

/// Font files as template assets: the top-level `fonts` list and `font` parameters given a file.
@Suite struct FontAssetTests {
  static let serif = "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf"
  static let interBold = "/usr/share/fonts/opentype/inter/Inter-Bold.otf"

  /// A temporary folder holding `fonts/Brand.ttf` (a copy of DejaVu Serif) and `template`.
  static func folder(template: String, font: String = serif) throws -> (template: String, font: String) {
    let dir = try FixturePaths.temporaryFolder()
    let fonts = dir.appendingPathComponent("fonts")
    try FileManager.default.createDirectory(at: fonts, withIntermediateDirectories: true)
    let copy = fonts.appendingPathComponent("Brand" + (font.hasSuffix(".otf") ? ".otf" : ".ttf"))
    try FileManager.default.copyItem(atPath: font, toPath: copy.path)
    let file = dir.appendingPathComponent("t.json5")
    try template.write(to: file, atomically: true, encoding: .utf8)
    return (file.path, URL(fileURLWithPath: copy.path).resolvingSymlinksInPath().path)
  }

  static func text(_ family: String) -> String {
    "{ id: \"label\", type: \"text\", size: [200, 40], string: \"Hi\", fontFamily: \(family) }"
  }

  static func message(_ body: () throws -> Void) -> String {
    do {
      try body()
      return ""
    } catch {
      return "\(error)"
    }
  }

  @Test func fontsListBecomesTheScenesFontFiles() throws {
    let f = try Self.folder(
      template: """
        { flick: 1, fonts: ["fonts/Brand.ttf"], canvas: { width: 200, height: 40, duration: 1 },
          layers: [\(Self.text("\"DejaVu Serif\""))] }
        """)
    let t = try Template.load(path: f.template)
    expectEqual(t.scene.fontFiles, [f.font])
  }

  @Test func fontParameterGivenAFileBecomesItsFamily() throws {
    let f = try Self.folder(
      template: """
        { flick: 1, parameters: { brand: { type: "font", default: "fonts/Brand.otf" } },
          canvas: { width: 200, height: 40, duration: 1 }, layers: [\(Self.text("\"$brand\""))] }
        """, font: Self.interBold)
    let t = try Template.load(path: f.template)
    expectEqual(t.scene.fontFiles, [f.font])
    expectEqual(t.scene.layers.first?.text?.fontFamily, "Inter")

    // --set with a family name keeps working and registers nothing.
    var values = ParameterValues()
    values.set("brand", text: "DejaVu Sans")
    let named = try Template.load(path: f.template, parameters: values)
    #expect(named.scene.fontFiles.isEmpty)
    expectEqual(named.scene.layers.first?.text?.fontFamily, "DejaVu Sans")
  }

  @Test func fontFileOutsideTheFolderIsRefusedUnlessAllowed() throws {
    let f = try Self.folder(
      template: """
        { flick: 1, fonts: ["\(Self.serif)"], canvas: { width: 200, height: 40, duration: 1 } }
        """)
    let refused = Self.message { _ = try Template.load(path: f.template) }
    #expect(refused.contains(":1:21: fonts[0]: font \"\(Self.serif)\""), "\(refused)")
    #expect(refused.contains("outside the template's folder"), "\(refused)")
    let allowed = try Template.load(
      path: f.template, parameters: ParameterValues(), options: TemplateOptions(allowOutsideAssets: true))
    expectEqual(allowed.scene.fontFiles, [URL(fileURLWithPath: Self.serif).resolvingSymlinksInPath().path])
  }

  @Test func missingCorruptAndMisplacedFontFilesAreClearErrors() throws {
    let f = try Self.folder(
      template: """
        { flick: 1, fonts: ["fonts/Brand.ttf", "fonts/Missing.ttf"], canvas: { width: 200, height: 40, duration: 1 } }
        """)
    let missing = Self.message { _ = try Template.load(path: f.template) }
    #expect(missing.hasPrefix(f.template + ":1:40: fonts[1]: font \"fonts/Missing.ttf\": no such file"), "\(missing)")

    try Data("definitely not a font".utf8).write(to: URL(fileURLWithPath: f.font))
    let corrupt = Self.message { _ = try Template.load(path: f.template) }
    #expect(corrupt.hasPrefix(f.template + ":1:21: fonts[0]: font \"fonts/Brand.ttf\": "), "\(corrupt)")
    #expect(corrupt.contains("not a TrueType, OpenType or collection font file"), "\(corrupt)")

    let g = try Self.folder(
      template: """
        { flick: 1, canvas: { width: 200, height: 40, duration: 1 }, layers: [\(Self.text("\"fonts/Brand.ttf\""))] }
        """)
    let misplaced = Self.message { _ = try Template.load(path: g.template) }
    #expect(
      misplaced.contains("list \"fonts/Brand.ttf\" in the top-level 'fonts' and write \"DejaVu Serif\""), "\(misplaced)"
    )
  }

  @Test func aFontFileOverTheSizeCapIsRefusedBeforeItIsRead() throws {
    let f = try Self.folder(
      template: """
        { flick: 1, fonts: ["fonts/Brand.ttf"], canvas: { width: 200, height: 40, duration: 1 } }
        """)
    // A usable font, then a hole up to one byte over the cap: no disk used, and the whole file
    // read (as it was) would be 256 MiB of memory, twice.
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: f.font))
    try handle.truncate(atOffset: 0)
    try handle.write(contentsOf: HostileFont.tiny(family: "Big Brand"))
    try handle.truncate(atOffset: UInt64(FontFile.maximumBytes + 1))
    try handle.close()
    let refused = Self.message { _ = try Template.load(path: f.template) }
    #expect(refused.hasPrefix(f.template + ":1:21: fonts[0]: font \"fonts/Brand.ttf\": "), "\(refused)")
    #expect(refused.contains("the file is 268435457 bytes, more than the 256 MiB a font file may be"), "\(refused)")
  }

  @Test func aTemplateUsesAtMost64FontFiles() throws {
    let repeated = Array(repeating: "\"fonts/Brand.ttf\"", count: 65).joined(separator: ", ")
    let f = try Self.folder(
      template: "{ flick: 1, fonts: [\(repeated)], canvas: { width: 200, height: 40, duration: 1 } }")
    let listed = Self.message { _ = try Template.load(path: f.template) }
    #expect(listed.contains(": fonts[64]: 'fonts' may list at most 64 font files"), "\(listed)")

    // 64 files in `fonts` and one more as a `font` parameter's default: 65 different files.
    let folder = URL(fileURLWithPath: f.font).deletingLastPathComponent()
    try Data(HostileFont.tiny(family: "Tiny Brand")).write(to: folder.appendingPathComponent("tiny.ttf"))
    for i in 0..<64 {
      try FileManager.default.linkItem(
        at: folder.appendingPathComponent("tiny.ttf"), to: folder.appendingPathComponent("t\(i).ttf"))
    }
    let files = (0..<64).map { "\"fonts/t\($0).ttf\"" }.joined(separator: ", ")
    try """
    { flick: 1, parameters: { face: { type: "font", default: "fonts/tiny.ttf" } }, fonts: [\(files)],
      canvas: { width: 200, height: 40, duration: 1 } }
    """.write(toFile: f.template, atomically: true, encoding: .utf8)
    let different = Self.message { _ = try Template.load(path: f.template) }
    #expect(
      different.contains(": fonts[63]: font \"fonts/t63.ttf\": a template may use at most 64 different font files"),
      "\(different)")
  }

  @Test func aFontFileNamedManyTimesIsReadOncePerLoad() throws {
    // The parameter's default and `fonts` name the same file; it is made unreadable after the
    // parameters are read (when the canvas is decoded), so a second read fails the load.
    let f = try Self.folder(
      template: """
        { flick: 1, parameters: { face: { type: "font", default: "fonts/Brand.ttf" } },
          fonts: ["fonts/Brand.ttf", "fonts/Brand.ttf"], canvas: { width: 200, height: 40, duration: 1 } }
        """)
    var options = TemplateOptions()
    options.decodeObserver = DecodeObserver(canvas: { [font = f.font] _ in
      try? Data("not a font".utf8).write(to: URL(fileURLWithPath: font))
    })
    let t = try Template.load(path: f.template, parameters: ParameterValues(), options: options)
    expectEqual(t.scene.fontFiles, [f.font])
    expectEqual(t.parameterValues["face"]?.kind, .string("DejaVu Serif"))
  }

  @Test func fontFilesOverTheStructureCapsAreRefused() throws {
    typealias F = HostileFont
    let named = F.nameTable(family: "Capped")
    // Every cap reached, none passed: 256 faces sharing one directory of 256 entries, 1,024 name
    // records (16 such faces are the 16,384 records a file may have), a 512-byte family name.
    let records = [F.NameRecord(text: "Capped")] + Array(repeating: F.NameRecord(nameID: 2, text: "Bold"), count: 1_023)
    try expectEqual(
      FontFile.families(in: F.collection(faces: 256, sharing: F.font(["name": named], padding: 255))), ["Capped"])
    try expectEqual(
      FontFile.families(in: F.collection(faces: 16, sharing: F.font(["name": F.nameTable(records)]))), ["Capped"])
    try expectEqual(
      FontFile.families(in: F.font(["name": F.nameTable(family: String(repeating: "x", count: 256))])).count, 1)

    let over: [([UInt8], String)] = [
      (F.collection(faces: 257, sharing: F.font(["name": named])), "the collection has 257 faces, more than the 256"),
      (F.font(["name": named], padding: 256), "a face's table directory lists 257 tables, more than the 256"),
      (
        F.font(["name": F.nameTable(records + [F.NameRecord(nameID: 2, text: "Bold")])]),
        "has 1025 records, more than the 1024"
      ),
      (
        F.collection(faces: 17, sharing: F.font(["name": F.nameTable(records)])),
        "more than 16384 'name' records together"
      ),
      (F.font(["name": F.nameTable(family: String(repeating: "x", count: 257))]), "a family name is 514 bytes long"),
    ]
    for (bytes, reason) in over {
      let error = #expect(throws: FontFile.Problem.self) { try FontFile.families(in: bytes) }
      #expect(error?.reason.contains(reason) == true, "\(String(describing: error)), expected \(reason)")
    }
  }

  @Test func nameTableGivesTheFamiliesFontconfigReports() throws {
    // As fc-query: DejaVuSerif.ttf → "DejaVu Serif"; Inter-Bold.otf → "Inter";
    // Inter-Black.otf → "Inter" (typographic family, ID 16), "Inter Black" (ID 1).
    try expectEqual(FontFile.families(at: Self.serif), ["DejaVu Serif"])
    try expectEqual(FontFile.families(at: Self.interBold), ["Inter"])
    try expectEqual(FontFile.families(at: "/usr/share/fonts/opentype/inter/Inter-Black.otf"), ["Inter", "Inter Black"])
    #expect(throws: FontFile.Problem.self) { try FontFile.families(in: Array("wOFF and more bytes".utf8)) }
    #expect(throws: FontFile.Problem.self) { try FontFile.families(in: [0, 1, 0, 0, 0, 9]) }
  }
}
