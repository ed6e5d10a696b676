import FlickExpectations
import Foundation
import Testing

/// Reads every Swift file under `Sources/` and checks that each message site echoes input only
/// through the one escaping function (`MessageText`, called `TemplateText` in FlickTemplates).
///
/// The rule, line by line (comment lines are skipped):
/// - A line is a *message site* when it lies in a `description` or `message` property or a
///   `message(…)` function (of any type: errors, warnings, values quoted in messages), writes a
///   location by hand (`\(file):\(v.line):\(v.column)`), or calls something that makes or prints
///   a message (``messageMakers``: `.error(`, `TemplateError(`, `fail(`, `log(`, `usage(`, `writeError(`,
///   an error case such as `.unreadableImage(`, a `message:` or `reason:` argument, `message +=`),
///   or continues such a line (it starts with `+`, or with a string after a line ending in `+`,
///   `(` or `,`).
/// - Each interpolation `\(…)` at the top level of a message site must either go through the
///   escaping function (`\(quoted: …)`, `\(escaped: …)`, or `MessageText`/`TemplateText`
///   `.quoted(`, `.escaped(`, `.list(`, `.logEntry(`), or match one
///   entry of ``allowList`` (numbers, counts, Flick's own constants and enum names), whole.
///
/// So a new message that interpolates a name, path or value without quoting it fails here with
/// its file and line.
@Suite struct MessageSitesTests {
  /// What makes a line a message site (besides lying in an error's `description`).
  static let messageMakers = try! NSRegularExpression(
    pattern: #"""
      (?:[Ee]rror|Failure|Problem|Mismatch|fail|[Ww]arn\w*|[Ii]nvalid\w*|environment|interrupted|overLimit|\
      limitReached|cairo|usage|unreadable\w*|unwritable\w*|cannotWrite|unsafePath|launchFailed|renderFailed|\
      notFFmpeg|log|expected|standardError\.write)\(|\\\([\w.]*line\):\\\([\w.]*column\)|\b(?:message|reason)\s*(?::|\+?=)
      """#)

  /// Interpolations that go through the escaping function.
  static let escaping = try! NSRegularExpression(
    pattern: #"^(?:(?:quoted|escaped): |(?:TemplateText|MessageText)\.(?:quoted|escaped|list|logEntry)\()"#)

  /// Interpolations that need no escaping because they can only be numbers or Flick's own names.
  /// Each matches a whole interpolated expression.
  static let allowList: [String] = [
    // Numbers through Flick's own formatters (TemplateNode.format, RenderLimits.format(bytes:),
    // ProgressPrinter.size, TimeText.seconds).
    #"(?:[\w.]+\.)?(?:format|size|seconds)\((?:bytes: |seconds: )?[\w.\[\] +-]*(?:\([\w.: ]*\))?\)"#,
    // Counts, sizes, positions, exit statuses and signals (integers), with integer arithmetic.
    #"(?:[\w.]+\.)?(?:count|width|height|frameCount|line|column|offset|index|status|signal|depth|frames|fps|crf|"#
      + #"st_size|lowerBound|upperBound|rendered|skipped|bytes)(?: *(?:[-+*]|>>) *[\w.]+)*"#,
    // Numeric locals and properties by their conventional names (indices, sides, limits, times,
    // fractions, versions); none of these names holds text anywhere in Sources/.
    #"(?:Self\.|[\w]+\.)?(?:i|n|w|h|a|b|v|x|y|t|lo|hi|min|max|cap|limit|count|total|frames|time|duration|seconds|"#
      + #"fps|gifFPS|inputFPS|outputFPS|renderFPS|even|crf|status|signal|width|height|depth|side|samples|angle|digits|"#
      + #"minItems|maxItems|formatVersion|line|column|level|size|lastTime|delay|fraction|position|durationFactor|"#
      + #"delayFactor|frame|scale|ratio|percent|threshold|tolerance|jobs|workers|chunk|chunks|index)"#
      + #"(?: *(?:[-+*]|>>) *[\w.]+)*"#,
    // Flick's own caps and constants (maximumFileSize >> 20, Self.linkLimit, …Variable names).
    #"(?:[\w]+\.)*(?:maximum|minimum|max[A-Z]|min[A-Z])\w*(?: *>> *\d+)?"#,
    #"(?:Self\.|[\w]+\.)?\w*(?:Limit|limit|Variable)\b"#,
    // Raw values of Flick's own enums: one of a fixed set of names.
    #"[\w.\[\]0-9]*\.rawValue"#,
    // Flick's own lists of names (property names, presets, formats, functions).
    #"[\w.]*(?:names|allCases\.map\(\\\.rawValue\)|presets|functions|supportedExtensions)"#
      + #"(?:\.joined\(separator: "[^"\\]*"\))?"#,
    // The keys or values a template node allows, or a spec argument takes: Flick's own names,
    // given by the code that reads the node.
    #"(?:allowed|options)\.joined\(separator: "[^"\\]*"\)"#,
    // A choice between two literals.
    #"[\w.=! ]+ \? "[^"\\]*" : "[^"\\]*""#,
    // Components of Flick's geometric values (numbers).
    #"(?:top|left|bottom|right|origin|rotation|translation|skew|perspective|scale|z)"#,
    // Versions of the libraries Flick links, as the libraries report them.
    #"(?:cairo|pango|pixman|freetype|harfbuzz|rlottie|librsvg|architecture)"#,
    // A number written in hexadecimal.
    #"String\([\w.]+, radix: \d+(?:, uppercase: true)?\)(?:\.leftPadded\(to: \d+\))?"#,
    // An optional number with a numeric default.
    #"[\w.]+ \?\? \d+"#,
    // XML-escaped text of a JUnit report file, which is not a terminal line.
    #"Self\.xml\([\w.]+\)"#,
    // An integer conversion of numbers.
    #"Int\([\w. -]+\)"#,
  ]

  static let allowed = allowList.map { try! NSRegularExpression(pattern: "^(?:\($0))$") }

  /// The repository's `Sources/` folder.
  static var sources: URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Sources")
  }

  /// A message site's interpolation that does not go through the escaping function.
  struct Offence: CustomStringConvertible {
    var file: String
    var line: Int
    var expression: String
    var description: String { "\(file):\(line): \\(\(expression))" }
  }

  /// The top-level interpolations of `line`: the expressions inside `\(…)`.
  static func interpolations(_ line: String) -> [String] {
    let chars = Array(line)
    var out: [String] = []
    var i = 0
    while i + 1 < chars.count {
      guard chars[i] == "\\", chars[i + 1] == "(" else {
        i += 1
        continue
      }
      var j = i + 2
      var depth = 1
      while j < chars.count, depth > 0 {
        if chars[j] == "(" { depth += 1 } else if chars[j] == ")" { depth -= 1 }
        j += 1
      }
      out.append(String(chars[(i + 2)..<max(i + 2, j - 1)]))
      i = j
    }
    return out
  }

  static func matches(_ regex: NSRegularExpression, _ text: String) -> Bool {
    regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
  }

  /// Whether `expression` may be interpolated in a message as it is.
  static func isSafe(_ expression: String) -> Bool {
    matches(escaping, expression) || allowed.contains { matches($0, expression) }
  }

  /// The offences in one file's text.
  static func offences(in text: String, file: String) -> [Offence] {
    let lines = text.components(separatedBy: "\n")
    let descriptionStart = try! NSRegularExpression(
      pattern: #"var (?:description|message): String\s*\{|func message\("#)
    var descriptionDepth: Int?
    var previousIsSite = false
    var previousIsOpen = false
    var found: [Offence] = []
    for (index, line) in lines.enumerated() {
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      if trimmed.hasPrefix("//") {
        previousIsSite = false
        continue
      }
      var inDescription = false
      if descriptionDepth == nil, matches(descriptionStart, line) { descriptionDepth = 0 }
      if let depth = descriptionDepth {
        inDescription = true
        let next = depth + line.filter { $0 == "{" }.count - line.filter { $0 == "}" }.count
        descriptionDepth = next > 0 ? next : nil
      }
      let isSite =
        inDescription || matches(messageMakers, line)
        || (previousIsSite && (trimmed.hasPrefix("+") || (previousIsOpen && trimmed.hasPrefix("\""))))
      previousIsSite = isSite
      previousIsOpen = trimmed.hasSuffix("+") || trimmed.hasSuffix("(") || trimmed.hasSuffix(",")
      guard isSite else { continue }
      for expression in interpolations(line) where !isSafe(expression) {
        found.append(Offence(file: file, line: index + 1, expression: expression))
      }
    }
    return found
  }

  /// Every Swift file under `Sources/` but the escaping function itself and the test helpers
  /// (whose messages go to a test run's log, not to a user).
  static func sourceFiles() throws -> [URL] {
    let enumerator = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
    return enumerator.compactMap { $0 as? URL }
      .filter { $0.pathExtension == "swift" && !$0.path.contains("/FlickTestSupport/") }
      .filter { !$0.path.contains("/FlickExpectations/") }
      .filter { $0.lastPathComponent != "MessageText.swift" }
      .sorted { $0.path < $1.path }
  }

  @Test func everyMessageSiteEchoesInputThroughTheEscapingFunction() throws {
    let files = try Self.sourceFiles()
    expectGreater(files.count, 200, "Sources/ not found at \(Self.sources.path)")
    var offences: [Offence] = []
    for url in files {
      let text = try String(contentsOf: url, encoding: .utf8)
      offences += Self.offences(in: text, file: String(url.path.dropFirst(Self.sources.path.count + 1)))
    }
    let list = offences.map(\.description).joined(separator: "\n")
    #expect(offences.isEmpty, "interpolated without MessageText/TemplateText:\n\(list)")
  }

  /// The scanner itself: it finds what it is meant to find, and passes what it is meant to pass.
  @Test func theScannerFindsRawInterpolationsInMessages() {
    let source = #"""
      enum E: Error, CustomStringConvertible {
        case a(String)
        var description: String {
          switch self { case .a(let name): return "bad \(name)" }
        }
      }
      func f(node: N, key: String, count: Int) throws {
        throw node.error("unknown key '\(key)' after \(count) keys")
        throw node.error("unknown key '\(quoted: key)' after \(count) keys")
        log("wrote "
          + "\(path)")
        let ok = "not a message \(key)"
      }
      """#
    let found = Self.offences(in: source, file: "x.swift").map { "\($0.line) \($0.expression)" }
    expectEqual(found, ["4 name", "8 key", "11 path"])
  }
}
