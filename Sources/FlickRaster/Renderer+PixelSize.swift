import FlickMotion

extension Renderer {
  /// The sides a frame may have, in pixels (what Cairo's surfaces and the encoders take).
  package static let pixelSides = 1...16384

  /// The pixel size of a frame of a canvas `size` points large drawn at `scale`: each side
  /// rounded to the nearest pixel, as ``render(_:sharing:)`` draws it.
  package static func pixelSize(of size: Size, scale: Double) -> (width: Int, height: Int) {
    (CairoDraw.pixel((size.width * scale).rounded()), CairoDraw.pixel((size.height * scale).rounded()))
  }
}
