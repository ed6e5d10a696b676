import FlickMotion
import FlickRaster
import FlickVideo
import Foundation

extension Flick {
  /// The help line of `--scale`, the same for every command that takes it, from
  /// ``FlickRaster/Renderer/maximumScale``.
  static let scaleHelp =
    "pixels per canvas point, 0 < S ≤ \(Int(Renderer.maximumScale)) (e.g. 2 for 2×; 0.5 halves each side)"

  /// What `--scale` takes: a number in ``FlickRaster/Renderer/scaleRange``.
  static let scaleRule = NumberRule.decimal(0...Renderer.maximumScale, excludesLower: true)

  /// A `--scale` value (exit 2 for anything but a number in ``scaleRule``).
  static func scale(_ text: String) throws(CommandError) -> Double {
    try scaleRule.read(text, option: "--scale")
  }

  /// A `WIDTHxHEIGHT` size (`--size`, `--measure-pipe`): two whole numbers, each in
  /// `1…maximum`, in the grammar of every number (``NumberRule``), or nil.
  static func pixelSize(_ text: String, maximum: Int = 16384) -> (width: Int, height: Int)? {
    let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
    let side = NumberRule.whole(1...maximum)
    guard parts.count == 2, let w = DecimalText.optionValue(parts[0]), let h = DecimalText.optionValue(parts[1]),
      side.accepts(w), side.accepts(h)
    else { return nil }
    return (Int(w), Int(h))
  }
}

/// `flick render`'s arguments that are numbers: `--size`/`--scale`, `--frames` and whole-number
/// options, each refused with a usage message naming the flag and what it expects.
extension Flick.Render {
  /// What `--loop` takes besides `forever`.
  static let loopRule = NumberRule.whole(0...65535)

  /// The options that take a plain number, and what each takes.
  static let numbers: [String: NumberRule] = [
    "fps": .whole(1...240), "jobs": .whole(1...256), "crf": .whole(0...63), "loop": loopRule,
    "gif-fps": .whole(1...50), "gif-width": .whole(1...16384), "scale": Flick.scaleRule,
  ]

  /// The checks of every option with a number in its value, run as the arguments are parsed.
  static let checks: [String: Arguments.Check] = NumberRule.checks(numbers)
    .merging(Flick.templateChecks) { a, _ in a }
    .merging(Flick.sceneChecks) { a, _ in a }
    .merging(Flick.Limits.checks(Flick.Limits.renderCaps)) { a, _ in a }
    .merging([
      "loop": { text throws(CommandError) in if text != "forever" { _ = try loopRule.read(text, option: "--loop") } },
      "size": { text throws(CommandError) in _ = try outputSize(text) },
      "measure-pipe": { text throws(CommandError) in _ = try measuredSize(text) },
      "frames": { text throws(CommandError) in _ = try frameRange(text, frameCount: nil) },
      "max-size": { text throws(CommandError) in _ = try maxSize(text) },
    ]) { _, b in b }

  /// The pixel size of `--size WxH`.
  static func outputSize(_ text: String) throws(CommandError) -> (width: Int, height: Int) {
    guard let size = Flick.pixelSize(text) else {
      throw CommandError.usage(
        "--size expects WIDTHxHEIGHT in pixels (each 1…16384) such as 1920x1080, found '\(quoted: text)'")
    }
    return size
  }

  /// The size of `--measure-pipe WxH`.
  static func measuredSize(_ text: String) throws(CommandError) -> (width: Int, height: Int) {
    guard let size = Flick.pixelSize(text) else {
      throw CommandError.usage(
        "--measure-pipe expects WIDTHxHEIGHT in pixels (each 1…16384) such as 1920x1080, found '\(quoted: text)'")
    }
    return size
  }

  /// The budget of `--max-size` (exit 2 for a size it does not read).
  static func maxSize(_ text: String) throws(CommandError) -> OutputBudget {
    do {
      return try OutputBudget.parse(text)
    } catch {
      throw CommandError.usage(error.description)
    }
  }

  /// The scale of `--size` or `--scale` (1 without either). `evenSides`: an output needs even
  /// sides (an MP4 without `--pad`), so a size advised for a `--size` that changes the aspect
  /// ratio has them (``FlickVideo/OutputSize/advised(forWidth:canvas:evenSides:)``).
  static func outputScale(_ a: Arguments, canvas: Size, evenSides: Bool) throws -> Double {
    switch (a.value("size"), a.value("scale")) {
    case (.some, .some):
      throw CommandError.usage("give --size or --scale, not both")
    case (.some(let text), nil):
      let (w, h) = try outputSize(text)
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
  /// Without `frameCount` (the arguments' check, before the scene is read) only the grammar.
  static func frameRange(_ text: String, frameCount: Int?) throws(CommandError) -> Range<Int> {
    let last = (frameCount ?? Int(Int32.max)) - 1
    let usage = "--frames expects A..B (inclusive whole frame numbers), A.., ..B or N, found '\(quoted: text)'"
    let bounds: (Int, Int)
    if let dots = text.range(of: "..") {
      let lo = text[..<dots.lowerBound]
      let hi = text[dots.upperBound...]
      guard let a = lo.isEmpty ? 0 : frameNumber(lo), let b = hi.isEmpty ? last : frameNumber(hi) else {
        throw CommandError.usage(usage)
      }
      bounds = (a, b)
    } else {
      guard let n = frameNumber(text[...]) else { throw CommandError.usage(usage) }
      bounds = (n, n)
    }
    guard frameCount == nil || (bounds.0 <= bounds.1 && bounds.1 <= last) else {
      throw CommandError.usage(
        "--frames \(quoted: text) is outside the scene's frames 0..\(quoted: last) (or ends before it starts)")
    }
    return bounds.0..<(bounds.1 + 1)
  }

  /// A frame number of `--frames`: a whole number ≥ 0 in the grammar of every number, or nil.
  static func frameNumber(_ text: Substring) -> Int? {
    guard let v = DecimalText.optionValue(text), NumberRule.whole(0...Int(Int32.max)).accepts(v) else { return nil }
    return Int(v)
  }
}
