import FlickMotion
import FlickScene
import FlickTemplates
import Foundation

extension Flick {
  /// `flick trace TEMPLATE --layer ID --property NAME [--fps N | --times T,…] [--format csv|json]`.
  enum Trace {
    static let help = """
      USAGE: flick trace TEMPLATE --layer ID --property NAME [--fps N | --times T,...]
                                  [--side right|left] [--format csv|json] [--set NAME=VALUE]...

      Prints the time, value and velocity (units and units/s) of one property of one layer, as
      the timeline computes them (analytically, not from pixels): at every frame of the canvas
      (t = n/fps; --fps samples at another rate over the same duration) or at the --times given
      (seconds, comma-separated). Any animatable property works, also through another name for
      the same state (positionX of a layer animated with position). Values are in the property's
      unit (points, radians, fractions, factors; the JSON names it).

      --side left reads each time as a left limit: the motion arriving at that instant, which
      an animation starting there takes over (compare it with the default, right, at a join).

      Columns: t, then value and velocity; a point, size, rect or colour has one column per
      component (value.x, value.y, velocity.x, velocity.y, …).

      OPTIONS
        --layer ID          the layer's id
        --property NAME     an animatable property (see docs/layers.md)
        --fps N             samples per second (default: the canvas fps)
        --times T,...       sample these scene times instead
        --side right|left   right (default): what shows at t; left: the limit just before t
        --format csv|json   default csv
      \(Flick.templateOptionsHelp)
      """

    static func run(_ args: [String]) throws {
      let a = try Arguments(
        args, valued: Flick.templateOptions.union(["layer", "property", "fps", "times", "format", "side"]),
        flags: Flick.templateFlags.union(["help", "h"]),
        checks: Flick.templateChecks.merging([
          "fps": fpsRule.check("fps"), "times": { text throws(CommandError) in _ = try Self.times(text) },
        ]) { _, b in b })
      if a.has("help") || a.has("h") {
        StandardStream.writeOutputLine(help)
        return
      }
      guard a.positionals.count == 1, let path = a.positionals.first else {
        throw CommandError.usage(
          a.positionals.isEmpty ? "trace needs a TEMPLATE" : "trace takes one TEMPLATE")
      }
      guard let layerID = a.value("layer") else { throw CommandError.usage("trace needs --layer ID") }
      guard let name = a.value("property") else {
        throw CommandError.usage("trace needs --property NAME (e.g. position, opacity)")
      }
      let format = a.value("format") ?? "csv"
      guard format == "csv" || format == "json" else {
        throw CommandError.usage("--format must be csv or json, found '\(quoted: format)'")
      }
      let side = a.value("side") ?? "right"
      guard side == "right" || side == "left" else {
        throw CommandError.usage("--side must be right or left, found '\(quoted: side)'")
      }
      var template = try loadTemplate(path, a, drawable: false)
      guard let property = AnyLayerProperty.named(name) else {
        let guess =
          LayerPropertyDescriptor.resolving(name).map { "; it is called '\($0.name)' here" }
          ?? Arguments.closest(to: name, in: AnyLayerProperty.names).map { "; did you mean '\($0)'?" } ?? ""
        throw CommandError.usage(
          "'\(quoted: name)' is not an animatable property\(escaped: guess) (properties: \(AnyLayerProperty.names.joined(separator: ", ")))"
        )
      }
      guard let layer = template.tracks.layer(layerID) else {
        let ids = allIDs(template.scene.layers)
        let guess = Arguments.closest(to: layerID, in: ids).map { "; did you mean '\($0)'?" } ?? ""
        throw CommandError.usage("no layer with id '\(quoted: layerID)'\(escaped: guess)")
      }
      if !property.applies(to: layer), let kind = property.contentKind {
        throw CommandError.usage(
          "'\(quoted: name)' is a property of \(kind.rawValue) layers, but '\(quoted: layerID)' is not a \(kind.rawValue) layer"
        )
      }
      let times = try sampleTimes(a, scene: template.scene)
      let samples = template.tracks.trace(
        property, layerID: layerID, at: times, limit: side == "left" ? .left : .right)
      StandardStream.writeOutputLine(
        format == "csv"
          ? TraceReport.csv(samples, property) : TraceReport.json(samples, property, layer: layerID, side: side))
    }

    /// Frame times at the canvas fps (or --fps), or the --times given.
    static func sampleTimes(_ a: Arguments, scene: Scene) throws(CommandError) -> [Double] {
      if let list = a.value("times") {
        if a.value("fps") != nil { throw CommandError.usage("give --fps or --times, not both") }
        return try times(list)
      }
      let fps = try a.number("fps", in: ["fps": fpsRule]) ?? Double(scene.fps)
      let count = TraceReport.sampleCount(duration: scene.duration, fps: fps)
      guard count <= TraceReport.maximumSamples else {
        throw CommandError.usage("\(count) samples is too many; lower --fps")
      }
      return TraceReport.frameTimes(duration: scene.duration, fps: fps)
    }

    /// What `--fps` takes.
    static let fpsRule = NumberRule.decimal(0...10_000, excludesLower: true)

    /// The times of `--times`: seconds in 0…3600 (`1.5` or `1.5s`), separated by commas.
    static func times(_ list: String) throws(CommandError) -> [Double] {
      var out: [Double] = []
      for item in list.split(separator: ",", omittingEmptySubsequences: false) {
        let text = item.trimmingCharacters(in: .whitespaces)
        let number = text.hasSuffix("s") ? String(text.dropLast()) : text
        guard let t = DecimalText.optionValue(number), (0...3600).contains(t) else {
          throw CommandError.usage("--times takes seconds in 0…3600 separated by commas, found '\(quoted: text)'")
        }
        out.append(t)
      }
      guard out.count <= 1_000_000 else { throw CommandError.usage("--times lists too many times") }
      return out
    }

    private static func allIDs(_ layers: [Layer]) -> [String] {
      layers.flatMap { [$0.id] + allIDs($0.sublayers) }
    }
  }
}
