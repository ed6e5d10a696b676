import FlickExpectations
import FlickSnapshot
import Testing

/// The reports' one escaping (``SnapshotReport/xml(_:)``), for HTML text, attribute values and
/// `junit.xml`: a template's name, a layer id or a file name from a pull request stays text.
@Suite struct ReportEscapingTests {
  @Test(arguments: [
    // U+0D4E joins the `<` after it into one Character.
    ("\u{D4E}<img src=x onerror=alert(1)>", "\u{D4E}&lt;img src=x onerror=alert(1)&gt;"),
    // A combining mark joins the quote before it into one Character.
    ("a\"\u{301} injected=\"1", "a&quot;\u{301} injected=&quot;1"),
    ("'\u{301}&\u{301}>\u{301}", "&apos;\u{301}&amp;\u{301}&gt;\u{301}"),
    // Scalars XML 1.0 does not allow become visible text; tab and line breaks stay.
    ("bell\u{7} esc\u{1B} nul\u{0} \u{FFFE}", "bell\\u{7} esc\\u{1B} nul\\u{0} \\u{FFFE}"),
    ("tab\tcr\rlf\n", "tab\tcr\rlf\n"),
    ("Überblick — 卡片 🃏", "Überblick — 卡片 🃏"),
  ])
  func everyMarkupScalarIsAnEntity(input: String, expected: String) {
    expectEqual(SnapshotReport.xml(input), expected)
  }
}
