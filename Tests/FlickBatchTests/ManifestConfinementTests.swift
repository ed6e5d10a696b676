import FlickExpectations
import FlickTemplates
import FlickTestSupport
import Foundation
import Testing

@testable import FlickBatch

/// A manifest is untrusted: every path it names (template, params files, data, output) stays in
/// its folder through `..`, absolute paths and symbolic links, with the policy decided before
/// existence; files it names are never quoted; names taken from data are plain; outputs never go
/// through a link. A victim folder beside the manifest's holds files whose secret word must never
/// appear in a message.
@Suite struct ManifestConfinementTests {
  static let secret = "VICTIMSECRET4242"

  /// `root/m/` (the manifest's folder, with slide.json5) and `root/victim/` (secret files), and
  /// links in `m/`: `link` → the victim folder, `file-link` → its JSON5 file, `dangling` → a
  /// missing file outside.
  struct Layout {
    let root: URL
    var folder: URL { root.appendingPathComponent("m") }
    var victim: URL { root.appendingPathComponent("victim") }

    init() throws {
      root = try ProcessRunner.temporaryDirectory(prefix: "flick-confine")
      let fm = FileManager.default
      try fm.createDirectory(at: root.appendingPathComponent("m/sub"), withIntermediateDirectories: true)
      try fm.createDirectory(at: root.appendingPathComponent("victim"), withIntermediateDirectories: true)
      try fm.copyItem(
        at: BatchFixtures.fixtures.appendingPathComponent("slide.json5"),
        to: root.appendingPathComponent("m/slide.json5"))
      let s = ManifestConfinementTests.secret
      try "\(s): 1\n".write(to: victim.appendingPathComponent("secret.json5"), atomically: true, encoding: .utf8)
      try "\(s)\n\(s)\n".write(to: victim.appendingPathComponent("secret.csv"), atomically: true, encoding: .utf8)
      try fm.createSymbolicLink(atPath: folder.appendingPathComponent("link").path, withDestinationPath: "../victim")
      try fm.createSymbolicLink(
        atPath: folder.appendingPathComponent("file-link.json5").path,
        withDestinationPath: victim.path + "/secret.json5")
      try fm.createSymbolicLink(
        atPath: folder.appendingPathComponent("dangling").path, withDestinationPath: "/nonexistent/x")
    }

    /// Plans `text` as `m/batch.json5`; the error's description, or nil when accepted.
    func plan(_ text: String, policy: ManifestPolicy = ManifestPolicy()) throws -> String? {
      let file = folder.appendingPathComponent("batch.json5")
      try text.write(to: file, atomically: true, encoding: .utf8)
      do {
        _ = try BatchPlan(manifest: try Manifest.load(path: file.path, policy: policy), flickVersion: "test")
        return nil
      } catch {
        return error.description
      }
    }

    var manifest: String { folder.appendingPathComponent("batch.json5").path }
  }

  /// Ways out of the folder, each with the victim's file name at the end.
  static func escapes(_ name: String, absolute: String) -> [String] {
    [
      "../victim/\(name)", absolute + "/victim/\(name)", "link/\(name)", "sub/../../victim/\(name)",
      "./../victim/\(name)", "sub/../link/\(name)", "..//victim//\(name)",
    ]
  }

  static func manifest(template: String = "slide.json5", extra: String = "", output: String = "out") -> String {
    """
    {
      flick: 1, output: "\(output)",
      renders: [{ template: "\(template)", formats: ["png"],\(extra) }],
    }
    """
  }

  @Test(arguments: ["template", "variants", "data-json5", "data-csv", "output"])
  func everyPathFieldIsConfined(_ field: String) throws {
    let l = try Layout()
    defer { try? FileManager.default.removeItem(at: l.root) }
    let name = field == "data-csv" ? "secret.csv" : "secret.json5"
    for path in Self.escapes(name, absolute: l.root.path)
      + (field == "output" ? ["/tmp", "link", "dangling"] : ["file-link.json5"])
    {
      let text: String, jsonPath: String
      switch field {
      case "template": (text, jsonPath) = (Self.manifest(template: path), "renders[0].template")
      case "variants": (text, jsonPath) = (Self.manifest(extra: " variants: [\"\(path)\"]"), "renders[0].variants[0]")
      case "output": (text, jsonPath) = (Self.manifest(output: path), "output")
      default: (text, jsonPath) = (Self.manifest(extra: " data: \"\(path)\""), "renders[0].data")
      }
      let error = try #require(try l.plan(text), "\(field) \(path) was accepted")
      #expect(error.hasPrefix(l.manifest + ":"), "\(error)")
      #expect(error.contains(": \(jsonPath): "), "\(error)")
      #expect(error.contains("is outside the manifest's folder"), "\(field) \(path): \(error)")
      #expect(!error.contains(Self.secret))
    }
  }

  @Test func outsideGivesTheSameAnswerWhetherOrNotAFileIsThere() throws {
    let l = try Layout()
    defer { try? FileManager.default.removeItem(at: l.root) }
    let there = try #require(try l.plan(Self.manifest(extra: " data: \"../victim/secret.json5\"")))
    let missing = try #require(try l.plan(Self.manifest(extra: " data: \"../victim/nothing.json5\"")))
    expectEqual(there.replacingOccurrences(of: "secret", with: "nothing"), missing)
    #expect(there.hasPrefix(l.manifest + ":3:64: renders[0].data: "), "\(there)")
  }

  /// `..` after a link is resolved as the kernel does: `deep/../../victim/x` with `deep` → `sub/a/b`
  /// is `sub/victim/x` (inside, missing), never the lexical `../victim/x`.
  @Test func dotDotAfterALinkIsResolvedLikeTheKernel() throws {
    let l = try Layout()
    defer { try? FileManager.default.removeItem(at: l.root) }
    try FileManager.default.createDirectory(
      at: l.folder.appendingPathComponent("sub/a/b"), withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(
      atPath: l.folder.appendingPathComponent("deep").path, withDestinationPath: "sub/a/b")
    let error = try #require(try l.plan(Self.manifest(extra: " data: \"deep/../../victim/secret.json5\"")))
    #expect(error.contains("no such data file"), "\(error)")
    #expect(error.contains("/m/sub/victim/secret.json5"), "\(error)")
    // With a file there, that file is the one read (not the victim's).
    try FileManager.default.createDirectory(
      at: l.folder.appendingPathComponent("sub/victim"), withIntermediateDirectories: true)
    try "[{}]".write(to: l.folder.appendingPathComponent("sub/victim/secret.json5"), atomically: true, encoding: .utf8)
    #expect(try l.plan(Self.manifest(extra: " data: \"deep/../../victim/secret.json5\"")) == nil)
  }

  @Test func aPercentEncodedPathIsALiteralNameInsideTheFolder() throws {
    let l = try Layout()
    defer { try? FileManager.default.removeItem(at: l.root) }
    let error = try #require(try l.plan(Self.manifest(extra: " data: \"%2e%2e/victim/secret.json5\"")))
    #expect(error.contains("no such data file"), "\(error)")
    #expect(!error.contains(Self.secret), "\(error)")
  }

  /// Allowed outside, a file that is not a manifest still never shows its bytes.
  @Test(arguments: [
    "variants: [\"../victim/secret.json5\"]", "data: \"../victim/secret.json5\"", "data: \"link/secret.csv\"",
  ])
  func aForeignFileIsNeverQuoted(_ extra: String) throws {
    let l = try Layout()
    defer { try? FileManager.default.removeItem(at: l.root) }
    let error = try #require(
      try l.plan(Self.manifest(extra: " " + extra), policy: ManifestPolicy(allowOutsideFolder: true)))
    #expect(error.contains("/secret."), "\(error)")
    #expect(error.range(of: #"secret\.(json5|csv):\d+:\d+: "#, options: .regularExpression) != nil, "\(error)")
    #expect(!error.contains(Self.secret), "\(error)")
  }

  @Test(arguments: ["data.json5", "params.json5", "data.csv"])
  func aBrokenDataFileInsideIsLocatedNotQuoted(_ name: String) throws {
    let l = try Layout()
    defer { try? FileManager.default.removeItem(at: l.root) }
    let body = name.hasSuffix(".csv") ? "accent\n\"open \(Self.secret)\n" : "[{ accent: \(Self.secret) }]"
    try body.write(to: l.folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
    let extra = name.hasPrefix("params") ? " variants: [\"\(name)\"]" : " data: \"\(name)\""
    let error = try #require(try l.plan(Self.manifest(extra: extra)))
    #expect(error.hasPrefix(l.folder.appendingPathComponent(name).path + ":"), "\(error)")
    #expect(!error.contains(Self.secret), "\(error)")
  }

  @Test func hostileCSVValuesBecomePlainDistinctNames() throws {
    let l = try Layout()
    defer { try? FileManager.default.removeItem(at: l.root) }
    let long = String(repeating: "y", count: 500)
    // The names come from a JSON5 data file's strings (a color parameter cannot carry them).
    let rows = ["../../x", "a/b", ".hidden", "\\u001B[31mred", long, "..", "", "é1"].enumerated().map {
      "{ accent: \"#11111\($0.offset)\", distance: \($0.offset), label: \"\($0.element)\" }"
    }
    try "[\(rows.joined(separator: ","))]".write(
      to: l.folder.appendingPathComponent("v.json5"), atomically: true, encoding: .utf8)
    let template = try String(contentsOf: l.folder.appendingPathComponent("slide.json5"), encoding: .utf8)
      .replacingOccurrences(of: "parameters: {", with: "parameters: {\n    label: { type: \"string\", default: \"\" },")
    try template.write(to: l.folder.appendingPathComponent("named.json5"), atomically: true, encoding: .utf8)
    let file = l.folder.appendingPathComponent("batch.json5")
    try Self.manifest(template: "named.json5", extra: " data: \"v.json5\", variantName: \"label\"")
      .write(to: file, atomically: true, encoding: .utf8)
    let plan = try BatchPlan(manifest: try Manifest.load(path: file.path), flickVersion: "test")
    let names = plan.jobs.map(\.spec.variant)
    expectEqual(names.count, 8, "\(names)")
    expectEqual(Set(names).count, 8, "\(names)")
    for name in names {
      #expect(Manifest.isPlain(name), "\(name)")
      expectLessOrEqual(name.count, 100, "\(name)")
    }
    expectEqual(names.prefix(4), ["_._.._x", "a_b", "_hidden", "__31mred"])
    let root = plan.manifest.outputRoot + "/"
    for target in plan.jobs.flatMap(\.targets) {
      #expect(target.path.hasPrefix(root), "\(target.path)")
      #expect(!target.path.contains("/../"), "\(target.path)")
    }
    // Two values that become the same name are refused, naming both.
    try "[{ label: \"a/b\" }, { label: \"a_b\" }]".write(
      to: l.folder.appendingPathComponent("v.json5"), atomically: true, encoding: .utf8)
    let error = try #require(
      try l.plan(Self.manifest(template: "named.json5", extra: " data: \"v.json5\", variantName: \"label\"")))
    #expect(error.contains("variants 1 and 2 are both named 'a_b'"), "\(error)")
  }

  /// A refused data value is quoted capped and escaped: one short line, whatever the cell holds.
  @Test func aRefusedDataValueIsQuotedCapped() throws {
    let l = try Layout()
    defer { try? FileManager.default.removeItem(at: l.root) }
    let cell = "\u{1B}[2J" + String(repeating: "z", count: 5000)
    try "accent\n\(cell)\n".write(to: l.folder.appendingPathComponent("d.csv"), atomically: true, encoding: .utf8)
    let error = try #require(try l.plan(Self.manifest(extra: " data: \"d.csv\"")))
    #expect(error.hasPrefix(l.folder.appendingPathComponent("d.csv").path + ":2:1: "), "\(error)")
    expectLess(error.count, 1000, "\(error.count) characters")
    #expect(!error.contains("\u{1B}"), "\(error.count) characters")
    #expect(!error.contains("\n"), "\(error.count) characters")
  }

  @Test func aRenderNameCannotBeHiddenOrLong() throws {
    let l = try Layout()
    defer { try? FileManager.default.removeItem(at: l.root) }
    for name in [".flick", "..", "a/b", String(repeating: "n", count: 101)] {
      let error = try #require(try l.plan(Self.manifest(extra: " name: \"\(name)\"")), "\(name) was accepted")
      #expect(error.contains("renders[0].name: a name may only use"), "\(error)")
    }
  }

  @Test func outputFoldersAreNeverLinks() throws {
    let l = try Layout()
    defer { try? FileManager.default.removeItem(at: l.root) }
    let fm = FileManager.default
    try fm.createDirectory(at: l.folder.appendingPathComponent("real"), withIntermediateDirectories: true)
    try fm.createSymbolicLink(atPath: l.folder.appendingPathComponent("inside-link").path, withDestinationPath: "real")
    let root = try #require(try l.plan(Self.manifest(output: "inside-link")))
    #expect(root.contains(": output: the output folder goes through the symbolic link"), "\(root)")
    // A render folder planted in the output as a link to elsewhere.
    try fm.createDirectory(at: l.folder.appendingPathComponent("out"), withIntermediateDirectories: true)
    try fm.createSymbolicLink(
      atPath: l.folder.appendingPathComponent("out/slide").path, withDestinationPath: l.victim.path)
    let planted = try #require(try l.plan(Self.manifest()))
    #expect(planted.contains(": output: '"), "\(planted)")
    #expect(planted.contains("out/slide' in the output folder is a symbolic link"), "\(planted)")
    // Chunked: the merge's outputs are checked as well as the chunks'.
    let chunked = try #require(try l.plan(Self.manifest(extra: " chunk: 10")))
    #expect(chunked.contains("out/slide' in the output folder is a symbolic link"), "\(chunked)")
    try fm.removeItem(at: l.folder.appendingPathComponent("out/slide"))
    try fm.createDirectory(at: l.folder.appendingPathComponent("out/.flick"), withIntermediateDirectories: true)
    try fm.createSymbolicLink(
      atPath: l.folder.appendingPathComponent("out/.flick/reports").path, withDestinationPath: l.victim.path)
    try expectEqual(l.plan(Self.manifest())?.contains("reports' in the output folder is a symbolic link"), true)
    try fm.removeItem(at: l.folder.appendingPathComponent("out/.flick/reports"))
    #expect(try l.plan(Self.manifest()) == nil)
  }

  @Test func theOperatorCanAllowOutsidePaths() throws {
    let l = try Layout()
    defer { try? FileManager.default.removeItem(at: l.root) }
    try FileManager.default.copyItem(
      at: l.folder.appendingPathComponent("slide.json5"), to: l.victim.appendingPathComponent("t.json5"))
    let text = Self.manifest(template: "../victim/t.json5", output: l.root.appendingPathComponent("elsewhere").path)
    #expect(try l.plan(text) != nil)
    #expect(try l.plan(text, policy: ManifestPolicy(allowOutsideFolder: true)) == nil)
  }

  @Test func aManifestCannotAllowOutsideAssetsByItself() throws {
    let l = try Layout()
    defer { try? FileManager.default.removeItem(at: l.root) }
    let text = Self.manifest(extra: " allowOutsideAssets: true")
    let error = try #require(try l.plan(text))
    #expect(error.contains("renders[0].allowOutsideAssets: a manifest cannot let a template read assets"), "\(error)")
    #expect(try l.plan(text, policy: ManifestPolicy(allowOutsideAssets: true)) == nil)
  }

  /// An image parameter from a data row is an asset of the template: inside the template's folder.
  @Test func imageValuesFromDataStayInTheTemplatesFolder() throws {
    let l = try Layout()
    defer { try? FileManager.default.removeItem(at: l.root) }
    let fm = FileManager.default
    let cover = BatchFixtures.root.appendingPathComponent("Templates/images/cover.png")
    try fm.createDirectory(at: l.folder.appendingPathComponent("t"), withIntermediateDirectories: true)
    try fm.copyItem(at: cover, to: l.folder.appendingPathComponent("t/c.png"))
    try fm.copyItem(at: cover, to: l.folder.appendingPathComponent("beside.png"))
    try fm.copyItem(at: cover, to: l.victim.appendingPathComponent("v.png"))
    try """
    { flick: 1, parameters: { cover: { type: "image", default: "c.png" } },
      canvas: { width: 32, height: 32, fps: 10, duration: 0.2 },
      layers: [{ id: "i", size: [32, 32], position: [16, 16], contents: "${cover}" }] }
    """.write(to: l.folder.appendingPathComponent("t/img.json5"), atomically: true, encoding: .utf8)
    for value in ["t/c.png", "beside.png", "../victim/v.png", "link/v.png", l.victim.path + "/v.png"] {
      try "cover\n\(value)\n".write(to: l.folder.appendingPathComponent("d.csv"), atomically: true, encoding: .utf8)
      let error = try l.plan(Self.manifest(template: "t/img.json5", extra: " data: \"d.csv\""))
      if value == "t/c.png" {
        #expect(error == nil, "\(error ?? "")")
      } else {
        expectEqual(error?.contains("is outside the template's folder"), true, "\(value): \(error ?? "accepted")")
      }
    }
  }

  @Test func capsAreLocatedRefusals() throws {
    let l = try Layout()
    defer { try? FileManager.default.removeItem(at: l.root) }
    var limits = ManifestLimits()
    limits.csvRows = 3
    limits.csvColumns = 2
    limits.csvFieldCharacters = 8
    limits.variants = 4
    limits.jobs = 5
    limits.manifestBytes = 2000
    func plan(_ extra: String, _ data: String? = nil) throws -> String {
      if let data { try data.write(to: l.folder.appendingPathComponent("d.csv"), atomically: true, encoding: .utf8) }
      var policy = ManifestPolicy()
      policy.limits = limits
      return try #require(try l.plan(Self.manifest(extra: extra), policy: policy))
    }
    #expect(try plan(" data: \"d.csv\"", "accent\n#111111\n#222222\n#333333\n").contains("more than 3 rows"))
    #expect(try plan(" data: \"d.csv\"", "accent,distance,x\n").contains("more than 2 fields"))
    #expect(try plan(" data: \"d.csv\"", "accent\n#1111111111\n").contains("d.csv:2:9: a field is longer than 8"))
    #expect(
      try plan(" variants: [{}, {}, {}, {}, {}]").contains("renders[0].variants: the manifest has more than 4 variants")
    )
    #expect(
      try plan(" variants: [{}, {}], sizes: [1, 2, 0.5]").contains(
        "renders[0]: the manifest expands into more than 5 jobs"))
    #expect(try plan(" name: \"" + String(repeating: "x", count: 2000) + "\"").contains("over the cap of 2000 bytes"))
    // Renders without variants count one each.
    let renders = (0..<5).map { "{ template: \"slide.json5\", name: \"r\($0)\", formats: [\"png\"] }" }
    try "{ flick: 1, renders: [\(renders.joined(separator: ", "))] }".write(
      to: URL(fileURLWithPath: l.manifest), atomically: true, encoding: .utf8)
    var policy = ManifestPolicy()
    policy.limits = limits
    #expect(throws: TemplateError.self) { try Manifest.load(path: l.manifest, policy: policy) }
    // Each variant loads its template: the bytes loaded are capped.
    limits.loadedTemplateBytes = 1500
    #expect(try plan(" variants: [{}, {}, {}]").contains("renders[0]: planning would load templates of"))
  }

  @Test func aFIFOIsRefusedWithoutBlocking() throws {
    let l = try Layout()
    defer { try? FileManager.default.removeItem(at: l.root) }
    expectEqual(mkfifo(l.folder.appendingPathComponent("d.csv").path, 0o600), 0)
    let error = try #require(try l.plan(Self.manifest(extra: " data: \"d.csv\"")))
    #expect(error.contains("not a regular file"), "\(error)")
  }
}
