import Foundation

/// The command line of `flick-cardswap`: the same flags as `cardswap.c` (see its usage), plus
/// `--without` to leave stages out (run.sh `--ablate` estimates each stage's cost from that).
struct Options {
  var frames = 180
  var start = 0
  var width = 1920
  var height = 1080
  var png: String?
  var split = false
  var cached = false
  var checksum = false
  /// With `--cached`: every frame drawn whole, without damage regions (`--whole-frames`).
  var wholeFrames = false
  /// Stages left out of the scene (`--without`).
  var without: [String] = []
  var image: String

  /// The stages `--without` accepts, named as the C program's stage timers.
  static let stages = ["background", "shadow", "fill", "image", "text", "ring"]

  /// The scene parts to draw.
  var parts: CardSwapScene.Parts {
    var p = CardSwapScene.Parts()
    for stage in without {
      switch stage {
      case "background": p.background = false
      case "shadow": p.shadows = false
      case "fill": p.gradientFills = false
      case "image": p.image = false
      case "text": p.text = false
      default: p.ring = false
      }
    }
    return p
  }

  static let usage = """
    usage: flick-cardswap [--frames N] [--start I] [--width W --height H] [--png out.png]
                          [--split] [--cached [--whole-frames]] [--checksum] [--image in.png]
                          [--without S,...]
      --frames N       frames to render (default 180 = one 3 s swap cycle at 60 fps)
      --start I        first frame index (t = i / 60); default 0
      --width/--height canvas size in px (default 1920x1080; the scene scales uniformly)
      --png PATH       write the last rendered frame as PNG
      --split          accepted for run.sh; Flick's renderer has no per-stage timers, so the
                       stage fields print as 'na' (run.sh --ablate estimates them)
      --cached         render with one FrameRenderer (caches between frames) instead of a
                       stateless Renderer per frame
      --whole-frames   with --cached: draw every frame whole (no damage regions, which redraw
                       only where a frame differs from the one before)
      --checksum       print a FNV-1a hash over all rendered frames' pixels
      --image PATH     the 512x512 picture (default: Benchmarks/raster/image512.png)
      --without S,...  leave stages out: background, shadow, fill (solid instead of
                       gradient faces), image, text, ring

    """

  /// A usage error (exit code 2).
  struct Invalid: Error {
    let message: String
  }

  init(_ arguments: [String], defaultImage: String) throws(Invalid) {
    image = defaultImage
    var i = 0
    func value(_ flag: String) throws(Invalid) -> String {
      guard i + 1 < arguments.count else { throw Invalid(message: "\(flag) expects a value") }
      i += 1
      return arguments[i]
    }
    func integer(_ flag: String, _ range: ClosedRange<Int>) throws(Invalid) -> Int {
      let v = try value(flag)
      guard let n = Int(v), range.contains(n) else {
        throw Invalid(message: "\(flag) expects an integer in \(range.lowerBound)...\(range.upperBound), got '\(v)'")
      }
      return n
    }
    while i < arguments.count {
      let a = arguments[i]
      switch a {
      case "--frames": frames = try integer(a, 1...1_000_000)
      case "--start": start = try integer(a, 0...100_000_000)
      case "--width": width = try integer(a, 16...16384)
      case "--height": height = try integer(a, 16...16384)
      case "--png": png = try value(a)
      case "--image": image = try value(a)
      case "--split": split = true
      case "--cached": cached = true
      case "--checksum": checksum = true
      case "--whole-frames": wholeFrames = true
      case "--without":
        let list = try value(a).split(separator: ",").map(String.init)
        guard !list.isEmpty else { throw Invalid(message: "--without expects stage names") }
        if let bad = list.first(where: { !Options.stages.contains($0) }) {
          throw Invalid(
            message: "--without: unknown stage '\(bad)' (expected \(Options.stages.joined(separator: ", ")))")
        }
        without = list
      default: throw Invalid(message: "unknown option '\(a)'")
      }
      i += 1
    }
  }
}
