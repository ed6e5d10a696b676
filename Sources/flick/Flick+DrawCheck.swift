import FlickMotion
import FlickRaster
import FlickScene
import FlickTemplates

extension Flick {
  /// The template this run loaded (one per process), so that an error drawing one of its layers
  /// later (exit 3) is located at the layer: ``located(_:in:)``.
  static let loaded = Locked<Template?>(nil)

  /// Checks, when a template is loaded, what drawing would otherwise find only at the first frame
  /// that needs it: every font file registers, every text layer's font family is installed (or
  /// comes from the template's fonts), every picture a layer names decodes (a trial decode,
  /// kept for drawing) and every Lottie file loads. A failure is a located invalid-input error
  /// (exit 2) at the member that names the font or file, so `flick info` says OK only for a
  /// template that can draw, and a render fails before its first frame rather than with exit 3.
  static func checkDrawable(_ template: Template) throws(CommandError) {
    loaded.value = template
    do {
      try Renderer().checkResources(of: template.scene.renderTree(at: 0))
    } catch {
      throw CommandError(message: located(error, in: template), code: .invalidInput)
    }
  }

  /// `error` as `FILE:LINE:COL: json.path: message` at the member of the layer it concerns, when
  /// it concerns one.
  static func located(_ error: RasterError, in template: Template) -> String {
    let site: SourceSite?
    switch error {
    case .missingFontFamily(_, let layerID, _):
      site = template.layerSites[layerID]?.site("fontFamily")
    case .unreadableImage(let path, _):
      site = layer(in: template.scene.layers) { $0.contents?.path == path }
        .flatMap { template.layerSites[$0.id]?.site("contents") }
    case .unreadableLottie(let path, _):
      site = layer(in: template.scene.layers) { $0.lottie?.path == path }
        .flatMap { template.layerSites[$0.id]?.site("source") }
    case .layer(let id, _):
      site = template.layerSites[id]?.layer
    case .cairo, .unwritableImage, .invalidSize, .unreadableFont:
      site = nil
    }
    return site?.error(error.description).description ?? error.description
  }

  /// The first layer in tree order (sublayers and masks included) that `matches`.
  static func layer(in layers: [Layer], where matches: (Layer) -> Bool) -> Layer? {
    var stack = Array(layers.reversed())
    while let layer = stack.popLast() {
      if matches(layer) { return layer }
      if let mask = layer.mask { stack.append(mask) }
      stack.append(contentsOf: layer.sublayers.reversed())
    }
    return nil
  }
}
