import FlickRaster
import FlickTemplates
import Foundation

extension Flick {
  /// `flick still TEMPLATE --time SECONDS -o FRAME.png`
  enum Still {
    static let help = """
      USAGE: flick still TEMPLATE [--time SECONDS] -o FRAME.png

      Renders the frame at scene time SECONDS (default 0) to a PNG.
      """

    static func run(_ args: [String]) throws {
      let a = try Arguments(
        args, valued: Flick.templateOptions.union(["o", "output", "time"]),
        flags: Flick.templateFlags.union(["help", "h"]))
      if a.has("help") || a.has("h") {
        print(help)
        return
      }
      guard a.positionals.count == 1, let path = a.positionals.first else {
        throw CommandError.usage("still needs one TEMPLATE")
      }
      guard let output = a.value("o") ?? a.value("output") else {
        throw CommandError.usage("still needs an output: -o frame.png")
      }
      guard output.lowercased().hasSuffix(".png") else {
        throw CommandError.usage("still writes PNG files; give an output ending in .png")
      }
      var time = 0.0
      if let text = a.value("time") {
        let trimmed = text.hasSuffix("s") ? String(text.dropLast()) : text
        guard let t = Double(trimmed), t.isFinite, t >= 0 else {
          throw CommandError.usage("--time expects seconds ≥ 0 such as 0.5 or 1.25s, found '\(text)'")
        }
        time = t
      }
      let template = try loadTemplate(path, a)
      do {
        let frame = try Renderer().render(template.scene.renderTree(at: time))
        try frame.writePNG(to: output)
      } catch {
        throw CommandError(message: error.description, code: .environment)
      }
      print(output)
    }
  }
}
