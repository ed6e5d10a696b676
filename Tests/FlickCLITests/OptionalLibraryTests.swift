import FlickExpectations
import FlickTestSupport
import Foundation
import Testing

/// rlottie, librsvg, libmicrohttpd and Pango (with HarfBuzz, FriBidi and GIO) are loaded when
/// first needed (CDynamicLibrary), not at every start: which libraries `flick` opens is read from
/// the dynamic loader's own report (`LD_DEBUG=files`, glibc), and a library that cannot be loaded
/// is a clear error for the inputs that need it, while everything else still works.
@Suite struct OptionalLibraryTests {
  /// `libpango-1.0` stands for Pango's whole stack, which Flick loads through libpangocairo.
  static let optional = ["librlottie", "librsvg-2", "libmicrohttpd", "libpango-1.0"]
  /// A template with text (the bundled hello has none).
  static let text = CLITests.root.appendingPathComponent("Templates/chained-sequence.json5").path

  /// The fixtures' folder: a Lottie file and an SVG picture used by other CLI tests.
  static let lottie = CLITests.root.appendingPathComponent("Tests/FlickRasterTests/Fixtures/lottie/card-flip.json").path
  static let svgFolder = CLITests.root.appendingPathComponent("Tests/FlickRasterTests/Fixtures/svg")

  /// Runs `flick ARGS` with `LD_DEBUG=files` (plus `extra`), and returns its exit status, the
  /// optional libraries the loader opened (by base name) and stderr.
  static func run(_ args: [String], extra: [String: String] = [:]) throws -> (
    status: Int32, opened: Set<String>, stderr: String
  ) {
    var environment = ProcessInfo.processInfo.environment
    environment["LD_DEBUG"] = "files"
    environment.merge(extra) { $1 }
    let r = try ProcessRunner.run(CLITests.flick, args, environment: environment)
    var opened = Set<String>()
    for line in r.stderr.split(separator: "\n") {
      guard let range = line.range(of: "file=") else { continue }
      let file = line[range.upperBound...].prefix { $0 != " " && $0 != "\t" && $0 != "[" }
      for name in optional where file.hasPrefix(name + ".so") { opened.insert(name) }
    }
    let messages = r.stderr.split(separator: "\n").filter { !$0.contains("\tfile=") && !$0.contains(":\t") }
    return (r.status, opened, messages.joined(separator: "\n"))
  }

  /// A template drawing the SVG `file` (copied into `dir`).
  static func svgTemplate(in dir: URL) throws -> String {
    try FileManager.default.copyItem(
      at: svgFolder.appendingPathComponent("icon.svg"), to: dir.appendingPathComponent("icon.svg"))
    let path = dir.appendingPathComponent("svg.json5").path
    try Data(
      """
      { flick: 1, canvas: { width: 48, height: 48, fps: 10, duration: 0.5 },
        layers: [ { id: "i", size: [48, 48], position: [24, 24], contents: "icon.svg" } ] }
      """.utf8
    ).write(to: URL(fileURLWithPath: path))
    return path
  }

  @Test func aTemplateWithoutLottieOrSVGOpensNoneOfThem() throws {
    let dir = try CLITests.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let still = try Self.run(["still", CLITests.hello, "-o", dir.appendingPathComponent("h.png").path, "-q"])
    expectEqual(still.status, 0, "\(still.stderr)")
    #expect(still.opened.isEmpty, "opened \(still.opened)")
    let version = try Self.run(["--version"])
    expectEqual(version.status, 0, "opened \(version.opened)")
    #expect(version.opened.isEmpty, "opened \(version.opened)")
    let info = try Self.run(["info", CLITests.hello])
    expectEqual(info.status, 0, "opened \(info.opened) \(info.stderr)")
    #expect(info.opened.isEmpty, "opened \(info.opened) \(info.stderr)")
  }

  @Test func eachInputOpensOnlyTheLibraryItNeeds() throws {
    let dir = try CLITests.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let lottie = try Self.run(["still", Self.lottie, "-o", dir.appendingPathComponent("l.png").path, "-q"])
    expectEqual(lottie.status, 0, "\(lottie.stderr)")
    expectEqual(lottie.opened, ["librlottie"])
    let svg = try Self.run(["still", try Self.svgTemplate(in: dir), "-o", dir.appendingPathComponent("s.png").path])
    expectEqual(svg.status, 0, "\(svg.stderr)")
    // librsvg itself needs Pango.
    expectEqual(svg.opened, ["librsvg-2", "libpango-1.0"])
    let text = try Self.run(["still", Self.text, "-o", dir.appendingPathComponent("t.png").path, "-q"])
    expectEqual(text.status, 0, "\(text.stderr)")
    expectEqual(text.opened, ["libpango-1.0"])
  }

  /// A folder where every name Flick tries for the three libraries is a file that is not a
  /// library: put first on `LD_LIBRARY_PATH`, each load fails as if the library were missing.
  static func brokenLibraries(in dir: URL) throws -> [String: String] {
    let folder = dir.appendingPathComponent("broken-libs")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    for name in [
      "librlottie.so.0-1", "librlottie.so.0", "librlottie.so", "librsvg-2.so.2", "librsvg-2.so",
      "libmicrohttpd.so.12", "libmicrohttpd.so", "libpangocairo-1.0.so.0", "libpangocairo-1.0.so",
    ] {
      try Data("not a library\n".utf8).write(to: folder.appendingPathComponent(name))
    }
    return ["LD_LIBRARY_PATH": folder.path]
  }

  @Test func aLibraryThatCannotBeLoadedIsAClearErrorOnlyWhereItIsNeeded() throws {
    let dir = try CLITests.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let broken = try Self.brokenLibraries(in: dir)
    let hello = dir.appendingPathComponent("h.png").path
    let plain = try Self.run(["still", CLITests.hello, "-o", hello, "-q"], extra: broken)
    expectEqual(plain.status, 0, "\(plain.stderr)")
    #expect(FileManager.default.fileExists(atPath: hello), "\(plain.stderr)")

    let lottiePNG = dir.appendingPathComponent("l.png").path
    let lottie = try Self.run(["still", Self.lottie, "-o", lottiePNG], extra: broken)
    expectNotEqual(lottie.status, 0, "\(lottie.status)")
    expectLess(lottie.status, 128, "\(lottie.status)")
    #expect(
      lottie.stderr.contains("Lottie files need rlottie, which cannot be loaded: cannot load librlottie.so.0-1"),
      "\(lottie.stderr)")
    #expect(!FileManager.default.fileExists(atPath: lottiePNG))

    let svgPNG = dir.appendingPathComponent("s.png").path
    let svg = try Self.run(["still", try Self.svgTemplate(in: dir), "-o", svgPNG], extra: broken)
    expectNotEqual(svg.status, 0, "\(svg.status)")
    expectLess(svg.status, 128, "\(svg.status)")
    #expect(
      svg.stderr.contains("SVG pictures need librsvg, which cannot be loaded: cannot load librsvg-2.so.2"),
      "\(svg.stderr)")
    #expect(!FileManager.default.fileExists(atPath: svgPNG))

    // Text: the template's check names the first text layer, at its place in the file.
    let textPNG = dir.appendingPathComponent("t.png").path
    let text = try Self.run(["still", Self.text, "-o", textPNG], extra: broken)
    expectNotEqual(text.status, 0, "\(text.status)")
    expectLess(text.status, 128, "\(text.status)")
    #expect(text.stderr.contains("chained-sequence.json5:"), "\(text.stderr)")
    #expect(
      text.stderr.contains("text needs Pango, which cannot be loaded: cannot load libpangocairo-1.0.so.0"),
      "\(text.stderr)")
    #expect(!FileManager.default.fileExists(atPath: textPNG))

    let studio = try Self.run(["studio", CLITests.hello, "--port", "0", "--no-open"], extra: broken)
    expectNotEqual(studio.status, 0, "\(studio.status)")
    expectLess(studio.status, 128, "\(studio.status)")
    #expect(studio.stderr.contains("libmicrohttpd cannot be loaded"), "\(studio.stderr)")
  }
}
