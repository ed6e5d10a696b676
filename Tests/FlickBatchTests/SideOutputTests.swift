import FlickExpectations
import FlickTestSupport
import Foundation
import Testing

/// A batch command's own file beside its outputs (`flick plan -o`, `run` and `merge --report`,
/// `status --html`) never replaces a file the command reads (the plan, the manifest, a template)
/// and is never named like one Flick reads (`.json5`, `.svg`; `.json` for the HTML gallery), as
/// `flick render` refuses for its outputs: exit 2, the input untouched, no lock beside it.
@Suite struct SideOutputTests {
  typealias F = BatchFixtures

  /// A folder with the slide fixture as `t.json5`, the manifest `m.json5` (one GIF render,
  /// 32 × 18, two frames) and its plan `plan.json`.
  static func planned() throws -> URL {
    let dir = try ProcessRunner.temporaryDirectory(prefix: "flick-side-output")
    try FileManager.default.copyItem(
      at: F.fixtures.appendingPathComponent("slide.json5"), to: dir.appendingPathComponent("t.json5"))
    try """
    { flick: 1, output: "out", renders: [{ template: "t.json5", sizes: [0.25], frames: [0, 1], formats: ["gif"] }] }
    """.write(to: dir.appendingPathComponent("m.json5"), atomically: true, encoding: .utf8)
    let r = try F.flick(["plan", "m.json5", "-o", "plan.json"], in: dir)
    expectEqual(r.status, 0, "\(r.stderr)")
    return dir
  }

  @Test func aSideOutputOverAnInputOrNamedLikeOneIsRefused() throws {
    let dir = try Self.planned()
    defer { try? FileManager.default.removeItem(at: dir) }
    let inputs = ["m.json5", "t.json5", "plan.json"]
    func contents() throws -> [Data] {
      try inputs.map { try Data(contentsOf: dir.appendingPathComponent($0)) }
    }
    let before = try contents()
    let cases: [(args: [String], says: String)] = [
      (["plan", "m.json5", "-o", "m.json5"], "which the command reads"),
      (["plan", "m.json5", "-o", "t.json5"], "which the command reads"),
      (["plan", "m.json5", "-o", "new.json5"], "is named like a template"),
      (["run", "plan.json", "-q", "--report", "t.json5"], "which the command reads"),
      (["run", "plan.json", "-q", "--report", "./plan.json"], "which the command reads"),
      (["run", "plan.json", "-q", "--report", "r.svg"], "is named like an SVG"),
      (["status", "plan.json", "--html", "t.json5"], "which the command reads"),
      (["status", "plan.json", "--html", "plan.json"], "which the command reads"),
      (["status", "plan.json", "--html", "g.json"], "is named like a Lottie, parameter or plan file"),
      (["merge", "plan.json", "-q", "--report", "m.json5"], "which the command reads"),
    ]
    for c in cases {
      let r = try F.flick(c.args, in: dir)
      expectEqual(r.status, 2, "\(c.args): exit \(r.status): \(r.stderr)")
      #expect(r.stderr.contains(c.says), "\(c.args): \(r.stderr)")
      #expect(try contents() == before, "\(c.args) changed an input")
    }
    let left = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
    expectEqual(left, ["m.json5", "plan.json", "t.json5"])
  }

  /// Side outputs named for what they are are written as before.
  @Test func sideOutputsOfTheirOwnKindAreWritten() throws {
    let dir = try Self.planned()
    defer { try? FileManager.default.removeItem(at: dir) }
    for args in [
      ["plan", "m.json5", "-o", "again.json"], ["run", "plan.json", "-q", "--report", "r.json"],
      ["status", "plan.json", "--html", "g.html"],
    ] {
      let r = try F.flick(args, in: dir)
      expectEqual(r.status, 0, "\(args): \(r.stderr)")
      #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent(args[args.count - 1]).path), "\(args)")
    }
  }
}
