import FlickExpectations
import FlickMotion
import FlickRaster
import FlickScene
import Testing

/// Pixels of replicated layers: instances placed by `instanceTransform`, tinted by
/// `instanceColor` and the per-instance offsets, drawn through ``Scene/renderTree(at:)``.
@Suite struct ReplicatorRasterTests {
  static func frame(_ r: LayerReplicator, sublayers: [Layer], animations: [LayerAnimation] = [], at t: Double = 0)
    throws -> Frame
  {
    let replicator = Layer(
      id: "rep", bounds: Rect(x: 0, y: 0, width: 100, height: 100), position: Point(x: 50, y: 50), sublayers: sublayers,
      replicator: r)
    let scene = Scene(
      size: Size(width: 100, height: 100), duration: 2, backgroundColor: .white, layers: [replicator],
      animations: animations)
    return try Renderer().render(scene.renderTree(at: t))
  }

  static let dot = Layer(
    id: "dot", bounds: Rect(x: 0, y: 0, width: 10, height: 10), position: Point(x: 10, y: 50), backgroundColor: .black)

  @Test func instanceTransformPlacesEachCopyFromThePrevious() throws {
    let f = try Self.frame(
      LayerReplicator(instanceCount: 3, instanceTransform: LayerTransform(translation: Point(x: 30, y: 0))),
      sublayers: [Self.dot])
    for x in [10, 40, 70] { #expect(f.pixel(x, 50, is: .black)) }
    for x in [25, 55, 85] { #expect(f.pixel(x, 50, is: .white)) }
    expectEqual(f.inkBounds(background: .white)?.count, 300)
  }

  @Test func rotationComposesAboutTheCentreOfTheBounds() throws {
    // Four copies a quarter turn apart about (50, 50): left, top, right, bottom.
    let f = try Self.frame(
      LayerReplicator(instanceCount: 4, instanceTransform: LayerTransform(rotation: .pi / 2)), sublayers: [Self.dot])
    for (x, y) in [(10, 50), (50, 10), (90, 50), (50, 90)] { #expect(f.pixel(x, y, is: .black), "(\(x), \(y))") }
    #expect(f.pixel(50, 50, is: .white))
  }

  @Test func instanceColorMultipliesAndOffsetsStepPerInstance() throws {
    let white = Layer(
      id: "w", bounds: Rect(x: 0, y: 0, width: 20, height: 20), position: Point(x: 15, y: 50), backgroundColor: .white,
      borderWidth: 2, borderColor: .black)
    var r = LayerReplicator(instanceCount: 3, instanceTransform: LayerTransform(translation: Point(x: 30, y: 0)))
    r.instanceColor = Color(red: 1, green: 0, blue: 0)
    r.instanceGreenOffset = 0.5
    r.instanceAlphaOffset = -0.5
    let f = try Self.frame(r, sublayers: [white], at: 0)
    // Instance 0: white × red = red; its black border stays black.
    #expect(f.pixel(15, 50, is: Color(red: 1, green: 0, blue: 0)))
    #expect(f.pixel(6, 50, is: .black))
    // Instance 1: white × (1, 0.5, 0, 0.5) over white = (1, 0.75, 0.5).
    #expect(f.pixel(45, 50, is: Color(red: 1, green: 0.75, blue: 0.5), tolerance: 2))
    // Instance 2: alpha 0, not drawn.
    #expect(f.pixel(75, 50, is: .white))
    #expect(f.pixel(66, 50, is: .white))
  }

  @Test func textAndShapesAreTintedToo() throws {
    let text = Layer(
      id: "t", bounds: Rect(x: 0, y: 0, width: 100, height: 60), position: Point(x: 50, y: 50),
      content: .text(TextContent(string: "██", fontFamily: "DejaVu Sans", fontSize: 40, textColor: .black)))
    var r = LayerReplicator()
    r.instanceColor = Color(red: 1, green: 1, blue: 1, alpha: 0.5)
    let f = try Self.frame(r, sublayers: [text])
    let ink = try #require(f.inkBounds(background: .white))
    let p = f.rgba(x: (ink.minX + ink.maxX) / 2, y: (ink.minY + ink.maxY) / 2)
    expectLessOrEqual(abs(Int(p.r) - 128), 2)
    expectEqual(p.r, p.g)
    expectEqual(p.g, p.b)
  }

  @Test func mirroredReflectionBelowTheOriginal() throws {
    // A bar at the top of the bounds, mirrored about the centre: the copy sits at the bottom.
    let bar = Layer(
      id: "bar", bounds: Rect(x: 0, y: 0, width: 100, height: 20), position: Point(x: 50, y: 10),
      backgroundColor: .black)
    var r = LayerReplicator(instanceCount: 2, instanceTransform: LayerTransform(scale: Point(x: 1, y: -1)))
    r.instanceAlphaOffset = -0.75
    let f = try Self.frame(r, sublayers: [bar])
    #expect(f.pixel(50, 5, is: .black))
    #expect(f.pixel(50, 50, is: .white))
    #expect(f.pixel(50, 95, is: Color(red: 0.75, green: 0.75, blue: 0.75), tolerance: 2))
  }

  @Test func delayedInstancesDrawWhereTheirEarlierSelfWas() throws {
    let move = LayerAnimation(
      layerID: "dot", property: .positionY,
      tween: BasicAnimation(from: 10, to: 90, duration: 1, timingFunction: .linear))
    let r = LayerReplicator(
      instanceCount: 2, instanceTransform: LayerTransform(translation: Point(x: 40, y: 0)), instanceDelay: 0.5)
    let f = try Self.frame(r, sublayers: [Self.dot], animations: [move], at: 0.75)
    // Instance 0 at t 0.75 → y 70; instance 1 at t 0.25 → y 30.
    #expect(f.pixel(10, 70, is: .black))
    #expect(f.pixel(50, 30, is: .black))
    #expect(f.pixel(50, 70, is: .white))
  }

  @Test func replicatedFramesAreDeterministic() throws {
    var r = LayerReplicator(
      instanceCount: 12, instanceTransform: LayerTransform(rotation: .pi / 6), instanceDelay: 0.05)
    r.instanceAlphaOffset = -0.08
    let a = try Self.frame(r, sublayers: [Self.dot])
    let b = try Self.frame(r, sublayers: [Self.dot])
    expectEqual(a.pixels, b.pixels)
  }
}
