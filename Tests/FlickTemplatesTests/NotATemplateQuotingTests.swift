import FlickExpectations
import FlickTemplates
import Foundation
import Testing

/// A file given as a template that does not begin as a JSON5 object is refused without quoting
/// its text: a link in a pull request to a token file made `flick info` print the token
/// (`unexpected word 'ghp_…'`) into the build log. A template with a syntax error further in is
/// still quoted, which is what its author needs.
@Suite struct NotATemplateQuotingTests {
  static let secrets = [
    "ghp_SECRETCANARY42abc", "SECRETCANARY42", "https://user:SECRETCANARY42@example.com",
    "-----BEGIN OPENSSH PRIVATE KEY-----\nSECRETCANARY42", "AKIA SECRETCANARY42", "\u{FEFF}SECRETCANARY42 x",
    "// a comment\nSECRETCANARY42", "[SECRETCANARY42]", "42 SECRETCANARY42", "\"SECRETCANARY42\" tail",
    "\"SECRETCANARY42\"", "[\"SECRETCANARY42\"]",
  ]

  @Test func aFileThatIsNotAnObjectIsNotQuoted() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("not-a-template-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    for (i, secret) in Self.secrets.enumerated() {
      let target = dir.appendingPathComponent("secret\(i)")
      try Data(secret.utf8).write(to: target)
      let link = dir.appendingPathComponent("t\(i).json5").path
      try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target.path)
      let message: String
      do {
        _ = try Template.load(path: link)
        Issue.record("\(i): loaded")
        continue
      } catch {
        message = error.description
      }
      #expect(!message.contains("SECRETCANARY42"), "\(i): \(message)")
      #expect(!message.contains("ghp_") && !message.contains("https") && !message.contains("AKIA"), "\(i): \(message)")
    }
  }

  @Test func aTemplateWithASyntaxErrorIsStillQuoted() {
    for text in ["{ flick: 1, canvas: foo }", "// comment\n{ flick: 1, canvas: foo }", "\u{FEFF} { a: foo }"] {
      do {
        _ = try Template.decode(text, file: "t.json5")
        Issue.record("decoded")
      } catch {
        #expect(error.description.contains("unexpected word 'foo'"), "\(error.description)")
      }
    }
  }
}
