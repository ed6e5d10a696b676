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

  /// The scales at which a canvas of `size` points gives frames with both sides in
  /// ``pixelSides``, rounded inwards to 4 decimals (every scale in between gives whole sides of
  /// 1…16384), within ``maximumScale``: 0.0028…16 for a 640 × 360 canvas.
  package static func usableScales(for size: Size) -> ClosedRange<Double> {
    // No scale draws a canvas whose side is not a finite number above 0.
    guard size.width.isFinite, size.height.isFinite, min(size.width, size.height) > 0 else { return 0...0 }
    let lo = (10_000 * Double(pixelSides.lowerBound) / min(size.width, size.height)).rounded(.up) / 10_000
    let hi =
      (10_000 * min(maximumScale, Double(pixelSides.upperBound) / max(size.width, size.height))).rounded(.down)
      / 10_000
    return lo...max(lo, hi)
  }

  /// Why frames of a canvas of `size` points are refused at a scale that makes a side fall
  /// outside ``pixelSides``, naming the scale as `scale` (`--scale`, `the scale`) and its range
  /// for this canvas (``usableScales(for:)``): `each side must be 1…16384 pixels, so the scale
  /// must be in 0.0028…16`. `flick render`, `flick still`, `flick plan` and the studio give it.
  package static func sideRefusal(canvas size: Size, scale name: String) -> String {
    let usable = usableScales(for: size)
    return "each side must be \(pixelSides.lowerBound)…\(pixelSides.upperBound) pixels, so \(escaped: name) must be in "
      + "\(escaped: points(usable.lowerBound))…\(escaped: points(usable.upperBound))"
  }

  /// A length or scale for a message: a whole number without decimals (`320`), any other value
  /// as Swift writes it (`0.0028`, `nan`, `inf`, `1e+20`); never converted to an `Int` that
  /// cannot hold it.
  package static func points(_ v: Double) -> String {
    v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v)
  }

  /// The pixel size of a frame of a canvas `size` points large drawn at `scale`: each side
  /// rounded to the nearest pixel, as ``render(_:sharing:)`` draws it.
  package static func pixelSize(of size: Size, scale: Double) -> (width: Int, height: Int) {
    (CairoDraw.pixel((size.width * scale).rounded()), CairoDraw.pixel((size.height * scale).rounded()))
  }
}
