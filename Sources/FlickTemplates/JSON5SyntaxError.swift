import FlickMotion

/// A JSON5 syntax error at a 1-based line and column.
package struct JSON5SyntaxError: Error, Equatable, CustomStringConvertible {
  package var message: String
  package var line: Int
  package var column: Int
  /// The message without any text of the input (no quoted word, key or character), for files
  /// whose content must never be shown: data, variants and params files a manifest names.
  package var plainMessage: String

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
