import FlickRaster
import FlickTemplates
import Foundation

extension Flick {
  /// `flick still TEMPLATE [--time S | --frame N | --at P%] -o FRAME.png`
  enum Still {
    static let help = """
      USAGE: flick still TEMPLATE [--time SECONDS | --frame N | --at P%] [--scale S] [-q] -o FRAME.png

      Renders one frame to a PNG (RGBA, straight alpha), written atomically.
        --time SECONDS   scene time, e.g. 0.5 or 1.25s (default 0)
        --frame N        frame number N (time N / fps), 0-based
        --at P%          a point of the duration, e.g. 50%; 100% is the last frame (also 0, 1.2s,
                         end, frame:N, as for snapshot --at); a time past the end is an error
        --scale S        pixels per canvas point (e.g. 2 for 2×)
        -q, --quiet      print nothing but errors (not the output path, no warnings)
        --strict         characters no installed font has are an error, not a warning
      TEMPLATE OPTIONS
      \(Flick.templateOptionsHelp)
      """

    static func run(_ args: [String]) throws {
      let a = try Arguments(
        args, valued: Flick.templateOptions.union(["o", "output", "time", "frame", "at", "scale"]),
        flags: Flick.templateFlags.union(["help", "h", "strict", "quiet", "q"]))
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
      let given = ["time", "frame", "at"].filter { a.value($0) != nil }
      guard given.count <= 1 else {
        throw CommandError.usage("give one of --time, --frame and --at, not \(given.map { "--" + $0 }.joined(separator: " and "))")
      }
      var scale = 1.0
      if let text = a.value("scale") {
        guard let s = Double(text), s.isFinite, s > 0, s <= 16 else {
          throw CommandError.usage("--scale expects a number in (0, 16] such as 2 or 0.5, found '\(text)'")
        }
        scale = s
      }
      let template = try loadTemplate(path, a)
      let scene = template.scene
      let quiet = a.has("quiet") || a.has("q")
      warnAboutAngles(path, quiet: quiet)
      try checkGlyphs(scene, strict: a.has("strict"), quiet: quiet)
      let time = try stillTime(a, scene)
      try checkOutputFolder(output)
      do {
        let frame = try Renderer(scale: scale).render(scene.renderTree(at: time))
        try frame.writePNG(to: output)
      } catch {
        throw CommandError(message: error.description, code: .environment)
      }
      if !quiet { print(output) }
    }
  }
}
