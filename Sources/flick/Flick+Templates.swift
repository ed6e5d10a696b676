import FlickMotion
import FlickTemplates

extension Flick {
  /// `flick templates`: the bundled templates with one-line descriptions.
  enum Templates {
    static let help = """
      USAGE: flick templates [--path]

      Lists the bundled templates with their descriptions. A bundled template's name can be
      given wherever a TEMPLATE path is accepted (flick render card-swap -o card.mp4).

      The bundled templates are found through the \(TemplateLibrary.environmentVariable) environment variable, or
      next to the flick binary (a Templates/ folder in an enclosing folder of the binary, or
      share/flick/Templates for an installed binary).

      OPTIONS
        --path    print only the templates folder
      """

    static func run(_ args: [String]) throws {
      let a = try Arguments(args, valued: [], flags: ["help", "h", "path"])
      if a.has("help") || a.has("h") {
        StandardStream.writeOutputLine(help)
        return
      }
      guard a.positionals.isEmpty else {
        throw CommandError.usage("templates takes no arguments")
      }
      guard let library = Flick.library else {
        throw CommandError(
          message:
            "cannot find the bundled templates; set \(TemplateLibrary.environmentVariable) to the Templates folder",
          code: .environment)
      }
      if a.has("path") {
        StandardStream.writeOutputLine(library.folder)
        return
      }
      // The library folder is the user's (FLICK_TEMPLATES may name a checkout): its file names and
      // descriptions are escaped and cut to one line like any echoed input.
      let names = library.names
      let width = names.map { MessageText.quoted($0).count }.max() ?? 0
      for name in names {
        let summary: String
        if let path = library.path(of: name) {
          do {
            summary = try Template.load(path: path).description
          } catch {
            summary = "(does not load: \(error.message))"
          }
        } else {
          summary = ""
        }
        let shown = MessageText.quoted(name)
        StandardStream.writeOutputLine(
          shown.padding(toLength: width + 2, withPad: " ", startingAt: 0) + MessageText.quoted(summary))
      }
    }
  }
}
