import FlickMotion
import FlickRaster
import FlickVideo
import Foundation

extension Flick {
  /// The help line of `--scale`, the same for every command that takes it, from
  /// ``FlickRaster/Renderer/maximumScale``.
  static let scaleHelp =
    "pixels per canvas point, 0 < S ≤ \(Int(Renderer.maximumScale)) (e.g. 2 for 2×; 0.5 halves each side)"

  /// A `--scale` value: a number in ``FlickRaster/Renderer/scaleRange`` (exit 2 otherwise).
  static func scale(_ text: String) throws(CommandError) -> Double {
    guard let s = Double(text), Renderer.acceptsScale(s) else {
      throw CommandError.usage(
        "--scale expects a number in \(escaped: Renderer.scaleRange) such as 2 or 0.5, found '\(quoted: text)'")
    }
    return s
  }
}

/// `flick render`'s arguments that are numbers: `--size`/`--scale`, `--frames` and whole-number
/// options, each refused with a usage message naming the flag and what it expects.
extension Flick.Render {
  /// The scale of `--size` or `--scale` (1 without either). `evenSides`: an output needs even
  /// sides (an MP4 without `--pad`), so a size advised for a `--size` that changes the aspect
  /// ratio has them (``FlickVideo/OutputSize/advised(forWidth:canvas:evenSides:)``).
  static func outputScale(_ a: Arguments, canvas: Size, evenSides: Bool) throws -> Double {
    switch (a.value("size"), a.value("scale")) {
    case (.some, .some):
      throw CommandError.usage("give --size or --scale, not both")
    case (.some(let text), nil):
      let parts = text.lowercased().split(separator: "x")
      guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), (1...16384).contains(w),
        (1...16384).contains(h)
      else {
        throw CommandError.usage("--size expects WIDTHxHEIGHT in pixels such as 1920x1080, found '\(quoted: text)'")
      }
      // One rule (OutputSize) for what --size takes and for the even size an MP4's refusal suggests.
      // The size advised is one it accepts, with even sides where an MP4 needs them.
      guard OutputSize.accepts(width: w, height: h, canvas: canvas) else {
        let problem =
          "--size \(w)x\(h) does not keep the canvas's \(Int(canvas.width))×\(Int(canvas.height)) aspect ratio; "
        let note = OutputSize.adviceNote(forWidth: w, canvas: canvas, evenSides: evenSides)
        guard let advised = OutputSize.advised(forWidth: w, canvas: canvas, evenSides: evenSides) else {
          throw CommandError.usage(problem + note)
        }
        throw CommandError.usage(problem + "use --size \(advised.width)x\(advised.height)" + note)
      }
      return OutputSize.scale(forWidth: w, canvas: canvas)
    case (nil, .some(let text)):
      return try Flick.scale(text)
    case (nil, nil):
      return 1
    }
  }

  /// Whether the frames must have even sides: an MP4 (H.264 in yuv420p) without `--pad`.
  static func evenSides(_ targets: [OutputTarget], _ a: Arguments) -> Bool {
    !a.has("pad") && targets.contains { $0.format == .mp4 }
  }

  /// Parses `A..B` (inclusive), `A..`, `..B` or `N` into frame numbers.
  static func frameRange(_ text: String, frameCount: Int) throws -> Range<Int> {
    let usage = "--frames expects A..B (inclusive frame numbers), A.., ..B or N, found '\(text)'"
    let bounds: (Int, Int)
    if let dots = text.range(of: "..") {
      let lo = text[..<dots.lowerBound]
      let hi = text[dots.upperBound...]
      guard let a = lo.isEmpty ? 0 : Int(lo), let b = hi.isEmpty ? frameCount - 1 : Int(hi) else {
        throw CommandError.usage(usage)
      }
      bounds = (a, b)
    } else {
      guard let n = Int(text) else { throw CommandError.usage(usage) }
      bounds = (n, n)
    }
    guard bounds.0 >= 0, bounds.0 <= bounds.1, bounds.1 < frameCount else {
      throw CommandError.usage(
        "--frames \(quoted: text) is outside the scene's frames 0..\(frameCount - 1) (or ends before it starts)")
    }
    return bounds.0..<(bounds.1 + 1)
  }

  static func integer(_ text: String, _ name: String, _ range: ClosedRange<Int>) throws -> Int {
    guard let v = Int(text), range.contains(v) else {
      throw CommandError.usage(
        "\(quoted: name) expects a whole number in "
          + "\(range.lowerBound)…\(range.upperBound), found '\(quoted: text)'")
    }
    return v
  }
}
