import FlickMotion
import FlickScene
import Foundation

/// The card-swap scene of `Benchmarks/raster/cardswap.c`, built from Flick's public API with
/// the parameters in `Benchmarks/raster/README.md` ("The scene: exact parameters").
///
/// Every card is a container layer (anchor at its top-left, so `position` is the corner the C
/// program translates to) holding a gradient "face" that casts the shadow, and the face's
/// decorations drawn above it in card coordinates: the clipped, rotating picture and two text
/// lines on card 0, the progress ring on card 1. Animations are closures of the scene time
/// that evaluate the README's formulas; `zPosition` reproduces the C drawing order.
enum CardSwapScene {
  /// Which parts to leave out, to estimate a stage's cost by difference (`--without`).
  struct Parts: Sendable {
    var background = true
    var shadows = true
    /// `false` fills the faces with a solid colour instead of the gradient.
    var gradientFills = true
    var image = true
    var text = true
    var ring = true
  }

  static let designSize = Size(width: 1920, height: 1080)
  static let cardSize = Size(width: 400, height: 520)
  static let cycle = 3.0
  static let rest = 2.25
  static let swap = 0.75

  /// Card gradients (`from`, `to`), by card index: Aurora, Ember, Lagoon, Citrus.
  static let palettes: [(from: Color, to: Color)] = [
    (hex("#7F5AF0"), hex("#2CB1BC")), (hex("#FF8A5B"), hex("#E8456B")),
    (hex("#3A86FF"), hex("#00C2A8")), (hex("#FFC857"), hex("#F4845F")),
  ]

  static func hex(_ s: String) -> Color { Color(hex: s) ?? .black }

  /// Straight-alpha mix of two opaque colours, `a + (b − a)·f`, as the C program's `mix`.
  static func mix(_ a: Color, _ b: Color, _ f: Double) -> Color {
    Color(
      red: a.red + (b.red - a.red) * f, green: a.green + (b.green - a.green) * f, blue: a.blue + (b.blue - a.blue) * f)
  }

  /// The swap cycle at scene time `t` (seconds): the card in slot 0 and the swap progress `s`.
  static func timeline(_ t: Double) -> (first: Int, s: Double) {
    let c = (t / cycle).rounded(.down)
    let u = t - c * cycle
    let first = Int(c.truncatingRemainder(dividingBy: 4))
    let s = u < rest ? 0 : TimingFunction.easeInEaseOut.progress(at: (u - rest) / swap)
    return (first, s)
  }

  static func slotX(_ slot: Double) -> Double { 960 + (slot - 1.5) * 448 }

  /// Top-left corner of card `i` at time `t`, in design pixels.
  static func cardOrigin(_ i: Int, _ t: Double) -> Point {
    let (first, s) = timeline(t)
    let slot = (i - first + 4) % 4
    var x: Double
    var y = 540 - cardSize.height / 2
    if slot == 0 {
      x = slotX(3 * s) - cardSize.width / 2
      y -= 84 * sin(.pi * s)
    } else {
      x = slotX(Double(slot) - s) - cardSize.width / 2
    }
    y += 8 * sin(2 * .pi * (t / 3 + Double(i) / 4))
    return Point(x: x, y: y)
  }

  /// Drawing order: slots 1, 2, 3 back to front, then the card in slot 0 on top.
  static func cardZ(_ i: Int, _ t: Double) -> Double {
    let slot = (i - timeline(t).first + 4) % 4
    return slot == 0 ? 4 : Double(slot)
  }

  static func backgroundStops(_ featured: Int) -> [Color] {
    [
      hex("#0B1022"),
      mix(hex("#161B3D"), palettes[featured].from, 0.18),
      mix(hex("#1B1F4A"), palettes[featured].to, 0.45),
    ]
  }

  static func backgroundColors(_ t: Double) -> ColorList {
    let (first, s) = timeline(t)
    let a = backgroundStops(first)
    let b = backgroundStops((first + 1) % 4)
    return ColorList(zip(a, b).map { mix($0, $1, s) })
  }

  /// The scene on a `width × height` pixel canvas; the 1920×1080 design is scaled uniformly
  /// and centred, as the C program does.
  static func make(width: Int, height: Int, imagePath: String, parts: Parts = Parts()) -> Scene {
    let w = Double(width)
    let h = Double(height)
    let k = min(w / designSize.width, h / designSize.height)
    let offset = Point(x: (w - designSize.width * k) / 2, y: (h - designSize.height * k) / 2)

    // The background covers the whole canvas; its axis runs from design (0, 0) to (1920, 1080).
    let background = Layer(
      id: "background", bounds: Rect(x: 0, y: 0, width: w, height: h), anchorPoint: .zero,
      isHidden: !parts.background,
      content: .gradient(
        GradientContent(
          colors: backgroundStops(0), locations: [0, 0.55, 1],
          startPoint: Point(x: offset.x / w, y: offset.y / h),
          endPoint: Point(x: (offset.x + designSize.width * k) / w, y: (offset.y + designSize.height * k) / h))))

    let cards = (0..<4).map { card($0, imagePath: imagePath, parts: parts) }
    let stage = Layer(
      id: "stage", bounds: Rect(origin: .zero, size: designSize), position: offset, anchorPoint: .zero,
      transform: LayerTransform(scale: Point(x: k, y: k)), sublayers: cards)

    var animations: [LayerAnimation] = []
    animations.append(
      LayerAnimation(layerID: "background", property: .colors, duration: cycle) { t in
        backgroundColors(t)
      })
    animations.append(
      LayerAnimation(layerID: "photo", property: .rotation, duration: cycle) { t in
        let angle: Double = 0.06 * sin(2 * Double.pi * t / 6)
        return angle
      })
    animations.append(
      LayerAnimation(layerID: "photo", property: .scaleXY, duration: cycle) { t in
        let s: Double = 0.70 + 0.03 * sin(2 * Double.pi * t / 5)
        return Point(x: s, y: s)
      })
    animations.append(
      LayerAnimation(layerID: "ringProgress", property: .strokeEnd, duration: cycle) { t in
        let p: Double = 0.12 + 0.83 * (0.5 - 0.5 * cos(2 * Double.pi * t / 5))
        return p
      })
    for i in 0..<4 {
      animations.append(LayerAnimation(layerID: "card\(i)", property: .position, duration: cycle) { cardOrigin(i, $0) })
      animations.append(LayerAnimation(layerID: "card\(i)", property: .zPosition, duration: cycle) { cardZ(i, $0) })
    }
    // The background layer paints every pixel, so the canvas itself needs no colour.
    return Scene(
      size: Size(width: w, height: h), fps: 60, duration: cycle,
      backgroundColor: parts.background ? .clear : .black, layers: [background, stage], animations: animations)
  }

  /// Card `i`: a container at the card's top-left with the face and its decorations.
  static func card(_ i: Int, imagePath: String, parts: Parts) -> Layer {
    let bounds = Rect(origin: .zero, size: cardSize)
    let palette = palettes[i]
    var face = Layer(
      id: "card\(i).face", bounds: bounds, anchorPoint: .zero, cornerRadius: 36,
      shadowColor: hex("#05060F"), shadowOpacity: parts.shadows ? 0.45 : 0,
      // Flick's shadowRadius is the Gaussian σ (as Core Animation); the C program's
      // "shadowRadius 36" is taken as σ = 18.
      shadowRadius: 18, shadowOffset: Point(x: 0, y: 28))
    if parts.gradientFills {
      face.content = .gradient(
        GradientContent(
          colors: [palette.from, palette.to], startPoint: Point(x: 0, y: 0), endPoint: Point(x: 1, y: 1)))
    } else {
      face.backgroundColor = palette.from
    }
    var sublayers = [face]
    if i == 0 {
      let photo = Layer(
        id: "photo", bounds: Rect(x: 0, y: 0, width: 512, height: 512), position: Point(x: 160, y: 160),
        contents: LayerImage(path: imagePath))
      sublayers.append(
        Layer(
          id: "photoClip", bounds: Rect(x: 0, y: 0, width: 320, height: 320), position: Point(x: 40, y: 40),
          anchorPoint: .zero, cornerRadius: 24, isHidden: !parts.image, masksToBounds: true, sublayers: [photo]))
      sublayers.append(
        textLine(
          "title", "Northern Lights", weight: .semibold, size: 40, color: .white, at: Point(x: 40, y: 390),
          isHidden: !parts.text))
      sublayers.append(
        textLine(
          "subtitle", "Swap \u{00B7} Scale \u{00B7} Rotate", weight: .medium, size: 24,
          color: Color(red: 1, green: 1, blue: 1, alpha: 0.78), at: Point(x: 40, y: 444), isHidden: !parts.text))
    } else if i == 1 {
      let circle = ShapePath.arc(
        center: Point(x: 200, y: 260), radius: 110, startAngle: -.pi / 2, endAngle: 1.5 * .pi, clockwise: true)
      sublayers.append(
        Layer(
          id: "ringTrack", bounds: bounds, anchorPoint: .zero, isHidden: !parts.ring,
          content: .shape(
            ShapeContent(
              path: circle, fillColor: .clear, strokeColor: Color(red: 1, green: 1, blue: 1, alpha: 0.22), lineWidth: 20
            ))))
      sublayers.append(
        Layer(
          id: "ringProgress", bounds: bounds, anchorPoint: .zero, isHidden: !parts.ring,
          content: .shape(
            ShapeContent(
              path: circle, fillColor: .clear, strokeColor: .white, lineWidth: 20, lineCap: .round, strokeEnd: 0.12))))
    }
    return Layer(id: "card\(i)", bounds: bounds, anchorPoint: .zero, sublayers: sublayers)
  }

  /// One unwrapped, left-aligned line of Inter whose layout's top-left is at `origin` (card coordinates).
  static func textLine(
    _ id: String, _ string: String, weight: TextContent.FontWeight, size: Double, color: Color, at origin: Point,
    isHidden: Bool
  ) -> Layer {
    Layer(
      id: id, bounds: Rect(x: 0, y: 0, width: 320, height: size * 1.5), position: origin, anchorPoint: .zero,
      isHidden: isHidden,
      content: .text(
        TextContent(
          string: string, fontFamily: "Inter", fontSize: size, fontWeight: weight, textColor: color, isWrapped: false)))
  }
}
