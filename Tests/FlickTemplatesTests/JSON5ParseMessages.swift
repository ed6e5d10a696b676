import FlickTemplates
import Foundation

/// What parsing a JSON5 text gives, as the refusal tests read it: the error's text, or
/// `parsed` and the value when it parses.
enum JSON5ParseMessages {
  /// The error parsing `text` gives (`parsed …` when it parses).
  static func message(_ text: String) -> String {
    do {
      let value = try JSON5Parser.parse(text)
      return "parsed \(value)"
    } catch {
      return error.description
    }
  }
}
