import FlickExpectations
import FlickTestSupport
import Foundation
import Testing

/// Every command transcript in the user docs (a fenced block whose lines start `$ flick …`,
/// each followed by what it prints) is run with the built `flick` in a copy of the repository's
/// Templates and Examples folders, and must print what the docs show, byte for byte: a figure in
/// an example cannot drift from the product (a trace velocity did, after an engine change). The
/// output compared is stdout followed by stderr, as a terminal shows them.
@Suite struct DocumentedTranscriptTests {
  /// One `$ flick …` line of a doc and the lines it prints.
  struct Transcript: CustomTestStringConvertible, Sendable {
    var file: String
    var line: Int
    var arguments: [String]
    var output: String
    var testDescription: String { "\(file):\(line)" }
  }

  static let documents: [String] = {
    let docs = CLITests.root.appendingPathComponent("docs").path
    let names = (try? FileManager.default.contentsOfDirectory(atPath: docs)) ?? []
    return ["README.md"] + names.filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
  }()

  /// The transcripts of `text`: inside fenced blocks, each `$ flick` line and the lines up to the
  /// next `$ ` line or the block's end. Arguments are split on spaces (the docs quote none).
  static func transcripts(of text: String, file: String) -> [Transcript] {
    var found: [Transcript] = []
    var inBlock = false
    var current: Transcript?
    func finish() {
      if let t = current { found.append(t) }
      current = nil
    }
    for (index, line) in text.components(separatedBy: "\n").enumerated() {
      if line.hasPrefix("```") {
        finish()
        inBlock.toggle()
        continue
      }
      guard inBlock else { continue }
      if line.hasPrefix("$ ") {
        finish()
        let words = line.dropFirst(2).split(separator: " ").map(String.init)
        guard words.first == "flick" else { continue }
        current = Transcript(file: file, line: index + 1, arguments: Array(words.dropFirst()), output: "")
      } else if current != nil {
        current?.output += line + "\n"
      }
    }
    return found
  }

  static let all: [Transcript] = documents.flatMap { name in
    let text = (try? String(contentsOf: CLITests.root.appendingPathComponent(name), encoding: .utf8)) ?? ""
    return transcripts(of: text, file: name)
  }

  @Test func theDocsHaveTranscripts() {
    #expect(Self.all.count >= 3, "found \(Self.all.map(\.testDescription))")
  }

  @Test func aTranscriptIsEveryDollarLineWithWhatFollowsIt() {
    let text = "a\n```\n$ flick x --y 1\nout 1\nout 2\n$ flick z\n```\n$ flick outside\n"
    let found = Self.transcripts(of: text, file: "t.md")
    expectEqual(found.map(\.arguments), [["x", "--y", "1"], ["z"]])
    expectEqual(found.map(\.output), ["out 1\nout 2\n", ""])
    expectEqual(found.map(\.line), [3, 6])
  }

  @Test(arguments: all)
  func theTranscriptIsWhatFlickPrints(_ transcript: Transcript) throws {
    let dir = try CLITests.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    for folder in ["Templates", "Examples"] {
      try FileManager.default.copyItem(
        at: CLITests.root.appendingPathComponent(folder), to: dir.appendingPathComponent(folder))
    }
    var environment = ProcessInfo.processInfo.environment
    environment["FLICK_TEMPLATES"] = dir.appendingPathComponent("Templates").path
    let r = try ProcessRunner.run(
      CLITests.flick, transcript.arguments, environment: environment, directory: dir.path)
    expectEqual(r.status, 0, "\(transcript.testDescription): \(r.stderr)")
    // A terminal shows both streams: what the command prints, then its notes on stderr.
    expectEqual(r.text + r.stderr, transcript.output, "\(transcript.testDescription)")
  }
}
