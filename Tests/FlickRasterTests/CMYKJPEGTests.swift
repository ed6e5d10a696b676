import FlickExpectations
import FlickMotion
import FlickRaster
import FlickScene
import Testing

/// CMYK JPEGs (libjpeg converts only YCbCr, RGB and greyscale to RGB) are decoded as CMYK and
/// converted with R = 255 (1 − C)(1 − K), G from M and B from Y.
@Suite struct CMYKJPEGTests {
  /// The fixtures' quadrants, top-left, top-right, bottom-left, bottom-right, as ink (C, M, Y, K
  /// out of 255), and the RGB the plain conversion gives them.
  static let quadrants: [(ink: (Int, Int, Int, Int), rgb: (Int, Int, Int))] = [
    ((0, 0, 0, 0), (255, 255, 255)),
    ((255, 0, 0, 0), (0, 255, 255)),
    ((0, 0, 0, 128), (127, 127, 127)),
    ((0, 200, 100, 50), (205, 44, 125)),
  ]

  /// Draws the 32 × 32 fixture `name` at 1:1 and checks the middle of each quadrant.
  func expectQuadrants(of name: String) throws {
    let path = Raster.fixtures.appendingPathComponent(name).path
    let layer = Layer(
      id: "cmyk", bounds: Rect(x: 0, y: 0, width: 32, height: 32), position: Point(x: 16, y: 16),
      contents: LayerImage(path: path))
    let frame = try Raster.render([layer], width: 32, height: 32, background: .black)
    for (i, q) in Self.quadrants.enumerated() {
      let p = frame.rgba(x: 8 + 16 * (i % 2), y: 8 + 16 * (i / 2))
      let got = (Int(p.r), Int(p.g), Int(p.b))
      let near = abs(got.0 - q.rgb.0) <= 6 && abs(got.1 - q.rgb.1) <= 6 && abs(got.2 - q.rgb.2) <= 6
      #expect(near, "\(name) quadrant \(i) ink \(q.ink): \(got), expected \(q.rgb)")
      expectEqual(p.a, 255)
    }
  }

  /// Pillow's CMYK save, with Adobe's APP14 marker and inverted values (255 − ink), as Photoshop
  /// writes them.
  @Test func adobeInvertedCMYKIsConvertedToRGB() throws {
    try expectQuadrants(of: "cmyk-quadrants-32.jpg")
  }

  /// The same colours without the Adobe marker, whose values are the ink itself.
  @Test func plainCMYKIsConvertedToRGB() throws {
    try expectQuadrants(of: "cmyk-plain-quadrants-32.jpg")
  }
}
