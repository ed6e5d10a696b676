/// A problem with a template or its parameters, located as precisely as possible.
///
/// The description reads like a compiler diagnostic:
///
///     Templates/hello.json5:12:14: timeline[0].to: expected an array of 2 numbers, found a string
public struct TemplateError: Error, Equatable, CustomStringConvertible {
  /// The template file, as given by the user (empty when parsing a string).
  public var file: String
  /// The JSON path of the offending value (`timeline[3].to`); empty for the whole document.
  public var path: String
  /// 1-based line, or 0 when unknown.
  public var line: Int
  /// 1-based column, or 0 when unknown.
  public var column: Int
  /// What is wrong and what was expected.
  public var message: String

  public init(file: String, path: String, line: Int = 0, column: Int = 0, message: String) {
    self.file = file
    self.path = path
    self.line = line
    self.column = column
    self.message = message
  }

  /// One line: control characters and other invisible text from the template are escaped, and
  /// the file and path are capped (``TemplateText/quoted(_:limit:)``), so the line cannot be split
  /// or recoloured by what it quotes. Sites quote the values they echo (capped at 200 scalars);
  /// the whole message is capped at ``messageLimit`` scalars as well, whatever a site forgot.
  public var description: String {
    var location = file.isEmpty ? "<template>" : TemplateText.quoted(file)
    if line > 0 { location += ":\(line):\(column)" }
    let message = TemplateText.quoted(message, limit: Self.messageLimit)
    return path.isEmpty ? location + ": " + message : location + ": " + TemplateText.quoted(path) + ": " + message
  }

  /// The most Unicode scalars of ``message`` a description shows.
  static let messageLimit = 2_000
}
