import FlickExpectations
import FlickMotion
import FlickRaster
import FlickScene
import Foundation
import Testing

@Suite struct LayerPropertyRasterTests {
  @Test func anchorPointIsTheRotationPivot() throws {
    var layer = Layer(
      id: "a", bounds: Rect(x: 0, y: 0, width: 40, height: 40), position: Point(x: 100, y: 100),
      anchorPoint: .zero, backgroundColor: Raster.red)
    layer.transform.rotation = .pi / 2
    let frame = try Raster.render([layer])
    // Turned a quarter clockwise about its top-left corner, the square lies left of and below (100, 100).
    #expect(frame.pixel(80, 120, is: Raster.red))
    #expect(frame.pixel(120, 120, is: .white))
    #expect(frame.pixel(120, 80, is: .white))
    layer.anchorPoint = Point(x: 0.5, y: 0.5)
    let centred = try Raster.render([layer])
    #expect(centred.pixel(115, 115, is: Raster.red))
    #expect(centred.pixel(85, 85, is: Raster.red))
  }

  @Test func scaleAndTranslationMoveTheLayer() throws {
    var layer = Layer(
      id: "a", bounds: Rect(x: 0, y: 0, width: 20, height: 20), position: Point(x: 50, y: 50),
      backgroundColor: Raster.blue)
    layer.transform.scale = Point(x: 3, y: 1)
    layer.transform.translation = Point(x: 50, y: 0)
    let frame = try Raster.render([layer])
    #expect(frame.pixel(100 + 25, 50, is: Raster.blue))
    #expect(frame.pixel(100 - 25, 50, is: Raster.blue))
    #expect(frame.pixel(100 + 35, 50, is: .white))
    #expect(frame.pixel(100, 65, is: .white))
  }

  @Test func cornerRadiusRoundsTheBackgroundAndMasksToBoundsClipsSublayers() throws {
    let child = Layer(
      id: "c", bounds: Rect(x: 0, y: 0, width: 200, height: 200), position: Point(x: 50, y: 50),
      backgroundColor: Raster.blue)
    var parent = Layer(
      id: "p", bounds: Rect(x: 0, y: 0, width: 100, height: 100), position: Point(x: 100, y: 100),
      backgroundColor: Raster.red, cornerRadius: 30, sublayers: [child])
    let unclipped = try Raster.render([parent])
    #expect(unclipped.pixel(52, 52, is: Raster.blue))
    #expect(unclipped.pixel(190, 190, is: Raster.blue))
    parent.masksToBounds = true
    let clipped = try Raster.render([parent])
    #expect(clipped.pixel(52, 52, is: .white))  // the rounded corner
    #expect(clipped.pixel(100, 100, is: Raster.blue))
    #expect(clipped.pixel(148, 100, is: Raster.blue))
    #expect(clipped.pixel(190, 190, is: .white))
    // Only the masked corner is rounded.
    parent.maskedCorners = [.layerMaxXMaxYCorner]
    let one = try Raster.render([parent])
    #expect(one.pixel(52, 52, is: Raster.blue))
    #expect(one.pixel(147, 147, is: .white))
  }

  @Test func groupOpacityDiffersFromPerChildOpacityWhereChildrenOverlap() throws {
    func children(opacity: Double) -> [Layer] {
      [
        Layer(
          id: "r", bounds: Rect(x: 0, y: 0, width: 60, height: 60), position: Point(x: 40, y: 50), opacity: opacity,
          backgroundColor: Raster.red),
        Layer(
          id: "b", bounds: Rect(x: 0, y: 0, width: 60, height: 60), position: Point(x: 70, y: 50), opacity: opacity,
          backgroundColor: Raster.blue),
      ]
    }
    let group = Layer(
      id: "g", bounds: Rect(x: 0, y: 0, width: 100, height: 100), position: Point(x: 50, y: 50), opacity: 0.5,
      sublayers: children(opacity: 1))
    let separate = Layer(
      id: "s", bounds: Rect(x: 0, y: 0, width: 100, height: 100), position: Point(x: 50, y: 50),
      sublayers: children(opacity: 0.5))
    let g = try Raster.render([group]).rgba(x: 55, y: 50)
    let s = try Raster.render([separate]).rgba(x: 55, y: 50)
    // As a group, the blue child hides the red one, and the group is faded as a whole.
    expectLessOrEqual(abs(Int(g.r) - 128), 2)
    expectLessOrEqual(abs(Int(g.g) - 128), 2)
    expectEqual(g.b, 255)
    // Faded one by one, the red shows through the blue.
    expectLessOrEqual(abs(Int(s.g) - 64), 2)
    expectLessOrEqual(abs(Int(s.b) - 191), 2)
  }

  @Test func zPositionReordersSiblings() throws {
    let a = Layer(
      id: "a", bounds: Rect(x: 0, y: 0, width: 50, height: 50), position: Point(x: 50, y: 50),
      backgroundColor: Raster.red)
    var b = Layer(
      id: "b", bounds: Rect(x: 0, y: 0, width: 50, height: 50), position: Point(x: 60, y: 60),
      backgroundColor: Raster.blue)
    #expect(try Raster.render([a, b]).pixel(55, 55, is: Raster.blue))
    b.zPosition = -1
    #expect(try Raster.render([a, b]).pixel(55, 55, is: Raster.red))
    let parent = Layer(
      id: "p", bounds: Rect(x: 0, y: 0, width: 200, height: 200), position: Point(x: 100, y: 100), sublayers: [a, b])
    #expect(try Raster.render([parent]).pixel(55, 55, is: Raster.red))
  }

  @Test func hiddenLayersDrawNothing() throws {
    let layer = Layer(
      id: "a", bounds: Rect(x: 0, y: 0, width: 50, height: 50), position: Point(x: 50, y: 50),
      backgroundColor: Raster.red, isHidden: true)
    #expect(try Raster.render([layer]).inkBounds(background: .white) == nil)
  }

  @Test func borderIsDrawnInsideTheBoundsAboveSublayers() throws {
    let child = Layer(
      id: "c", bounds: Rect(x: 0, y: 0, width: 100, height: 100), position: Point(x: 50, y: 50),
      backgroundColor: Raster.blue)
    let layer = Layer(
      id: "a", bounds: Rect(x: 0, y: 0, width: 100, height: 100), position: Point(x: 100, y: 100),
      borderWidth: 10, borderColor: Raster.red, sublayers: [child])
    let frame = try Raster.render([layer])
    #expect(frame.pixel(55, 100, is: Raster.red))
    #expect(frame.pixel(144, 100, is: Raster.red))
    #expect(frame.pixel(62, 100, is: Raster.blue))
    #expect(frame.pixel(45, 100, is: .white))
  }

  @Test func shadowIsAGaussianBlurOfTheShapeThatExtendsByTheExpectedAmount() throws {
    // Blur sizes on each path: full size (σ 4), half size (σ 8) and quarter size (σ 16).
    for sigma in [4.0, 8.0, 16.0] {
      let layer = Layer(
        id: "s", bounds: Rect(x: 0, y: 0, width: 200, height: 200), position: Point(x: 200, y: 200),
        shadowColor: .black, shadowOpacity: 1, shadowRadius: sigma, shadowOffset: Point(x: 50, y: 0),
        shadowPath: .rect(Rect(x: 0, y: 0, width: 200, height: 200)))
      let frame = try Raster.render([layer], width: 500, height: 400)
      // The shadow's right edge is at x = 300 + 50; sample across it along the middle row.
      let edge = 350.0
      func darkness(at x: Double) -> Double {
        (frame.darkness(Int(x.rounded(.down)), 200) + frame.darkness(Int(x.rounded(.down)) - 1, 200)) / 2
      }
      expectLess(abs(darkness(at: edge) - 0.5), 0.06, "σ \(sigma): at the edge")
      expectLess(abs(darkness(at: edge + sigma) - 0.159), 0.06, "σ \(sigma): one σ outside")
      expectLess(abs(darkness(at: edge - sigma) - 0.841), 0.06, "σ \(sigma): one σ inside")
      expectLess(darkness(at: edge + 3.5 * sigma), 0.01, "σ \(sigma): past 3σ")
      expectGreater(darkness(at: 250), 0.99, "σ \(sigma): deep inside")
    }
  }

  @Test func shadowFollowsTheLayersAlphaWithoutAShadowPath() throws {
    // A ring-shaped layer: its shadow has a hole, unlike a bounds-shaped one.
    let ring = Layer(
      id: "r", bounds: Rect(x: 0, y: 0, width: 120, height: 120), position: Point(x: 100, y: 100),
      shadowColor: .black, shadowOpacity: 1, shadowRadius: 2, shadowOffset: Point(x: 0, y: 0),
      content: .shape(
        ShapeContent(
          path: .ellipse(in: Rect(x: 10, y: 10, width: 100, height: 100)), fillColor: .clear,
          strokeColor: Color(red: 1, green: 1, blue: 1), lineWidth: 10)))
    let frame = try Raster.render([ring], background: Raster.green)
    #expect(frame.pixel(100, 100, is: Raster.green))
    // Just outside the stroke the shadow darkens the green.
    expectLess(frame.rgba(x: 100, y: 100 - 57).g, 230)
  }

  @Test func maskLayerKeepsOnlyWhereTheMaskIsOpaque() throws {
    var layer = Layer(
      id: "a", bounds: Rect(x: 0, y: 0, width: 100, height: 100), position: Point(x: 100, y: 100),
      backgroundColor: Raster.red)
    layer.mask = Layer(
      id: "m", bounds: Rect(x: 0, y: 0, width: 50, height: 100), position: .zero, anchorPoint: .zero,
      backgroundColor: .black)
    let frame = try Raster.render([layer])
    #expect(frame.pixel(70, 100, is: Raster.red))
    #expect(frame.pixel(130, 100, is: .white))
    layer.opacity = 0.5
    let faded = try Raster.render([layer]).rgba(x: 70, y: 100)
    expectEqual(faded.r, 255)
    expectLessOrEqual(abs(Int(faded.g) - 128), 2)
  }

  @Test func perspectiveFlipAtNinetyDegreesIsEdgeOn() throws {
    var card = Layer(
      id: "card", bounds: Rect(x: 0, y: 0, width: 120, height: 80), position: Point(x: 100, y: 100),
      backgroundColor: Raster.blue)
    card.transform.perspective = 400
    card.transform.rotationY = .pi / 2
    let edgeOn = try Raster.render([card])
    let ink = edgeOn.inkBounds(background: .white, tolerance: 30)
    expectLessOrEqual((ink?.maxX ?? 100) - (ink?.minX ?? 100), 2)
    card.transform.rotationY = .pi / 3
    let turned = try Raster.render([card])
    let box = try #require(turned.inkBounds(background: .white, tolerance: 30))
    // Foreshortened to about half its width…
    expectGreater(box.maxX - box.minX, 50)
    expectLess(box.maxX - box.minX, 75)
    // …and the edge turned towards the viewer (left, for a positive rotationY) is taller.
    func height(atColumn x: Int) -> Int { (0..<200).filter { !turned.pixel(x, $0, is: .white, tolerance: 30) }.count }
    expectGreater(height(atColumn: box.minX + 3), height(atColumn: box.maxX - 3) + 10)
    // One-sided layers turned away draw nothing.
    card.transform.rotationY = .pi * 0.9
    card.isDoubleSided = false
    #expect(try Raster.render([card]).inkBounds(background: .white) == nil)
  }

  @Test func twoDimensionalScenesAreUnchangedByAZeroPerspective() throws {
    var a = Layer(
      id: "a", bounds: Rect(x: 0, y: 0, width: 50, height: 30), position: Point(x: 80, y: 90),
      backgroundColor: Raster.red, cornerRadius: 8)
    let plain = try Raster.render([a])
    a.transform.perspective = 500  // no 3D rotation: still affine, same pixels
    try expectEqual(Raster.render([a]), plain)
  }
}
