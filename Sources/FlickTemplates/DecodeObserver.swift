import FlickScene

/// Told what a template's decode has made as soon as it is made, before the rest compiles
/// (``TemplateOptions/decodeObserver``):
/// - the canvas (size, frame rate, background), before the layers: `flick render` starts its
///   encoders then, so ffmpeg's start-up runs beside the rest of the compile;
/// - the layers, with their model values and the scene's font files, before the timeline
///   compiles and the template's check runs: `flick still` has its text thread shape their text
///   then (``FlickRaster/SharedText``).
///
/// Each is called once per decode, on the decoding thread.
package final class DecodeObserver: Sendable, Equatable {
  private let canvas: (@Sendable (Scene) -> Void)?
  private let layers: (@Sendable (Scene) -> Void)?

  /// - Parameters:
  ///   - canvas: Called with the scene as the canvas makes it (no layers yet; `duration: "auto"`
  ///     not yet resolved).
  ///   - layers: Called with the scene once its layers are decoded and their constraints applied
  ///     (``FlickScene/Scene/layers`` and ``FlickScene/Scene/fontFiles`` set; no animations yet).
  package init(canvas: (@Sendable (Scene) -> Void)? = nil, layers: (@Sendable (Scene) -> Void)? = nil) {
    self.canvas = canvas
    self.layers = layers
  }

  func canvasDecoded(_ scene: Scene) { canvas?(scene) }

  func layersDecoded(_ scene: Scene) { layers?(scene) }

  package static func == (a: DecodeObserver, b: DecodeObserver) -> Bool { a === b }
}
