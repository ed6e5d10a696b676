import FlickTemplates

extension Flick {
  /// Options every command that reads a template accepts (values follow them).
  static let templateOptions: Set<String> = []
  /// Flags every command that reads a template accepts.
  static let templateFlags: Set<String> = []

  /// Loads the template at `path` with the template options given in `arguments`, mapping
  /// template errors to exit code 2.
  static func loadTemplate(_ path: String, _ arguments: Arguments) throws(CommandError) -> Template {
    do {
      return try Template.load(path: path)
    } catch {
      throw CommandError(message: error.description, code: .invalidInput)
    }
  }
}
