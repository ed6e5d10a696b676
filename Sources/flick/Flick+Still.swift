import FlickRaster
import FlickTemplates
import Foundation

extension Flick {
  /// `flick still TEMPLATE [--time S | --frame N | --at P%] -o FRAME.png`
  enum Still {
    static let help = """
      USAGE: flick still TEMPLATE [--time SECONDS | --frame N | --at P%] [--scale S] -o FRAME.png

      Renders one frame to a PNG (RGBA, straight alpha), written atomically.
        --time SECONDS   scene time, e.g. 0.5 or 1.25s (default 0)
        --frame N        frame number N (time N / fps), 0-based
        --at P%          a point of the duration, e.g. 50%; 100% is the last frame
        --scale S        pixels per canvas point (e.g. 2 for 2×)
        --strict         characters no installed font has are an error, not a warning
      TEMPLATE OPTIONS
      \(Flick.templateOptionsHelp)
      """

    static func run(_ args: [String]) throws {
      let a = try Arguments(
        args, valued: Flick.templateOptions.union(["o", "output", "time", "frame", "at", "scale"]),
        flags: Flick.templateFlags.union(["help", "h", "strict"]))
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
      try checkGlyphs(scene, strict: a.has("strict"), quiet: false)
      let last = scene.frameCount - 1
      var time = 0.0
      if let text = a.value("time") {
        let trimmed = text.hasSuffix("s") ? String(text.dropLast()) : text
        guard let t = Double(trimmed), t.isFinite, t >= 0 else {
          throw CommandError.usage("--time expects seconds ≥ 0 such as 0.5 or 1.25s, found '\(text)'")
        }
        time = t
      } else if let text = a.value("frame") {
        guard let n = Int(text), (0...last).contains(n) else {
          throw CommandError.usage("--frame expects a frame number in 0…\(last), found '\(text)'")
        }
        time = scene.time(ofFrame: n)
      } else if let text = a.value("at") {
        guard text.hasSuffix("%"), let p = Double(text.dropLast()), (0...100).contains(p) else {
          throw CommandError.usage("--at expects a percentage of the duration such as 50%, found '\(text)'")
        }
        // The frame nearest that point of the duration; 100% is the last frame (the end instant
        // itself is not a frame).
        let frame = min(last, Int((p / 100 * scene.duration * Double(scene.fps)).rounded()))
        time = scene.time(ofFrame: frame)
      }
      do {
        let frame = try Renderer(scale: scale).render(scene.renderTree(at: time))
        try frame.writePNG(to: output)
      } catch {
        throw CommandError(message: error.description, code: .environment)
      }
      print(output)
    }
  }
}
