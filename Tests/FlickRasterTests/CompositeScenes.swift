import FlickMotion
import FlickRaster
import FlickScene
import Foundation

/// Small composite scenes used by the determinism, caching and golden suites.
enum CompositeScenes {
  static let photo = Raster.fixtures.appendingPathComponent("green-blue-16.png").path

  /// A card with a soft shadow, gradient fill, picture, two lines of text and a progress ring,
  /// moving and turning; a second card flips in 3D.
  static func cards(size: Size = Size(width: 320, height: 200)) -> Scene {
    let c = Raster.hex
    let background = Layer(
      id: "bg", bounds: Rect(origin: .zero, size: size), position: Point(x: size.width / 2, y: size.height / 2),
      content: .gradient(
        GradientContent(
          colors: [c("#0F172A"), c("#1E3A8A"), c("#0E7490")], locations: [0, 0.6, 1],
          startPoint: .zero, endPoint: Point(x: 1, y: 1))))
    let card = Layer(
      id: "card", bounds: Rect(x: 0, y: 0, width: 150, height: 120), position: Point(x: 110, y: 100),
      cornerRadius: 14, shadowColor: c("#020617"), shadowOpacity: 0.5, shadowRadius: 10,
      shadowOffset: Point(x: 0, y: 8),
      masksToBounds: true,
      content: .gradient(
        GradientContent(colors: [c("#F472B6"), c("#DB2777")], startPoint: .zero, endPoint: Point(x: 1, y: 1))),
      sublayers: [
        Layer(
          id: "photo", bounds: Rect(x: 0, y: 0, width: 64, height: 64), position: Point(x: 44, y: 44),
          cornerRadius: 10, masksToBounds: true, contents: LayerImage(path: photo), contentsGravity: .resizeAspectFill),
        Layer(
          id: "title", bounds: Rect(x: 0, y: 0, width: 130, height: 22), position: Point(x: 75, y: 94),
          content: .text(
            TextContent(
              string: "Northern Lights", fontFamily: "DejaVu Sans", fontSize: 14, fontWeight: .bold, textColor: .white))
        ),
        Layer(
          id: "subtitle", bounds: Rect(x: 0, y: 0, width: 130, height: 16), position: Point(x: 75, y: 110),
          content: .text(
            TextContent(
              string: "Tromsø · 14 photos", fontFamily: "DejaVu Sans", fontSize: 10, textColor: c("#FFFFFFCC")))),
        Layer(
          id: "ring", bounds: Rect(x: 0, y: 0, width: 44, height: 44), position: Point(x: 118, y: 36),
          content: .shape(
            ShapeContent(
              path: .arc(center: Point(x: 22, y: 22), radius: 16, startAngle: -.pi / 2, endAngle: 1.5 * .pi),
              fillColor: .clear, strokeColor: .white, lineWidth: 5, lineCap: .round, strokeEnd: 0.2))),
      ])
    var flip = Layer(
      id: "flip", bounds: Rect(x: 0, y: 0, width: 90, height: 120), position: Point(x: 250, y: 100),
      backgroundColor: c("#FBBF24"), cornerRadius: 12, borderWidth: 3, borderColor: c("#FFFFFF99"),
      shadowOpacity: 0.4, shadowRadius: 6, shadowOffset: Point(x: 0, y: 6),
      sublayers: [
        Layer(
          id: "flipLabel", bounds: Rect(x: 0, y: 0, width: 70, height: 20), position: Point(x: 45, y: 60),
          content: .text(
            TextContent(
              string: "FLIP", fontFamily: "DejaVu Sans", fontSize: 16, fontWeight: .bold, textColor: c("#78350F"),
              alignment: .center)))
      ])
    flip.transform.perspective = 300
    let animations = [
      LayerAnimation(
        layerID: "card", property: .position,
        tween: BasicAnimation(from: Point(x: 110, y: 100), to: Point(x: 130.5, y: 92.25), duration: 1)),
      LayerAnimation(layerID: "card", property: .rotation, tween: BasicAnimation(from: 0, to: 0.2, duration: 1)),
      LayerAnimation(layerID: "ring", property: .strokeEnd, tween: BasicAnimation(from: 0.2, to: 0.9, duration: 1)),
      LayerAnimation(layerID: "flip", property: .rotationY, tween: BasicAnimation(from: 0, to: .pi * 0.8, duration: 1)),
      LayerAnimation(layerID: "photo", property: .rotation, tween: BasicAnimation(from: 0, to: 1, duration: 1)),
    ]
    return Scene(
      size: size, fps: 10, duration: 1, backgroundColor: .black, layers: [background, card, flip],
      animations: animations)
  }

  /// Every shape and gradient kind on one canvas, with dashes, joins and a conic sweep.
  static func kinds() -> Scene {
    let c = Raster.hex
    let star =
      (try? ShapePath(svgPathData: "M50 5 L61 38 L95 38 L68 58 L78 92 L50 72 L22 92 L32 58 L5 38 L39 38 Z"))
      ?? ShapePath()
    return Scene(
      size: Size(width: 320, height: 120), fps: 10, duration: 1, backgroundColor: c("#F8FAFC"),
      layers: [
        Layer(
          id: "star", bounds: Rect(x: 0, y: 0, width: 100, height: 100), position: Point(x: 60, y: 60),
          content: .shape(
            ShapeContent(path: star, fillColor: c("#FACC15"), strokeColor: c("#A16207"), lineWidth: 3, lineJoin: .round)
          )),
        Layer(
          id: "dash", bounds: Rect(x: 0, y: 0, width: 90, height: 90), position: Point(x: 160, y: 60),
          content: .shape(
            ShapeContent(
              path: .roundedRect(Rect(x: 5, y: 5, width: 80, height: 80), cornerRadius: 16), fillColor: c("#DBEAFE"),
              strokeColor: c("#2563EB"), lineWidth: 3, lineDashPattern: [8, 5], lineDashPhase: 2))),
        Layer(
          id: "radial", bounds: Rect(x: 0, y: 0, width: 44, height: 90), position: Point(x: 235, y: 60),
          cornerRadius: 10,
          content: .gradient(
            GradientContent(
              kind: .radial, colors: [c("#FDE68A"), c("#EA580C")], startPoint: Point(x: 0.5, y: 0.5),
              endPoint: Point(x: 1, y: 1)))),
        Layer(
          id: "conic", bounds: Rect(x: 0, y: 0, width: 70, height: 70), position: Point(x: 285, y: 60),
          cornerRadius: 35,
          content: .gradient(
            GradientContent(
              kind: .conic, colors: [c("#EF4444"), c("#22C55E"), c("#3B82F6"), c("#EF4444")],
              startPoint: Point(x: 0.5, y: 0.5), endPoint: Point(x: 0.5, y: 0)))),
      ])
  }
}
