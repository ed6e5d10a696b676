import FlickMotion
import FlickRaster
import FlickScene
import FlickTemplates
import Foundation

/// The load-time draw check every command that draws a template runs (`flick render`, `still`,
/// `info`, `snapshot`, `verify`, and `plan`/`run` for each job's template): one implementation in
/// the lowest module that sees both templates and the rasteriser.
extension Template {
  /// Checks, when a template is loaded, what drawing would otherwise find only at the first frame
  /// that needs it: every font file registers, every text layer's font family is installed (or
  /// comes from the template's fonts), every picture a layer names decodes (a trial decode,
  /// kept for drawing) and every Lottie file loads.
  ///
  /// - Throws: The first ``FlickRaster/RasterError`` found; ``located(_:)`` places it at the
  ///   member that names the font or file (callers report it as invalid input, exit 2).
  package func checkDrawable() throws(RasterError) {
    try Renderer().checkResources(of: scene.renderTree(at: 0))
  }

  /// `error` as `FILE:LINE:COL: json.path: message` at the member of the layer it concerns, when
  /// it concerns one, else its plain description.
  package func located(_ error: RasterError) -> String {
    site(of: error)?.error(error.description).description ?? error.description
  }

  /// Where in this template the member (or layer) that `error` concerns was written, or nil when
  /// it concerns none (a Cairo failure, an output).
  package func site(of error: RasterError) -> SourceSite? {
    switch error {
    case .unreadableFont(let path, _):
      // The registry names a file by the path it was given or by that path resolved.
      if let site = fontSites[path] { return site }
      let resolved = Self.resolved(path)
      return fontSites.first { Self.resolved($0.key) == resolved }?.value
    case .missingFontFamily(_, let layerID, _):
      return layerSites[layerID]?.site("fontFamily")
    case .unreadableImage(let path, _):
      return Self.layer(in: scene.layers) { $0.contents?.path == path }
        .flatMap { layerSites[$0.id]?.site("contents") }
    case .unreadableLottie(let path, _):
      return Self.layer(in: scene.layers) { $0.lottie?.path == path }
        .flatMap { layerSites[$0.id]?.site("source") }
    case .layer(let id, _), .textUnavailable(let id?, _):
      return layerSites[id]?.layer
    case .cairo, .unwritableImage, .invalidSize, .invalidScene, .textUnavailable(nil, _):
      return nil
    }
  }

  /// `path` with symbolic links resolved, as FontRegistry keys its files.
  private static func resolved(_ path: String) -> String {
    URL(fileURLWithPath: path).resolvingSymlinksInPath().standardizedFileURL.path
  }

  /// The first layer in tree order (sublayers and masks included) that `matches`.
  static func layer(in layers: [Layer], where matches: (Layer) -> Bool) -> Layer? {
    LayersInTreeOrder(layers).first(where: matches)
  }
}
