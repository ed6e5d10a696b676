import FlickExpectations
import FlickMotion
import FlickScene
import Testing

@testable import FlickRaster

/// Groups (opacity below 1, masks) are drawn into arena memory instead of `cairo_push_group`
/// surfaces; these tests hold them to exactly Cairo's pixels.
@Suite struct GroupTests {
  /// Every way a group can appear: partly off-screen with a shadow, nested, masked, masked and
  /// translucent, inside rectangular and rounded clips, inside a rotated clip, in a 3D plane, and
  /// casting a shadow path larger than itself.
  static func trees(frames: Int = 4) -> [RenderTree] {
    let c = Raster.hex
    let label = Layer(
      id: "label", bounds: Rect(x: 0, y: 0, width: 80, height: 18), position: Point(x: 45, y: 30),
      content: .text(
        TextContent(string: "Group", fontFamily: "DejaVu Sans", fontSize: 13, fontWeight: .bold, textColor: .white)))
    func card(_ id: String, _ x: Double, _ y: Double, opacity: Double, _ color: String, sublayers: [Layer] = [])
      -> Layer
    {
      Layer(
        id: id, bounds: Rect(x: 0, y: 0, width: 90, height: 60), position: Point(x: x, y: y), opacity: opacity,
        backgroundColor: c(color), cornerRadius: 10, shadowOpacity: 0.5, shadowRadius: 6,
        shadowOffset: Point(x: 0, y: 4),
        sublayers: sublayers)
    }
    let circle = Layer(
      id: "circle", bounds: Rect(x: 0, y: 0, width: 90, height: 60), position: Point(x: 45, y: 30),
      content: .shape(ShapeContent(path: .ellipse(in: Rect(x: 10, y: 0, width: 70, height: 60)), fillColor: .black)))
    return (0..<frames).map { n in
      let t = Double(n)
      let offscreen = card("offscreen", 20.25 - 7.5 * t, 50, opacity: 0.6, "#7F5AF0", sublayers: [label])
      let nested = card(
        "nested", 150.5 + 3.25 * t, 50, opacity: 0.7, "#2CB1BC",
        sublayers: [card("inner", 60, 40, opacity: 0.5, "#F472B6")])
      var masked = card("masked", 260, 50.75 + 2 * t, opacity: 1, "#FACC15", sublayers: [label])
      masked.mask = circle
      var maskedTranslucent = card("maskedTranslucent", 360, 50, opacity: 0.55 + 0.1 * t, "#EF4444")
      maskedTranslucent.mask = circle
      let rectClip = Layer(
        id: "rectClip", bounds: Rect(x: 0, y: 0, width: 100, height: 70), position: Point(x: 60, y: 150),
        backgroundColor: c("#1E293B"), masksToBounds: true,
        sublayers: [card("inRect", 40 + 4.5 * t, 40, opacity: 0.5, "#22C55E")])
      let roundClip = Layer(
        id: "roundClip", bounds: Rect(x: 0, y: 0, width: 100, height: 70), position: Point(x: 180, y: 150),
        backgroundColor: c("#1E293B"), cornerRadius: 24, masksToBounds: true,
        sublayers: [card("inRound", 40 + 4.5 * t, 40, opacity: 0.5, "#3B82F6")])
      var rotatedClip = Layer(
        id: "rotatedClip", bounds: Rect(x: 0, y: 0, width: 100, height: 70), position: Point(x: 300, y: 150),
        backgroundColor: c("#1E293B"), masksToBounds: true,
        sublayers: [card("inRotated", 40 + 4.5 * t, 40, opacity: 0.5, "#F97316")])
      rotatedClip.transform.rotation = 0.2 + 0.05 * t
      var plane = card(
        "plane", 400, 150, opacity: 0.8, "#A855F7", sublayers: [card("inPlane", 50, 35, opacity: 0.6, "#FDE68A")])
      plane.transform.rotationY = 0.5 + 0.1 * t
      plane.transform.perspective = 400
      // A shadow path reaching well beyond the layer's content.
      var wideShadow = card("wideShadow", 505, 70 + t, opacity: 0.6, "#F8FAFC")
      wideShadow.shadowPath = .rect(Rect(x: -30, y: -25, width: 150, height: 120))
      wideShadow.shadowOpacity = 0.9
      // Big oblique glyphs in a box smaller than their ink, in a translucent layer: the group
      // must still hold every pixel of the overhang.
      let glyphs = Layer(
        id: "glyphs", bounds: Rect(x: 0, y: 0, width: 60, height: 40), position: Point(x: 520, y: 170), opacity: 0.7,
        content: .text(
          TextContent(
            string: "ƒjÅ", fontFamily: "DejaVu Sans", fontSize: 64 + t, fontStyle: .oblique,
            textColor: c("#F8FAFC"), isWrapped: false)))
      // Wholly off-screen, and wholly outside a clip: skipped, as Cairo's group would show nothing.
      let gone = card("gone", -300, 50, opacity: 0.5, "#F97316")
      var clippedAway = rectClip
      clippedAway.id = "clippedAway"
      clippedAway.position.x = 430
      clippedAway.sublayers = [card("outside", 400 + t, 40, opacity: 0.5, "#22C55E")]
      return Raster.tree(
        [
          offscreen, nested, masked, maskedTranslucent, rectClip, roundClip, rotatedClip, plane, wideShadow, gone,
          clippedAway,
          glyphs,
        ],
        width: 580,
        height: 220, background: c("#0F172A"))
    }
  }

  static func render(_ tree: RenderTree, scale: Double, cairoGroups: Bool) throws -> Frame {
    let text = TextContext(ownFontMap: false)
    return try Renderer.render(
      tree, scale: scale, cache: nil, arena: PixelArena(), text: text, usesCairoGroups: cairoGroups)
  }

  @Test(arguments: [1.0, 1.5, 2.0])
  func arenaGroupsDrawCairosPixels(scale: Double) throws {
    for (n, tree) in Self.trees().enumerated() {
      let cairo = try Self.render(tree, scale: scale, cairoGroups: true)
      try expectEqual(Self.render(tree, scale: scale, cairoGroups: false), cairo, "frame \(n) at scale \(scale)")
    }
  }

  @Test func translucentLayersReuseTheirGroupMemory() throws {
    let trees = Self.trees(frames: 12)
    func statistics(cairoGroups: Bool) throws -> PixelArena.Statistics {
      let arena = PixelArena()
      let text = TextContext(ownFontMap: false)
      for tree in trees {
        _ = try Renderer.render(tree, scale: 2, cache: nil, arena: arena, text: text, usesCairoGroups: cairoGroups)
      }
      return arena.statistics
    }
    let cairo = try statistics(cairoGroups: true)
    let arena = try statistics(cairoGroups: false)
    // At least seven groups a frame are drawn in arena memory (the two inside non-rectangular
    // clips stay Cairo's, the two clipped away are skipped): after the first frame they reuse
    // blocks given back earlier. All twelve
    // frames together allocate less group memory than Cairo does for one frame (seven of its
    // surfaces the size of the clip, 1160 × 440 pixels).
    expectGreaterOrEqual(arena.reused - cairo.reused, 7 * (trees.count - 1), "\(arena) vs \(cairo)")
    expectLess(arena.allocatedBytes - cairo.allocatedBytes, 7 * 1160 * 440 * 4, "\(arena) vs \(cairo)")
  }
}
