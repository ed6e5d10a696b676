import FlickExpectations
import FlickMotion
import FlickRaster
import FlickScene
import Testing

/// Backdrop materials: what is behind a layer, blurred, saturated and tinted inside its
/// rounded bounds, and nothing outside them.
@Suite struct BackdropRasterTests {
  /// Black on the left half, white on the right, and `glass` above.
  static func scene(_ glass: Layer) -> [Layer] {
    [
      Layer(
        id: "black", bounds: Rect(x: 0, y: 0, width: 100, height: 200), position: Point(x: 50, y: 100),
        backgroundColor: .black),
      Layer(
        id: "white", bounds: Rect(x: 0, y: 0, width: 100, height: 200), position: Point(x: 150, y: 100),
        backgroundColor: .white),
      glass,
    ]
  }

  static func glass(_ b: LayerBackdrop, cornerRadius: Double = 0) -> Layer {
    Layer(
      id: "glass", bounds: Rect(x: 0, y: 0, width: 160, height: 80), position: Point(x: 100, y: 100),
      cornerRadius: cornerRadius,
      backdrop: b)
  }

  @Test func blursWhatIsBehindInsideTheBoundsOnly() throws {
    let f = try Raster.render(Self.scene(Self.glass(LayerBackdrop(blurRadius: 8, saturation: 1, tint: .clear))))
    // On the edge inside the glass: half black, half white.
    let mid = f.rgba(x: 100, y: 100)
    expectLessOrEqual(abs(Int(mid.r) - 128), 12)
    // A few pixels from the edge inside: partly blurred.
    expectGreater(f.darkness(104, 100), 0.2)
    expectLess(f.darkness(104, 100), 0.5)
    // Far from the edge inside, and everywhere outside the glass: unchanged.
    #expect(f.pixel(30, 100, is: .black))
    #expect(f.pixel(170, 100, is: .white))
    #expect(f.pixel(99, 50, is: .black))
    #expect(f.pixel(100, 50, is: .white))
    #expect(f.pixel(99, 150, is: .black))
    #expect(f.pixel(100, 150, is: .white))
  }

  @Test func roundedCornersClipTheMaterial() throws {
    let f = try Raster.render(
      Self.scene(Self.glass(LayerBackdrop(blurRadius: 0, saturation: 1, tint: .white), cornerRadius: 30)))
    // The corner of the bounds lies outside the rounded shape: still black behind.
    #expect(f.pixel(21, 61, is: .black))
    #expect(f.pixel(40, 100, is: .white))
  }

  @Test func saturationZeroGivesLuminanceAndTintIsPaintedOver() throws {
    let red = Layer(
      id: "red", bounds: Rect(x: 0, y: 0, width: 200, height: 200), position: Point(x: 100, y: 100),
      backgroundColor: Raster.red)
    let grey = try Raster.render([red, Self.glass(LayerBackdrop(blurRadius: 0, saturation: 0, tint: .clear))])
    let g = grey.rgba(x: 100, y: 100)
    expectLessOrEqual(abs(Int(g.r) - 54), 1)
    expectEqual(g.r, g.g)
    expectEqual(g.g, g.b)
    #expect(grey.pixel(5, 5, is: Raster.red))
    let tinted = try Raster.render([
      red, Self.glass(LayerBackdrop(blurRadius: 0, saturation: 1, tint: Color(red: 0, green: 0, blue: 1, alpha: 0.5))),
    ])
    #expect(tinted.pixel(100, 100, is: Color(red: 0.5, green: 0, blue: 0.5), tolerance: 2))
  }

  @Test func theFrameEdgeContinuesInsteadOfFadingToTransparent() throws {
    let red = Layer(
      id: "red", bounds: Rect(x: 0, y: 0, width: 200, height: 200), position: Point(x: 100, y: 100),
      backgroundColor: Raster.red)
    let glass = Layer(
      id: "glass", bounds: Rect(x: 0, y: 0, width: 200, height: 200), position: Point(x: 100, y: 100),
      backdrop: LayerBackdrop(blurRadius: 12, saturation: 1, tint: .clear))
    let f = try Raster.render([red, glass])
    for (x, y) in [(0, 0), (199, 0), (0, 199), (100, 199)] { #expect(f.pixel(x, y, is: Raster.red), "(\(x), \(y))") }
  }

  @Test func aStaticBackdropIsCachedAndTheSameAsUncached() throws {
    let layers = Self.scene(Self.glass(LayerBackdrop(.regular), cornerRadius: 16))
    let uncached = try Raster.render(layers)
    // Drawn whole (an unchanged frame would otherwise be a copy of the one before).
    let renderer = FrameRenderer.wholeFrames()
    let first = try renderer.render(Raster.tree(layers))
    let before = renderer.cacheStatistics.hits
    let second = try renderer.render(Raster.tree(layers))
    expectGreater(renderer.cacheStatistics.hits, before)
    expectEqual(first.pixels, uncached.pixels)
    expectEqual(second.pixels, uncached.pixels)
  }

  @Test func theMaterialFadesWithItsLayer() throws {
    var glass = Self.glass(LayerBackdrop(blurRadius: 0, saturation: 1, tint: .white))
    glass.opacity = 0.5
    let f = try Raster.render(Self.scene(glass))
    #expect(f.pixel(40, 100, is: Color(red: 0.5, green: 0.5, blue: 0.5), tolerance: 2))
  }

  /// Inside a translucent ancestor the material reads the ancestor's group (arena memory with a
  /// device offset): the blurred edge must stay where the edge is.
  @Test func insideAGroupTheBackdropIsTheGroupsPixels() throws {
    let glass = Layer(
      id: "glass", bounds: Rect(x: 0, y: 0, width: 120, height: 60), position: Point(x: 100, y: 100),
      backdrop: LayerBackdrop(blurRadius: 6, saturation: 1, tint: .clear))
    let group = Layer(
      id: "group", bounds: Rect(x: 0, y: 0, width: 160, height: 120), position: Point(x: 100, y: 100), opacity: 0.999,
      sublayers: Self.scene(glass).map { l in
        var l = l
        l.position = Point(x: l.position.x - 20, y: l.position.y - 40)
        return l
      })
    let f = try Raster.render([group], background: Raster.red)
    let left = f.rgba(x: 98, y: 100), right = f.rgba(x: 101, y: 100)
    // Symmetric about the edge at x = 100 (±1 level): not shifted by the group's offset.
    expectLessOrEqual(abs(Int(left.g) + Int(right.g) - 255), 6, "\(left) \(right)")
    #expect(f.pixel(60, 100, is: .black, tolerance: 3))
    #expect(f.pixel(140, 100, is: .white, tolerance: 3))
  }

  @Test func presetsHaveTheDocumentedNumbers() {
    expectEqual(
      LayerBackdrop(.regular),
      LayerBackdrop(blurRadius: 20, saturation: 1.8, tint: Color(red: 1, green: 1, blue: 1, alpha: 0.5)))
    expectLess(LayerBackdrop(.ultraThin).blurRadius, LayerBackdrop(.thin).blurRadius)
    expectLess(LayerBackdrop(.thin).tint.alpha, LayerBackdrop(.thick).tint.alpha)
  }
}
