import FlickRaster
import FlickTemplates
import FlickVideo
import Foundation

extension Flick {
  /// `flick render TEMPLATE -o OUT...`
  enum Render {
    static let help = """
      USAGE: flick render TEMPLATE -o OUT [-o OUT]... [--quiet]

      Renders every frame of TEMPLATE once and encodes it into each output; the format follows
      the extension (.mp4, .gif). Outputs are written to a temporary file and renamed on success.
      """

    static func run(_ args: [String]) throws {
      let a = try Arguments(
        args, valued: Flick.templateOptions.union(["o", "output"]),
        flags: Flick.templateFlags.union(["help", "h", "quiet", "q"]))
      if a.has("help") || a.has("h") {
        print(help)
        return
      }
      guard a.positionals.count == 1, let path = a.positionals.first else {
        throw CommandError.usage(a.positionals.isEmpty ? "render needs a TEMPLATE" : "render takes one TEMPLATE")
      }
      let outputs = a.all("o") + a.all("output")
      guard !outputs.isEmpty else { throw CommandError.usage("render needs at least one output: -o out.mp4") }
      for output in outputs where OutputFormat(path: output) == nil {
        throw CommandError.usage(VideoError.unsupportedFormat(path: output).description)
      }
      let template = try loadTemplate(path, a)
      let quiet = a.has("quiet") || a.has("q")
      let session = RenderSession(scene: template.scene, outputs: outputs)
      do {
        try session.run { done, total in
          if !quiet && (done == total || done % max(1, total / 10) == 0) {
            log("rendering \(done)/\(total) frames")
          }
        }
      } catch let error as VideoError {
        throw CommandError(message: error.description, code: .environment)
      } catch let error as RasterError {
        throw CommandError(message: error.description, code: .environment)
      }
      for output in outputs { print(output) }
    }
  }
}
