import FlickExpectations
import FlickTestSupport
import Foundation
import Testing

/// `flick info` echoes what a template wrote (name, description, parameter descriptions, layer
/// ids, text) only through `TemplateText.escaped`, like every other message that shows template
/// text: a hostile template cannot forge a CI annotation on a new line or send terminal escapes.
@Suite struct InfoEscapingTests {
  @Test func infoEscapesTheTemplatesOwnText() throws {
    let dir = try CLITests.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    // JSON5 escapes put a newline, an ESC and a bidi override into the template's strings.
    let template = """
      { flick: 1, name: "evil\\n::error file=x::forged", description: "red \\u001b[31mtext\\u202e",
        parameters: { p: { type: "string", default: "a\\nb", description: "line\\rover" } },
        canvas: { width: 32, height: 32, fps: 10, duration: 0.2 },
        layers: [{ id: "t", type: "text", string: "hi\\u0007there", size: [20, 20], position: [10, 10] }] }
      """
    let path = dir.appendingPathComponent("evil.json5").path
    try template.write(toFile: path, atomically: true, encoding: .utf8)
    let r = try HostileCLITests.run(["info", path])
    expectEqual(r.status, 0, "\(r.stderr)")
    let out = r.stdout
    #expect(!out.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x202E || $0.value == 0x07 || $0 == "\r" })
    #expect(!out.split(separator: "\n").contains { $0.hasPrefix("::error") }, "\(out)")
    #expect(out.contains(#"evil\n::error file=x::forged — red \u{1B}[31mtext\u{202E}"#), "\(out)")
    #expect(out.contains(#"line\rover"#), "\(out)")
    #expect(out.contains(#"default "a\nb""#), "\(out)")
    #expect(out.contains(#""hi\u{7}there""#), "\(out)")
  }
}
