import FlickTemplates
import Foundation

extension Flick {
  /// `flick schema`: the JSON Schema of the template format.
  enum Schema {
    static let help = """
      USAGE: flick schema

      Prints the JSON Schema (draft 2020-12) of the template format, for editors that
      autocomplete and validate JSON5 files. Templates can point at it with a top-level
      "$schema" key.
      """

    static func run(_ args: [String]) throws {
      let a = try Arguments(args, valued: [], flags: ["help", "h"], command: "schema")
      if a.has("help") || a.has("h") {
        print(help)
        return
      }
      guard a.positionals.isEmpty else { throw CommandError.usage("schema takes no arguments", command: "schema") }
      guard let library = Flick.library,
        let data = FileManager.default.contents(atPath: library.schemaPath)
      else {
        throw CommandError(
          message: "cannot find Templates/schema.json; set \(TemplateLibrary.environmentVariable) to the Templates folder",
          code: .environment)
      }
      FileHandle.standardOutput.write(data)
    }
  }
}
