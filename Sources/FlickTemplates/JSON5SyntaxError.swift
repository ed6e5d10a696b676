import FlickMotion

/// A JSON5 syntax error at a 1-based line and column.
package struct JSON5SyntaxError: Error, Equatable, CustomStringConvertible {
  package var message: String
  package var line: Int
  package var column: Int
  /// The message without any text of the input (no quoted word, key or character), for files
  /// whose content must never be shown: data, variants and params files a manifest names.
  package var plainMessage: String

  /// The JSON path of where the error is, built as the error leaves each enclosing object and
  /// array (innermost last): the value being read when it is in one (`layers[0].size[1]`), else
  /// the object or array being read (`layers[0].size` for a missing `,`), and for a duplicate key
  /// its member. The message gets it as a `timeline[0].set.opacity: ` prefix once parsing has
  /// failed; an error in the top-level value itself has none.
  var memberPath: [String] = []

  /// The error inside the member `key` of an object, or the item `[index]` of an array.
  func inside(_ component: String) -> JSON5SyntaxError {
    var out = self
    out.memberPath = [component] + memberPath
    return out
  }

  /// The error with its message prefixed by its ``memberPath``, if it has one.
  func withPathPrefix() -> JSON5SyntaxError {
    guard !memberPath.isEmpty else { return self }
    var path = ""
    for component in memberPath {
      path += component.hasPrefix("[") || path.isEmpty ? component : "." + component
    }
    var out = self
    out.message = TemplateText.quoted(path) + ": " + message
    out.memberPath = []
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
