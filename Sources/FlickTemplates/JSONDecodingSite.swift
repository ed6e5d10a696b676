import FlickMotion
import Foundation

/// Where in a JSON file a `JSONDecoder` error is (a plan, a goldens manifest): the line and column
/// of the value at the error's coding path, or of the first JSON syntax mistake, so a message can
/// say FILE:LINE:COL as a template's does.
package enum JSONDecodingSite {
  /// The 1-based line and column `error` (thrown by `JSONDecoder` decoding `data`) is about, or
  /// nil when it cannot be told.
  package static func locate(_ error: any Error, in data: Data) -> (line: Int, column: Int)? {
    guard let text = String(data: data, encoding: .utf8) else {
      return SourceText.firstInvalidUTF8(in: data)
    }
    let root: JSON5Value
    do {
      root = try JSON5Parser.parse(text)
    } catch {
      return (error.line, error.column)
    }
    guard let decoding = error as? DecodingError else { return strictJSONMistake(in: text) }
    let context: DecodingError.Context
    switch decoding {
    case .typeMismatch(_, let c), .valueNotFound(_, let c), .keyNotFound(_, let c), .dataCorrupted(let c): context = c
    @unknown default: return nil
    }
    if context.codingPath.isEmpty, case .dataCorrupted = decoding, let mistake = strictJSONMistake(in: text) {
      return mistake
    }
    var value = root
    for key in context.codingPath {
      if let index = key.intValue, case .array(let items) = value.kind, index < items.count {
        value = items[index]
      } else if case .object(let members) = value.kind, let member = members.first(where: { $0.key == key.stringValue })
      {
        value = member.value
      } else {
        break
      }
    }
    return value.line > 0 ? (value.line, value.column) : nil
  }

  /// The first place where `text`, which parses as JSON5, is not JSON: a comma before a closing
  /// bracket or brace (a trailing comma), a comment, a single-quoted string or an unquoted key.
  static func strictJSONMistake(in text: String) -> (line: Int, column: Int)? {
    let scalars = Array(text.unicodeScalars)
    var (line, column) = (1, 1)
    var i = 0
    var inString = false
    var pendingComma: (line: Int, column: Int)?
    while i < scalars.count {
      let c = scalars[i]
      if inString {
        if c == "\\" {
          i += 1
          column += 1
        } else if c == "\"" {
          inString = false
        }
      } else if c == "\"" {
        inString = true
        pendingComma = nil
      } else if c == "," {
        pendingComma = (line, column)
      } else if c == "]" || c == "}" {
        if let comma = pendingComma { return comma }
      } else if c == "/" || c == "'" {
        return (line, column)
      } else if !(c == " " || c == "\t" || c == "\n" || c == "\r") {
        pendingComma = nil
      }
      if c == "\n" {
        (line, column) = (line + 1, 1)
      } else {
        column += 1
      }
      i += 1
    }
    return nil
  }
}
