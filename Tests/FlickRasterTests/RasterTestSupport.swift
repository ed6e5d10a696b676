import FlickMotion
import FlickRaster
import FlickScene
import Foundation

/// Shared helpers for the raster suites.
enum Raster {
  static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

  static func tree(_ layers: [Layer], width: Double = 200, height: Double = 200, background: Color = .white)
    -> RenderTree
  {
    RenderTree(size: Size(width: width, height: height), backgroundColor: background, layers: layers, time: 0)
  }

  static func render(_ layers: [Layer], width: Double = 200, height: Double = 200, background: Color = .white)
    throws(RasterError) -> Frame
  {
    try Renderer().render(tree(layers, width: width, height: height, background: background))
  }

  static func hex(_ s: String) -> Color { Color(hex: s) ?? .black }
  static let red = Color(red: 1, green: 0, blue: 0)
  static let blue = Color(red: 0, green: 0, blue: 1)
  static let green = Color(red: 0, green: 1, blue: 0)
}

extension Frame {
  /// Whether the pixel is within `tolerance` (per 8-bit channel) of `color` (opaque expected).
  func pixel(_ x: Int, _ y: Int, is color: Color, tolerance: Int = 2) -> Bool {
    let p = rgba(x: x, y: y)
    func near(_ a: UInt8, _ b: Double) -> Bool { abs(Int(a) - Int((b * 255).rounded())) <= tolerance }
    return near(p.r, color.red) && near(p.g, color.green) && near(p.b, color.blue) && near(p.a, color.alpha)
  }

  /// How dark the pixel is on a white background, `0` (white) … `1` (black), from its red channel.
  func darkness(_ x: Int, _ y: Int) -> Double { 1 - Double(rgba(x: x, y: y).r) / 255 }

  /// The bounding box of pixels that differ from `background` by more than `tolerance`.
  func inkBounds(background: Color, tolerance: Int = 8) -> (minX: Int, minY: Int, maxX: Int, maxY: Int, count: Int)? {
    var box: (Int, Int, Int, Int, Int)?
    for y in 0..<height {
      for x in 0..<width where !pixel(x, y, is: background, tolerance: tolerance) {
        if let b = box {
          box = (min(b.0, x), min(b.1, y), max(b.2, x), max(b.3, y), b.4 + 1)
        } else {
          box = (x, y, x, y, 1)
        }
      }
    }
    return box.map { (minX: $0.0, minY: $0.1, maxX: $0.2, maxY: $0.3, count: $0.4) }
  }
}

extension FrameRenderer {
  /// A caching renderer that draws every frame whole (no damage regions), for tests of the
  /// caches that work inside a whole frame (the kept static prefix, kept groups).
  static func wholeFrames(scale: Double = 1, pool: FramePool? = nil) -> FrameRenderer {
    let renderer = FrameRenderer(scale: scale, pool: pool)
    renderer.reusesPreviousFrame = false
    return renderer
  }
}
