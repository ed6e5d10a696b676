import FlickMotion
@testable import FlickTemplates
import FlickExpectations
import Foundation
import Testing

/// The one escaping function every message goes through (`MessageText`, `TemplateText` in
/// FlickTemplates): what it escapes, how it caps an echo, and that it stays linear on huge input.
@Suite struct MessageTextTests {
  /// Every kind of text a hostile template uses to forge or hide log lines.
  static let hostile = "a\u{1B}[31mb\rc\n::error file=x::forged\u{0}d\u{2028}e\u{202E}f\u{7F}g\u{85}"

  @Test func hostileTextBecomesOneVisibleLine() {
    let out = MessageText.escaped(Self.hostile)
    expectEqual(out, #"a\u{1B}[31mb\rc\n::error file=x::forged\u{0}d\u{2028}e\u{202E}f\u{7F}g\u{85}"#)
    #expect(!out.unicodeScalars.contains { MessageText.needsEscape($0) })
    expectEqual(MessageText.escaped(out), out)
    expectEqual(TemplateText.escaped("héllo ✓ 日本 👩‍💻"), "héllo ✓ 日本 👩‍💻")
  }

  /// 1.5 million scalars that each need an escape: the old escaping appended each escape to a
  /// scalar view, which copied the whole text every time (0.75 s at 60,000, minutes here). The
  /// escaping is one pass into one buffer (0.2–0.4 s here in the debug build); this checks it is
  /// correct at a size the quadratic form cannot escape within a minute of CPU time.
  ///
  /// The bound is the CPU time of the thread that escapes, taken around the call, not Swift
  /// Testing's `.timeLimit`: that clock starts when the test's body is queued for one of the
  /// runner's threads (as many as cores, every test queued at the start, first in, first out),
  /// and in a `make test` from a clean clone this test's 0.4 s waited there past the minute.
  @Test func escapingHugeTextIsCorrect() {
    let unit = "x\n\u{202E}"
    let text = String(repeating: unit, count: 500_000)
    let start = Self.threadCPUSeconds()
    let out = MessageText.escaped(text)
    expectLess(Self.threadCPUSeconds() - start, 60, "seconds of CPU to escape 1.5 million scalars")
    expectEqual(out.utf8.count, 500_000 * #"x\n\u{202E}"#.utf8.count)
    #expect(out.hasPrefix(#"x\n\u{202E}x\n"#))
    #expect(out.hasSuffix(#"\u{202E}"#))
    #expect(!out.unicodeScalars.contains { MessageText.needsEscape($0) })
  }

  /// CPU time the calling thread has used (`CLOCK_THREAD_CPUTIME_ID`), in seconds.
  static func threadCPUSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
  }

  @Test func anEchoIsCappedWithItsLength() {
    let long = String(repeating: "k", count: 1_500_000)
    let out = MessageText.quoted(long)
    expectEqual(out, String(repeating: "k", count: 200) + "… (1500000 characters)")
    // The cap counts scalars, so one "character" of a million combining marks is cut too.
    let zalgo = "e" + String(repeating: "\u{301}", count: 1_000_000)
    expectLess(MessageText.quoted(zalgo).unicodeScalars.count, 240)
    // Short text is only escaped; the cap applies before escaping, so escapes are never cut.
    expectEqual(MessageText.quoted("a\nb"), #"a\nb"#)
    let escapes = String(repeating: "\u{1B}", count: 300)
    expectEqual(MessageText.quoted(escapes, limit: 2), #"\u{1B}\u{1B}… (300 characters)"#)
    expectEqual("'\(quoted: long, limit: 3)'", "'kkk… (1500000 characters)'")
    expectEqual("\(quoted: 42)", "42")
  }

  @Test func listsCapTheirNamesAndTheirCount() {
    let names = [String(repeating: "n", count: 10_000), "a\nb"] + (0..<30).map(String.init)
    let out = TemplateText.list(names)
    expectLess(out.count, 600)
    #expect(out.hasPrefix(String(repeating: "n", count: 200) + "… (10000 characters), a\\nb, 0, 1"))
    #expect(out.hasSuffix(", … and 12 more"))
  }

  @Test func aLogEntryCannotStartALineAtColumnZero() {
    let entry = MessageText.logEntry("bad\n::error::forged\r\n  ffmpeg: detail")
    expectEqual(entry, "bad\n  ::error::forged\\r\n  ffmpeg: detail")
    #expect(!entry.split(separator: "\n").dropFirst().contains { !$0.hasPrefix("  ") })
  }

  /// A template error's description is one line whatever it carries: its file, JSON path and
  /// message are escaped, echoes are capped, and the whole message is capped too.
  @Test func templateErrorsAreOneBoundedLine() {
    let huge = String(repeating: "z", count: 1_500_000)
    let e = TemplateError(file: "t\n.json5", path: "layers[0].\(huge)", line: 3, column: 4, message: huge + "\n::error")
    let d = e.description
    #expect(!d.contains("\n"))
    #expect(d.hasPrefix(#"t\n.json5:3:4: layers[0].zzz"#))
    expectLess(d.utf8.count, 2_500)
    #expect(d.hasSuffix("… (1500008 characters)"))
  }

  /// An unknown key of 1.5 MB (the issue's example) gives a message of a few hundred bytes.
  @Test func hugeKeysAndValuesAreEchoedShort() throws {
    let key = String(repeating: "k", count: 1_500_000)
    let text = "{ flick: 1, canvas: { width: 10, height: 10, duration: 1 }, \(key): 1 }"
    let e = try #require(HostileInputTests.error(text))
    expectLess(e.description.utf8.count, 1_000, "\(e.description.utf8.count) bytes")
    #expect(e.description.contains("unknown key 'kkk"))
    let value = String(repeating: "v", count: 1_500_000)
    let bad =
      "{ flick: 1, canvas: { width: 10, height: 10, duration: 1 }, "
      + "layers: [{ id: 'a', contentsGravity: '\(value)' }] }"
    let f = try #require(HostileInputTests.error(bad))
    expectLess(f.description.utf8.count, 1_500, "\(f.description.utf8.count) bytes")
  }
}
