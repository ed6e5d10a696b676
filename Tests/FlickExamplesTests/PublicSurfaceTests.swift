import FlickExpectations
import FlickTestSupport
import Foundation
import Testing

/// The public surface is the list in docs/swift.md ("The public API"): `scripts/access-pass
/// --check` fails on any `public` declaration that is not listed, so a new one is either listed
/// (and so documented) or demoted by `scripts/access-pass`.
@Suite struct PublicSurfaceTests {
  static let root = ExamplesTests.root

  static func accessPass(_ arguments: [String], root: URL? = nil) throws -> ProcessRunner.Output {
    var environment = ProcessInfo.processInfo.environment
    if let root { environment["ACCESS_PASS_ROOT"] = root.path }
    return try ProcessRunner.run(
      "/usr/bin/env", ["python3", Self.root.appendingPathComponent("scripts/access-pass").path] + arguments,
      environment: environment)
  }

  @Test func everyPublicDeclarationIsListedInTheGuide() throws {
    let r = try Self.accessPass(["--check"])
    expectEqual(r.status, 0, "\(r.text)\(r.stderr)")
  }

  /// The pass on a small tree: an unlisted declaration fails the check, then is demoted to
  /// `package` when another module (or a test) uses it and to `internal` when nothing outside
  /// its module does; a type a listed signature names stays public and is reported.
  @Test func thePassDemotesWhatIsNotListed() throws {
    let tree = try ProcessRunner.temporaryDirectory(prefix: "access-pass")
    defer { try? FileManager.default.removeItem(at: tree) }
    func write(_ path: String, _ text: String) throws {
      let url = tree.appendingPathComponent(path)
      try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try text.write(to: url, atomically: true, encoding: .utf8)
    }
    try write(
      "docs/swift.md",
      "# Guide\n\n<!-- public-api -->\n```\nA\n  Listed -Listed.hidden -Listed.Inner  # a comment\n```\n")
    try write(
      "Sources/A/A.swift",
      """
      public struct Listed {
        public var options: Options
        public var hidden: Int { 1 }
        public init() { options = Options() }
        public static func == (a: Listed, b: Listed) -> Bool { true }  // "{" in a comment
        public struct Inner {}
        public var inner: Inner? { nil }
      }
      public struct Options { public init() {} }
      public enum Shared { case one }
      public struct Lonely { public let text = "public struct Fake {" }
      extension Int { public var doubled: Int { self * 2 } }
      """)
    try write("Sources/B/B.swift", "import A\nlet s = Shared.one\n")

    let check = try Self.accessPass(["--check"], root: tree)
    expectEqual(check.status, 1)
    for name in ["A.Listed.hidden", "A.Listed.Inner", "A.Options", "A.Shared", "A.Lonely", "A.Int.doubled"] {
      #expect(check.text.contains("public \(name) is not"), "\(check.text)")
    }
    #expect(!check.text.contains("Fake"))

    let pass = try Self.accessPass([], root: tree)
    expectEqual(pass.status, 0, "\(pass.stderr)")
    #expect(pass.text.contains("keeping A.Options public: A.Listed.options names it"), "\(pass.text)")
    #expect(pass.text.contains("keeping A.Listed.Inner public: A.Listed.inner names it"), "\(pass.text)")
    let a = try String(contentsOf: tree.appendingPathComponent("Sources/A/A.swift"), encoding: .utf8)
    #expect(a.contains("public struct Listed {\n  public var options: Options\n  package var hidden: Int"))
    #expect(a.contains("public struct Options { package init() {} }"))
    #expect(a.contains("\npackage enum Shared { case one }"))
    #expect(a.contains("\nstruct Lonely { let text = \"public struct Fake {\" }"))
    #expect(a.contains("extension Int { package var doubled: Int"))
    // Options is now public but unlisted: the check still fails until it is listed.
    try expectEqual(Self.accessPass(["--check"], root: tree).status, 1)
  }
}
