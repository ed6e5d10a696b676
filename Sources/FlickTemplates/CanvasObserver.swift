import FlickScene

/// Told the template's canvas (size, frame rate, background) as soon as it is decoded, before
/// the layers and the timeline compile: `flick render` starts its encoders then, so ffmpeg's
/// start-up runs beside the rest of the compile (``TemplateOptions/canvasObserver``).
package final class CanvasObserver: Sendable, Equatable {
  private let body: @Sendable (Scene) -> Void

  /// - Parameter body: Called once per decode, on the decoding thread, with the scene as the
  ///   canvas makes it (no layers yet; `duration: "auto"` not yet resolved).
  package init(_ body: @escaping @Sendable (Scene) -> Void) { self.body = body }

  func canvasDecoded(_ scene: Scene) { body(scene) }

  package static func == (a: CanvasObserver, b: CanvasObserver) -> Bool { a === b }
}
