import FlickMotion
import FlickScene
import Foundation

extension Template {
  /// Keys of a `lottie` layer.
  static let lottieKeys = ["source", "frame", "progress", "speed", "loop", "beginTime"]
  /// A `lottie` layer's `speed` (× the file's rate; negative plays backwards).
  static let lottieSpeedRange: ClosedRange<Double> = -100...100
  /// A `lottie` layer's `beginTime`, scene seconds.
  static let lottieBeginTimeRange: ClosedRange<Double> = -1e6...1e6

  /// Decodes a `lottie` layer's content: `source` (a Lottie file in the template's folder),
  /// the first frame shown (`frame`, or `progress` 0…1), how it plays by itself (`speed`,
  /// default 1; 0 holds the frame for the timeline to drive), from when (`beginTime`, seconds)
  /// and whether it loops (`loop`, default false). Without a `size` the layer takes the
  /// composition's.
  static func decodeLottie(_ node: TemplateNode, _ o: [String: TemplateNode], into layer: inout Layer)
    throws(TemplateError)
  {
    guard let sourceNode = o["source"] else {
      throw node.error("a lottie layer needs a 'source': the Lottie file (.json) to draw")
    }
    let written = try sourceNode.string()
    guard !written.isEmpty else { throw sourceNode.error("a Lottie file path cannot be empty") }
    let path = try sourceNode.assetPath(kind: "Lottie file")
    let file: LottieFile
    do {
      file = try LottieFile.load(path: path, maximumPixels: node.context.limits.maximumImagePixels)
      try file.requireSupported()
    } catch {
      let place = error.line.map { " (line \($0), column \(error.column ?? 0))" } ?? ""
      throw sourceNode.error("Lottie file \"\(quoted: written)\"\(escaped: place): \(escaped: error.message)")
    }
    if o["frame"] != nil, let p = o["progress"] {
      throw p.error("give 'frame' or 'progress', not both")
    }
    var content = LottieContent(
      path: path, size: file.size, frameCount: file.frameCount, frameRate: file.frameRate, speed: 1)
    if let n = o["frame"] { content.frame = try n.double(in: 0...Double(file.frameCount - 1)) }
    if let n = o["progress"] { content.progress = try n.double(in: 0...1) }
    if let n = o["speed"] { content.speed = try n.double(in: Self.lottieSpeedRange) }
    if let n = o["beginTime"] { content.beginTime = try n.double(in: Self.lottieBeginTimeRange) }
    if let n = o["loop"] { content.loops = try n.bool() }
    if o["size"] == nil { layer.bounds.size = file.size }
    layer.content = .lottie(content)
  }

  /// The animations that play Lottie layers by themselves (``LottieContent/clock(layerID:)``),
  /// masks and the layers inside them included, in tree order, placed before the timeline's so
  /// an animation of `frame` or `progress` wins over them.
  static func lottieClocks(_ layers: [Layer]) -> [LayerAnimation] {
    LayersInTreeOrder(layers).compactMap { $0.lottie?.clock(layerID: $0.id) }
  }
}
