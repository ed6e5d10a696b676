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

  /// Hard stops (stops sharing a location) change colour on their exact angle: each side keeps
  /// its own colour up to the edge, instead of blending across the slices either side (about 5°,
  /// several device pixels at this radius). Three stops at one location jump from the first to
  /// the last; stops given out of order draw as sorted.
  @Test(arguments: [1.0, 2.0])
  func hardStopsChangeColourOnTheirAngle(scale: Double) throws {
    let yellow = Color(red: 1, green: 1, blue: 0)
    // (location, colour) in the order given: red to 0.3, blue to 0.7 (through yellow at 0.3,
    // which shows nowhere), then green.
    let stops: [(Double, Color)] = [
      (0.7, Raster.blue), (0.7, Raster.green), (0, Raster.red), (1, Raster.green), (0.3, Raster.red),
      (0.3, yellow), (0.3, Raster.blue),
    ]
    let sorted = stops.enumerated().sorted { ($0.element.0, $0.offset) < ($1.element.0, $1.offset) }.map(\.element)
    let layer = Layer(
      id: "c", bounds: Rect(x: 0, y: 0, width: 100, height: 100), position: Point(x: 50, y: 50),
      content: .gradient(
        GradientContent(
          kind: .conic, colors: sorted.map(\.1), locations: sorted.map(\.0),
          startPoint: Point(x: 0.5, y: 0.5), endPoint: Point(x: 1, y: 0.5))))
    let unsorted = Layer(
      id: "c", bounds: Rect(x: 0, y: 0, width: 100, height: 100), position: Point(x: 50, y: 50),
      content: .gradient(
        GradientContent(
          kind: .conic, colors: stops.map(\.1), locations: stops.map(\.0),
          startPoint: Point(x: 0.5, y: 0.5), endPoint: Point(x: 1, y: 0.5))))
    let renderer = Renderer(scale: scale)
    let frame = try renderer.render(Raster.tree([layer], width: 100, height: 100, background: .black))
    let sameFrame = try renderer.render(Raster.tree([unsorted], width: 100, height: 100, background: .black))
    expectEqual(frame.pixels == sameFrame.pixels, true, "stops out of order draw as sorted")
    var wrong: [String] = []
    var checked = 0
    for y in 0..<frame.height {
      for x in 0..<frame.width {
        let dx = (Double(x) + 0.5) / scale - 50
        let dy = (Double(y) + 0.5) / scale - 50
        guard dx * dx + dy * dy >= 16 else { continue }
        // Skip device pixels within 1.5 of a boundary's half-line (0, 0.3 and 0.7 of a turn).
        let near = [0, 0.3, 0.7].contains { f in
          let t = f * 2 * .pi
          return dx * cos(t) + dy * sin(t) > 0 && abs(dx * sin(t) - dy * cos(t)) * scale < 1.5
        }
        guard !near else { continue }
        var a = atan2(dy, dx) / (2 * .pi)
        if a < 0 { a += 1 }
        let want: (r: UInt8, g: UInt8, b: UInt8) = a < 0.3 ? (255, 0, 0) : a < 0.7 ? (0, 0, 255) : (0, 255, 0)
        let p = frame.rgba(x: x, y: y)
        checked += 1
        if abs(Int(p.r) - Int(want.r)) > 2 || abs(Int(p.g) - Int(want.g)) > 2 || abs(Int(p.b) - Int(want.b)) > 2 {
          wrong.append("(\(x), \(y)) \(p.r),\(p.g),\(p.b) not \(want.r),\(want.g),\(want.b)")
        }
      }
    }
    expectEqual(checked > 9000, true, "pixels checked: \(checked)")
    expectEqual(wrong.count, 0, "at scale \(scale): \(wrong.prefix(4))")
  }
}
