import FlickExpectations
import FlickMotion
import FlickRaster
import FlickScene
import Foundation
import Testing

/// A conic gradient's colour at every device pixel is the colour of its exact angle from the
/// start direction, for every start direction and scale: at the seam, where the sweep ends at its
/// start, the end colour stays on its own side (Cairo's mesh rasteriser gave the last slice a
/// whole row or column of device pixels on the start side when the sweep started right or up).
@Suite struct ConicSeamTests {
  /// Red at the start of the sweep to blue at its end, expected at device pixel (`x`, `y`) of a
  /// sweep around (`cx`, `cy`) in points starting at angle `a0`, drawn at `scale`: the exact
  /// colour at the pixel's centre, or, within a device pixel of the seam, the average over the
  /// pixel's area (which the seam cuts in two).
  static func expectedRed(x: Int, y: Int, cx: Double, cy: Double, a0: Double, scale: Double) -> Double {
    func red(_ px: Double, _ py: Double) -> Double {
      let turn = 2 * Double.pi
      let a = (atan2(py / scale - cy, px / scale - cx) - a0).truncatingRemainder(dividingBy: turn)
      return 255 * (1 - (a < 0 ? a + turn : a) / turn)
    }
    // Distance in device pixels from the pixel's centre to the seam's half-line.
    let ux = cos(a0)
    let uy = sin(a0)
    let dx = Double(x) + 0.5 - cx * scale
    let dy = Double(y) + 0.5 - cy * scale
    guard dx * ux + dy * uy > -1, abs(dx * uy - dy * ux) < 1 else { return red(Double(x) + 0.5, Double(y) + 0.5) }
    // Fine enough that the samples a diagonal seam passes through change the mean by < 4 levels.
    let n = 32
    var sum = 0.0
    for j in 0..<n {
      for i in 0..<n {
        sum += red(Double(x) + (Double(i) + 0.5) / Double(n), Double(y) + (Double(j) + 0.5) / Double(n))
      }
    }
    return sum / Double(n * n)
  }

  @Test(arguments: [1.0, 2.0])
  func everyStartDirectionFollowsTheExactAngle(scale: Double) throws {
    // End points on the 100-point layer's edge around its centre, clockwise from pointing right;
    // the centre itself is the default, pointing up.
    let ends: [(Double, Double)] = [
      (1, 0.5), (1, 1), (0.5, 1), (0, 1), (0, 0.5), (0, 0), (0.5, 0), (1, 0), (0.5, 0.5), (1, 0.8),
    ]
    for (ex, ey) in ends {
      let layer = Layer(
        id: "c", bounds: Rect(x: 0, y: 0, width: 100, height: 100), position: Point(x: 50, y: 50),
        content: .gradient(
          GradientContent(
            kind: .conic, colors: [Raster.red, Raster.blue], startPoint: Point(x: 0.5, y: 0.5),
            endPoint: Point(x: ex, y: ey))))
      let frame = try Renderer(scale: scale).render(Raster.tree([layer], width: 100, height: 100, background: .black))
      let a0 = ex == 0.5 && ey == 0.5 ? -Double.pi / 2 : atan2((ey - 0.5) * 100, (ex - 0.5) * 100)
      var wrong: [String] = []
      for y in 0..<frame.height {
        for x in 0..<frame.width {
          let dx = (Double(x) + 0.5) / scale - 50
          let dy = (Double(y) + 0.5) / scale - 50
          guard dx * dx + dy * dy >= 4 else { continue }
          let red = Self.expectedRed(x: x, y: y, cx: 50, cy: 50, a0: a0, scale: scale)
          let p = frame.rgba(x: x, y: y)
          if abs(Double(p.r) - red) > 24 || abs(Double(p.b) - (255 - red)) > 24 {
            wrong.append("(\(x), \(y)) \(p.r),\(p.b) not \(Int(red.rounded())),\(Int((255 - red).rounded()))")
          }
        }
      }
      expectEqual(wrong.count, 0, "end point (\(ex), \(ey)) at scale \(scale): \(wrong.prefix(4))")
    }
  }
}
