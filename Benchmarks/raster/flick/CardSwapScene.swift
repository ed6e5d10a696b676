import FlickMotion
import FlickScene
import Foundation

/// The card-swap benchmark scene of `Benchmarks/raster/README.md`, built from Flick's public
/// layer API: the same design as `cardswap.c`, frame by frame.
enum CardSwapScene {
  static let design = Size(width: 1920, height: 1080)

  struct Card {
    let name: String
    let from: Color
    let to: Color
  }

  static func hex(_ s: String) -> Color { Color(hex: s) ?? .black }

  static let cards = [
    Card(name: "Aurora", from: hex("#7F5AF0"), to: hex("#2CB1BC")),
    Card(name: "Ember", from: hex("#FF8A5B"), to: hex("#E8456B")),
    Card(name: "Lagoon", from: hex("#3A86FF"), to: hex("#00C2A8")),
    Card(name: "Citrus", from: hex("#FFC857"), to: hex("#F4845F")),
  ]

  static func slotX(_ slot: Double) -> Double { 960 + (slot - 1.5) * 448 }

  static func backgroundStops(featured f: Int) -> [Color] {
    [
      hex("#0B1022"),
      hex("#161B3D").interpolated(to: cards[f].from, amount: 0.18),
      hex("#1B1F4A").interpolated(to: cards[f].to, amount: 0.45),
    ]
  }

  /// The scene at time `t` (seconds) on a canvas of `size` pixels: the 1920×1080 design scaled
  /// uniformly and centred.
  static func tree(at t: Double, size: Size, imagePath: String) -> RenderTree {
    let cycle = (t / 3).rounded(.down)
    let u = t - 3 * cycle
    let first = Int(cycle) % 4
    let s = u < 2.25 ? 0 : TimingFunction.easeInEaseOut.progress(at: (u - 2.25) / 0.75)
    let from = backgroundStops(featured: first)
    let to = backgroundStops(featured: (first + 1) % 4)
    let stops = zip(from, to).map { $0.interpolated(to: $1, amount: s) }
    let background = Layer(
      id: "background", bounds: Rect(origin: .zero, size: design),
      position: Point(x: design.width / 2, y: design.height / 2),
      content: .gradient(GradientContent(colors: stops, locations: [0, 0.55, 1], startPoint: .zero, endPoint: Point(x: 1, y: 1))))
    var layers = [background]
    // Back to front: slots 1, 2, 3, then the card leaving slot 0.
    for slot in [1, 2, 3, 0] {
      let index = (first + slot) % 4
      var x = slotX(Double(slot) - s)
      var y = 540.0
      if slot == 0 {
        x = slotX(3 * s)
        y -= 84 * sin(.pi * s)
      }
      y += 8 * sin(2 * .pi * (t / 3 + Double(index) / 4))
      layers.append(card(index, at: Point(x: x, y: y), t: t, imagePath: imagePath))
    }
    let k = min(size.width / design.width, size.height / design.height)
    let root = Layer(
      id: "root", bounds: Rect(origin: .zero, size: design), position: Point(x: size.width / 2, y: size.height / 2),
      transform: LayerTransform(scale: Point(x: k, y: k)), sublayers: layers)
    return RenderTree(size: size, backgroundColor: .black, layers: [root], time: t)
  }

  static func card(_ index: Int, at centre: Point, t: Double, imagePath: String) -> Layer {
    let spec = cards[index]
    var sublayers: [Layer] = []
    if index == 0 {
      let scale = 0.70 + 0.03 * sin(2 * .pi * t / 5)
      let image = Layer(
        id: "image", bounds: Rect(x: 0, y: 0, width: 512, height: 512), position: Point(x: 160, y: 160),
        transform: LayerTransform(scale: Point(x: scale, y: scale), rotation: 0.06 * sin(2 * .pi * t / 6)),
        contents: LayerImage(path: imagePath))
      sublayers.append(Layer(
        id: "clip", bounds: Rect(x: 0, y: 0, width: 320, height: 320), position: Point(x: 200, y: 200),
        cornerRadius: 24, masksToBounds: true, sublayers: [image]))
      sublayers.append(Layer(
        id: "title", bounds: Rect(x: 0, y: 0, width: 320, height: 50), position: Point(x: 40, y: 390), anchorPoint: .zero,
        content: .text(TextContent(string: "Northern Lights", fontFamily: "Inter", fontSize: 40, fontWeight: .semibold,
                                   textColor: .white, isWrapped: false))))
      sublayers.append(Layer(
        id: "subtitle", bounds: Rect(x: 0, y: 0, width: 320, height: 32), position: Point(x: 40, y: 444), anchorPoint: .zero,
        content: .text(TextContent(string: "Swap · Scale · Rotate", fontFamily: "Inter", fontSize: 24, fontWeight: .medium,
                                   textColor: Color(red: 1, green: 1, blue: 1, alpha: 0.78), isWrapped: false))))
    }
    if index == 1 {
      let p = 0.12 + 0.83 * (0.5 - 0.5 * cos(2 * .pi * t / 5))
      let circle = ShapePath.arc(center: Point(x: 200, y: 260), radius: 110, startAngle: -.pi / 2, endAngle: 1.5 * .pi)
      sublayers.append(Layer(
        id: "track", bounds: Rect(x: 0, y: 0, width: 400, height: 520), position: Point(x: 200, y: 260),
        content: .shape(ShapeContent(path: circle, fillColor: .clear, strokeColor: Color(red: 1, green: 1, blue: 1, alpha: 0.22), lineWidth: 20))))
      sublayers.append(Layer(
        id: "ring", bounds: Rect(x: 0, y: 0, width: 400, height: 520), position: Point(x: 200, y: 260),
        content: .shape(ShapeContent(path: circle, fillColor: .clear, strokeColor: .white, lineWidth: 20, lineCap: .round, strokeEnd: p))))
    }
    return Layer(
      id: spec.name, bounds: Rect(x: 0, y: 0, width: 400, height: 520), position: centre,
      cornerRadius: 36, shadowColor: hex("#05060F"), shadowOpacity: 0.45, shadowRadius: 18, shadowOffset: Point(x: 0, y: 28),
      content: .gradient(GradientContent(colors: [spec.from, spec.to], startPoint: .zero, endPoint: Point(x: 1, y: 1))),
      sublayers: sublayers)
  }
}
