import FlickExpectations
import FlickTemplates
import Foundation
import Testing

/// Every file in `Fixtures/broken/` is a template with one mistake. Its first two lines say
/// what must happen:
///
///     // expect: :7:24: timeline[0].target: no layer with id 'crad'; did you mean 'card'?
///     // schema: rejects | accepts | unparseable
///
/// `expect` is the start of the error message after the file name (`{FIXTURES}` and `{ROOT}`
/// stand for the fixtures folder and the repository); `schema` says whether
/// `Templates/schema.json` rejects it too, or accepts it because the mistake is semantic
/// (an unknown id, a missing file), or cannot see it because the file is not JSON5.
@Suite struct BrokenTemplateTests {
  struct Fixture: CustomTestStringConvertible, Sendable {
    var url: URL
    var expected: String
    var schemaVerdict: String
    var testDescription: String { url.lastPathComponent }

    init(_ url: URL) {
      self.url = url
      let text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
      let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
      func header(_ key: String) -> String {
        lines.first { $0.hasPrefix("// \(key): ") }.map { String($0.dropFirst(key.count + 5)) } ?? ""
      }
      let fixtures = URL(fileURLWithPath: FixturePaths.broken.path).resolvingSymlinksInPath().path
      let root = URL(fileURLWithPath: FixturePaths.root.path).resolvingSymlinksInPath().path
      expected = header("expect").replacingOccurrences(of: "{FIXTURES}", with: fixtures)
        .replacingOccurrences(of: "{ROOT}", with: root)
      schemaVerdict = header("schema")
    }
  }

  static let fixtures = FixturePaths.json5Files(in: FixturePaths.broken).map(Fixture.init)

  @Test func everyFixtureStatesItsExpectations() {
    expectGreaterOrEqual(Self.fixtures.count, 30)
    for f in Self.fixtures {
      #expect(f.expected.hasPrefix(":"), "\(f.url.lastPathComponent) has no '// expect: :line:col: …' header")
      #expect(["rejects", "accepts", "unparseable"].contains(f.schemaVerdict), "\(f.url.lastPathComponent)")
    }
  }

  @Test(arguments: fixtures)
  func decoderRejectsWithFileLineColumnPathAndMessage(_ fixture: Fixture) {
    let path = fixture.url.path
    do {
      _ = try Template.load(path: path)
      Issue.record("\(fixture.url.lastPathComponent) loaded without error")
    } catch {
      #expect(error.description.hasPrefix(path + fixture.expected), "got: \(error.description)")
    }
  }

  @Test(arguments: fixtures)
  func schemaAgreesWhereItCan(_ fixture: Fixture) throws {
    let validator = try SchemaTests.validator()
    let text = try String(contentsOf: fixture.url, encoding: .utf8)
    guard let value = try? JSON5Parser.parse(text) else {
      expectEqual(fixture.schemaVerdict, "unparseable")
      return
    }
    let problems = validator.validate(value)
    switch fixture.schemaVerdict {
    case "rejects": #expect(!problems.isEmpty, "the schema accepts \(fixture.url.lastPathComponent)")
    case "accepts": #expect(problems.isEmpty, "\(problems)")
    default: Issue.record("\(fixture.url.lastPathComponent) parses, but says the schema cannot parse it")
    }
  }
}
