import FlickExpectations
import FlickMotion
import FlickTemplates
import Testing

/// Suggestions name the documented spelling for names from SwiftUI, CSS and Pop (issue 15, item 8).
@Suite struct SuggestionAliasTests {
  static func message(_ entry: String) -> String {
    let text = """
      { flick: 1, canvas: { width: 100, height: 100, duration: 1 }, layers: [{ id: "card", size: [10, 10] }],
        timeline: [\(entry)] }
      """
    do {
      _ = try Template.decode(text, file: "t.json5")
      return ""
    } catch {
      return error.description
    }
  }

  @Test(arguments: [
    ("easeInOut", "easeInEaseOut"), ("ease-in-out", "easeInEaseOut"), ("ease_in_out", "easeInEaseOut"),
    ("ease-in", "easeIn"), ("EaseOut", "easeOut"), ("ease", "default"),
  ])
  func curveAliases(_ written: String, _ documented: String) {
    let m = Self.message(#"{ target: "card", property: "opacity", to: 0, curve: "\#(written)" }"#)
    #expect(m.contains("did you mean '\(documented)'"), "\(written): \(m)")
  }

  @Test(arguments: [
    ("scale", "scaleXY"), ("translation", "translationXY"), ("alpha", "opacity"), ("rotate", "rotation"),
  ])
  func propertyAliases(_ written: String, _ documented: String) {
    let m = Self.message(#"{ target: "card", property: "\#(written)", to: 1 }"#)
    #expect(m.contains("did you mean '\(documented)'"), "\(written): \(m)")
  }

  @Test func typosStillUseTheEditDistance() {
    expectEqual(Suggestion.closest(to: "opactiy", in: ["opacity", "position"]), "opacity")
    #expect(Suggestion.closest(to: "zzzzzz", in: ["opacity"]) == nil)
  }
}
