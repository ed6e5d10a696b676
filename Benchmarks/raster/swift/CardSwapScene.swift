import FlickMotion
import FlickScene
import Foundation

/// The card-swap benchmark scene built from Flick's public API: a gradient background, four
/// rounded cards with gradient fills and soft shadows, a scaled, rotating and clipped 512×512
/// picture, a progress ring and two lines of text moving with a card.
enum CardSwapScene {
  static func make(size: Size = Size(width: 1920, height: 1080), imagePath: String, duration: Double = 2) -> Scene {
    let k = size.width / 1920
    func c(_ hex: String) -> Color { Color(hex: hex) ?? .black }
    let background = Layer(
      id: "background", bounds: Rect(origin: .zero, size: size),
      position: Point(x: size.width / 2, y: size.height / 2),
      content: .gradient(GradientContent(
        colors: [c("#0F172A"), c("#312E81"), c("#0E7490")], locations: [0, 0.55, 1],
        startPoint: Point(x: 0, y: 0), endPoint: Point(x: 1, y: 1))))
    let palettes = [
      ("#F472B6", "#DB2777"), ("#60A5FA", "#2563EB"), ("#FBBF24", "#D97706"), ("#34D399", "#059669"),
    ]
    var cards: [Layer] = []
    let cardSize = Size(width: 360 * k, height: 480 * k)
    for (i, palette) in palettes.enumerated() {
      var card = Layer(
        id: "card\(i)", bounds: Rect(origin: .zero, size: cardSize),
        position: Point(x: size.width * (0.2 + 0.2 * Double(i)), y: size.height * 0.5),
        cornerRadius: 28 * k, zPosition: Double(4 - i),
        shadowColor: c("#020617"), shadowOpacity: 0.45, shadowRadius: 22 * k, shadowOffset: Point(x: 0, y: 18 * k),
        masksToBounds: true,
        content: .gradient(GradientContent(colors: [c(palette.0), c(palette.1)], startPoint: Point(x: 0, y: 0), endPoint: Point(x: 1, y: 1))))
      if i == 0 {
        card.sublayers = [
          Layer(
            id: "photoFrame", bounds: Rect(x: 0, y: 0, width: 300 * k, height: 260 * k),
            position: Point(x: cardSize.width / 2, y: 160 * k), cornerRadius: 20 * k, masksToBounds: true,
            sublayers: [
              Layer(
                id: "photo", bounds: Rect(x: 0, y: 0, width: 512, height: 512),
                position: Point(x: 150 * k, y: 130 * k), transform: LayerTransform(scale: Point(x: 0.75 * k, y: 0.75 * k)),
                contents: LayerImage(path: imagePath), contentsGravity: .resizeAspectFill)
            ]),
          Layer(
            id: "title", bounds: Rect(x: 0, y: 0, width: 300 * k, height: 44 * k), position: Point(x: cardSize.width / 2, y: 332 * k),
            content: .text(TextContent(string: "Northern Lights", fontFamily: "Inter", fontSize: 32 * k, fontWeight: .bold, textColor: .white))),
          Layer(
            id: "subtitle", bounds: Rect(x: 0, y: 0, width: 300 * k, height: 30 * k), position: Point(x: cardSize.width / 2, y: 374 * k),
            content: .text(TextContent(string: "Tromsø · 14 photos · 3 min read", fontFamily: "Inter", fontSize: 20 * k, textColor: c("#FFFFFFCC")))),
        ]
      }
      cards.append(card)
    }
    let ring = Layer(
      id: "ring", bounds: Rect(x: 0, y: 0, width: 120 * k, height: 120 * k),
      position: Point(x: size.width - 120 * k, y: 120 * k),
      content: .shape(ShapeContent(
        path: .arc(center: Point(x: 60 * k, y: 60 * k), radius: 48 * k, startAngle: -.pi / 2, endAngle: 1.5 * .pi),
        fillColor: .clear, strokeColor: c("#A5F3FC"), lineWidth: 12 * k, lineCap: .round, strokeEnd: 0)))
    let track = Layer(
      id: "track", bounds: ring.bounds, position: ring.position,
      content: .shape(ShapeContent(
        path: .ellipse(in: Rect(x: 12 * k, y: 12 * k, width: 96 * k, height: 96 * k)),
        fillColor: .clear, strokeColor: c("#FFFFFF26"), lineWidth: 12 * k)))
    let start = cards[0].position
    let animations = [
      LayerAnimation(layerID: "card0", property: .position, beginTime: 0, duration: duration) { t in
        let p = TimingFunction.easeInEaseOut.progress(at: min(1, t / duration))
        return Point(x: start.x + 700 * k * p, y: start.y - 120 * k * sin(.pi * p))
      },
      LayerAnimation(layerID: "card0", property: .rotation, beginTime: 0, duration: duration) { t in
        0.12 * sin(.pi * min(1, t / duration))
      },
      LayerAnimation(layerID: "photo", property: .rotation, beginTime: 0, duration: duration) { t in 0.6 * t },
      LayerAnimation(layerID: "photo", property: .scaleXY, beginTime: 0, duration: duration) { t in
        let s = (0.75 + 0.15 * sin(t * 2)) * k
        return Point(x: s, y: s)
      },
      LayerAnimation(layerID: "ring", property: .strokeEnd, beginTime: 0, duration: duration) { t in min(1, t / duration) },
    ]
    return Scene(size: size, fps: 60, duration: duration, backgroundColor: .black, layers: [background] + cards + [track, ring], animations: animations)
  }
}
