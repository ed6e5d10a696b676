import FlickExpectations
import FlickTemplates
import Foundation
import Testing

@Suite struct TemplateLibraryTests {
  @Test func environmentVariableWins() throws {
    let dir = try FixturePaths.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: dir) }
    let library = try #require(
      TemplateLibrary.locate(environment: ["FLICK_TEMPLATES": dir.path], executablePath: "/nonexistent/flick"))
    expectEqual(library.folder, dir.resolvingSymlinksInPath().path)
    #expect(TemplateLibrary.locate(environment: ["FLICK_TEMPLATES": dir.appendingPathComponent("no").path]) == nil)
  }

  @Test func foundFromTheExecutableInACheckout() throws {
    let binary = FixturePaths.root.appendingPathComponent(".build/debug/flick").path
    let library = try #require(TemplateLibrary.locate(environment: [:], executablePath: binary))
    expectEqual(library.folder, FixturePaths.templates.resolvingSymlinksInPath().path)
    #expect(library.names.contains("hello"))
    #expect(!library.names.contains("schema"))
  }

  @Test func foundFromAnInstalledExecutable() throws {
    let prefix = try FixturePaths.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: prefix) }
    let templates = prefix.appendingPathComponent("share/flick/Templates")
    try FileManager.default.createDirectory(at: templates, withIntermediateDirectories: true)
    try Data("{}".utf8).write(to: templates.appendingPathComponent("schema.json"))
    let library = TemplateLibrary.locate(
      environment: [:], executablePath: prefix.appendingPathComponent("bin/flick").path)
    expectEqual(library?.folder, templates.resolvingSymlinksInPath().path)
  }

  @Test func bareNamesResolveToBundledTemplates() {
    let library = TemplateLibrary(folder: FixturePaths.templates.path)
    expectEqual(
      TemplateLibrary.resolve("hello", in: library), FixturePaths.templates.appendingPathComponent("hello.json5").path)
    #expect(TemplateLibrary.resolve("nope", in: library) == nil)
    #expect(TemplateLibrary.resolve("dir/hello", in: library) == nil)
    let existing = FixturePaths.fixtures.appendingPathComponent("params/card.json5").path
    expectEqual(TemplateLibrary.resolve(existing, in: library), existing)
  }
}
