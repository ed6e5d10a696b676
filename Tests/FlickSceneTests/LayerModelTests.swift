import FlickExpectations
import FlickMotion
import FlickScene
import Foundation
import Testing

@Suite struct LayerModelTests {
  @Test func existingInitialiserStillWorksAndNewFieldsHaveCoreAnimationDefaults() {
    let layer = Layer(
      id: "a", bounds: Rect(x: 0, y: 0, width: 10, height: 10), position: .zero,
      anchorPoint: .zero, opacity: 1, backgroundColor: .white, cornerRadius: 2, sublayers: [])
    expectEqual(layer.zPosition, 0)
    #expect(!layer.isHidden)
    #expect(!layer.masksToBounds)
    expectEqual(layer.shadowOpacity, 0)
    expectEqual(layer.shadowRadius, 3)
    expectEqual(layer.shadowOffset, Point(x: 0, y: -3))
    expectEqual(layer.maskedCorners, .all)
    expectEqual(layer.contentsGravity, .resize)
    expectEqual(layer.content, .none)
    #expect(layer.transform.isIdentity)
    #expect(layer.mask == nil)
  }

  @Test func zPositionReordersSiblingsStably() {
    let parent = Layer(
      id: "p",
      sublayers: [
        Layer(id: "a", zPosition: 1), Layer(id: "b"), Layer(id: "c", zPosition: -1), Layer(id: "d"),
      ])
    expectEqual(parent.sublayersInDrawingOrder.map(\.id), ["c", "b", "d", "a"])
  }

  @Test func animationsReachMaskLayers() {
    var layer = Layer(id: "p", mask: Layer(id: "m", opacity: 1))
    #expect(layer.withLayer(id: "m") { $0.opacity = 0.5 })
    expectEqual(layer.mask?.opacity, 0.5)
  }

  @Test func affineTransformMapsTheAnchorToPositionAndRotatesAboutIt() throws {
    var layer = Layer(id: "a", bounds: Rect(x: 0, y: 0, width: 100, height: 50), position: Point(x: 200, y: 100))
    layer.transform.rotation = .pi / 2
    let m = layer.transformToSuperlayer
    #expect(m.isAffine)
    let centre = try #require(m.apply(to: Point(x: 50, y: 25)))
    expectLess(abs(centre.x - 200), 1e-9)
    expectLess(abs(centre.y - 100), 1e-9)
    // The right edge's midpoint turns clockwise on screen: it ends up below the centre.
    let right = try #require(m.apply(to: Point(x: 100, y: 25)))
    expectLess(abs(right.x - 200), 1e-9)
    expectLess(abs(right.y - 150), 1e-9)
  }

  @Test func scaleAndTranslationCompose() throws {
    var layer = Layer(
      id: "a", bounds: Rect(x: 0, y: 0, width: 100, height: 100), position: Point(x: 50, y: 50),
      anchorPoint: .zero)
    layer.transform.scale = Point(x: 2, y: 3)
    layer.transform.translation = Point(x: 10, y: -5)
    let p = try #require(layer.transformToSuperlayer.apply(to: Point(x: 10, y: 10)))
    expectEqual(p, Point(x: 50 + 20 + 10, y: 50 + 30 - 5))
  }

  @Test func perspectiveFlipIsEdgeOnAtNinetyDegrees() throws {
    var layer = Layer(id: "card", bounds: Rect(x: 0, y: 0, width: 200, height: 100), position: Point(x: 300, y: 200))
    layer.transform.perspective = 500
    layer.transform.rotationY = .pi / 2
    let m = layer.transformToSuperlayer
    #expect(!m.isAffine)
    let left = try #require(m.apply(to: Point(x: 0, y: 50)))
    let right = try #require(m.apply(to: Point(x: 200, y: 50)))
    expectLess(abs(left.x - 300), 1e-6)
    expectLess(abs(right.x - 300), 1e-6)
    layer.transform.rotationY = .pi / 4
    let m45 = layer.transformToSuperlayer
    let nearTop = try #require(m45.apply(to: Point(x: 0, y: 0)))
    let farTop = try #require(m45.apply(to: Point(x: 200, y: 0)))
    // The edge turned towards the viewer looks taller than the one turned away.
    expectGreater(abs(nearTop.y - 200), abs(farTop.y - 200))
    layer.transform.rotationY = .pi
    #expect(layer.isFacingAway)
    layer.transform.rotationY = 0.2
    #expect(!layer.isFacingAway)
  }

  /// Under a perspective of half a point, a point a unit beside the anchor can be behind the
  /// eye; the layer's facing is still that of its rotation.
  @Test func facingUnderATinyPerspective() {
    var layer = Layer(id: "p", bounds: Rect(x: 0, y: 0, width: 960, height: 540), position: Point(x: 480, y: 270))
    for (degrees, away) in [(70.0, false), (-70, false), (110, true), (-110, true)] {
      layer.transform = LayerTransform(rotationY: degrees * .pi / 180, perspective: 0.5)
      expectEqual(layer.isFacingAway, away, "\(degrees)°")
    }
  }

  @Test func inverseUndoesTheProjection() throws {
    var layer = Layer(id: "c", bounds: Rect(x: 0, y: 0, width: 80, height: 60), position: Point(x: 100, y: 90))
    layer.transform = LayerTransform(
      translation: Point(x: 3, y: 4), scale: Point(x: 1.5, y: 0.8), rotation: 0.3,
      rotationX: 0.4, rotationY: -0.6, perspective: 400)
    let m = layer.transformToSuperlayer
    let inverse = try #require(m.inverted)
    let p = try #require(m.apply(to: Point(x: 12, y: 47)))
    let back = try #require(inverse.apply(to: p))
    expectLess(abs(back.x - 12), 1e-9)
    expectLess(abs(back.y - 47), 1e-9)
  }

  @Test func contentsGravityPlacesTheImage() {
    let b = Rect(x: 0, y: 0, width: 200, height: 100)
    let image = Size(width: 50, height: 50)
    expectEqual(ContentsGravity.resizeAspect.rect(forImageOf: image, in: b), Rect(x: 50, y: 0, width: 100, height: 100))
    expectEqual(
      ContentsGravity.resizeAspectFill.rect(forImageOf: image, in: b), Rect(x: 0, y: -50, width: 200, height: 200))
    expectEqual(ContentsGravity.bottomRight.rect(forImageOf: image, in: b), Rect(x: 150, y: 50, width: 50, height: 50))
    expectEqual(ContentsGravity.resize.rect(forImageOf: image, in: b), b)
  }

  @Test func gradientStopsAreEvenWithoutLocations() {
    let g = GradientContent(colors: [.black, .white, .black])
    expectEqual(g.stops.map(\.location), [0, 0.5, 1])
    let h = GradientContent(colors: [.black, .white], locations: [0.2, 0.8])
    expectEqual(h.stops.map(\.location), [0.2, 0.8])
  }
}
