import FlickMotion

extension Renderer {
  /// The sides a frame may have, in pixels (what Cairo's surfaces and the encoders take).
  package static let pixelSides = 1...16384

  /// The largest scale (pixels per canvas point) a command, a snapshot manifest, a batch
  /// manifest or the studio takes: every `--scale` is in (0, 16].
  package static let maximumScale = 16.0

  /// Whether `scale` is one frames may be drawn at: finite, above 0 and at most ``maximumScale``.
  package static func acceptsScale(_ scale: Double) -> Bool {
    scale.isFinite && scale > 0 && scale <= maximumScale
  }

  /// The scales accepted, for messages and help: `(0, 16]`.
  package static var scaleRange: String { "(0, \(Int(maximumScale))]" }

  /// The pixel size of a frame of a canvas `size` points large drawn at `scale`: each side
  /// rounded to the nearest pixel, as ``render(_:sharing:)`` draws it.
  package static func pixelSize(of size: Size, scale: Double) -> (width: Int, height: Int) {
    (CairoDraw.pixel((size.width * scale).rounded()), CairoDraw.pixel((size.height * scale).rounded()))
  }
}
