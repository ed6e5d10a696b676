import FlickMotion
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

      The schema is built from the decoder's own descriptors (the layer keys, the animatable
      property catalogue and the timeline's entry kinds); Templates/schema.json is its output:
        flick schema > Templates/schema.json
      """

    static func run(_ args: [String]) throws {
      let a = try Arguments(args, valued: [], flags: ["help", "h"])
      if a.has("help") || a.has("h") {
        StandardStream.writeOutputLine(help)
        return
      }
      guard a.positionals.isEmpty else { throw CommandError.usage("schema takes no arguments") }
      // Built from the decoder's own descriptors (no file is read): Templates/schema.json is this
      // output, and a test keeps the committed file equal to it.
      StandardStream.writeOutput(Data(TemplateSchema.json.utf8))
    }
  }
}
