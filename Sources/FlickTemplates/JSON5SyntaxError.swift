import FlickMotion

/// A JSON5 syntax error at a 1-based line and column.
package struct JSON5SyntaxError: Error, Equatable, CustomStringConvertible {
  package var message: String
  package var line: Int
  package var column: Int
  /// The message without any text of the input (no quoted word, key or character), for files
  /// whose content must never be shown: data, variants and params files a manifest names.
  package var plainMessage: String

  /// For an error that is about a member (a duplicate key): the JSON path of the member, built
  /// as the error leaves each enclosing object and array (innermost last); the message gets it
  /// as a `timeline[0].set.opacity: ` prefix once parsing has failed.
  var memberPath: [String]?

  /// The error inside the member `key` of an object, or the item `[index]` of an array.
  func inside(_ component: String) -> JSON5SyntaxError {
    guard let memberPath else { return self }
    var out = self
    out.memberPath = [component] + memberPath
    return out
  }

  /// The error with its message prefixed by its ``memberPath``, if it has one.
  func withPathPrefix() -> JSON5SyntaxError {
    guard let memberPath, !memberPath.isEmpty else { return self }
    var path = ""
    for component in memberPath {
      path += component.hasPrefix("[") || path.isEmpty ? component : "." + component
    }
    var out = self
    out.message = TemplateText.quoted(path) + ": " + message
    out.memberPath = nil
    return out
  }

  package init(message: String, line: Int, column: Int, plain: String? = nil) {
    self.message = message
    self.line = line
    self.column = column
    self.plainMessage = plain ?? message
  }

  package var description: String { "\(line):\(column): \(escaped: message)" }

  /// Errors are equal when they say the same at the same place (``plainMessage`` is derived).
  package static func == (a: JSON5SyntaxError, b: JSON5SyntaxError) -> Bool {
    a.message == b.message && a.line == b.line && a.column == b.column
  }
}
