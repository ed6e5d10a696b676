import FlickExpectations
import FlickMotion
import FlickScene
import FlickTestSupport
import Foundation
import Testing

@testable import FlickRaster

/// A frame whose background and first top-level layers equal those of the frame the worker drew
/// before starts from a copy of their pixels, and every frame is byte-identical to one drawn
/// from scratch whatever the prefix does from frame to frame.
@Suite struct StaticPrefixTests {
  static let c = Raster.hex

  /// Glow (translucent radial gradient), gradient card with a shadow, a translucent group with a
  /// sublayer, text: the kind of bottom of a tree that stays at rest.
  static func base(shift: Double = 0, glowAlpha: String = "99") -> [Layer] {
    let glow = Layer(
      id: "glow", bounds: Rect(x: 0, y: 0, width: 150, height: 110), position: Point(x: 80 + shift, y: 60),
      content: .gradient(
        GradientContent(
          kind: .radial, colors: [c("#F472B6\(glowAlpha)"), c("#F472B600")], startPoint: Point(x: 0.5, y: 0.5),
          endPoint: Point(x: 1, y: 1))))
    let card = Layer(
      id: "card", bounds: Rect(x: 0, y: 0, width: 90, height: 60), position: Point(x: 120.3, y: 80.7), cornerRadius: 10,
      shadowOpacity: 0.4, shadowRadius: 6, shadowOffset: Point(x: 0, y: 3),
      content: .gradient(
        GradientContent(colors: [c("#2563EB"), c("#22C55E")], startPoint: .zero, endPoint: Point(x: 1, y: 1))))
    let group = Layer(
      id: "group", bounds: Rect(x: 0, y: 0, width: 50, height: 50), position: Point(x: 50.5, y: 110.25), opacity: 0.6,
      backgroundColor: c("#FACC15"), cornerRadius: 12,
      sublayers: [
        Layer(
          id: "dot", bounds: Rect(x: 0, y: 0, width: 20, height: 20), position: Point(x: 25, y: 25),
          backgroundColor: c("#0F172A"), cornerRadius: 10)
      ])
    let label = Layer(
      id: "label", bounds: Rect(x: 0, y: 0, width: 120, height: 24), position: Point(x: 100, y: 20),
      content: .text(TextContent(string: "Static prefix", fontSize: 15, textColor: c("#E2E8F0"))))
    return [glow, card, group, label]
  }

  /// A layer that moves in every frame, on top.
  static func mover(_ n: Int) -> Layer {
    Layer(
      id: "mover", bounds: Rect(x: 0, y: 0, width: 24, height: 24), position: Point(x: 20 + 7.37 * Double(n), y: 70),
      backgroundColor: c("#EF4444CC"), cornerRadius: 6)
  }

  static func tree(_ layers: [Layer], background: Color = c("#0F172A")) -> RenderTree {
    Raster.tree(layers, width: 200, height: 150, background: background)
  }

  /// Frames where the static part changes mid-run in every way the prefix must notice.
  static func changingRun() -> [RenderTree] {
    var trees: [RenderTree] = []
    // 0–3: everything at rest under the mover.
    for n in 0..<4 { trees.append(tree(base() + [mover(n)])) }
    // 4–5: the bottom layer changes (glow moves): nothing below the mover is reusable.
    for n in 4..<6 { trees.append(tree(base(shift: Double(n)) + [mover(n)])) }
    // 6–8: at rest again, at the new place.
    for n in 6..<9 { trees.append(tree(base(shift: 5) + [mover(n)])) }
    // 9–10: a middle layer changes (the card's colour): the prefix shrinks to the glow.
    for n in 9..<11 {
      var layers = base(shift: 5)
      layers[1].content = .gradient(
        GradientContent(colors: [c("#9333EA"), c("#22C55E")], startPoint: .zero, endPoint: Point(x: 1, y: 1)))
      trees.append(tree(layers + [mover(n)]))
    }
    // 11–12: a layer is inserted on top of the static ones, then one removed.
    trees.append(tree(base(shift: 5) + [mover(11), mover(3)]))
    trees.append(tree(Array(base(shift: 5).prefix(3)) + [mover(12)]))
    // 13: a zPosition change reorders the painter's order without changing the array.
    var reordered = base(shift: 5) + [mover(13)]
    reordered[0].zPosition = 1
    trees.append(tree(reordered))
    // 14–15: the background colour changes, then a translucent one (cleared pixels first).
    trees.append(tree(base(shift: 5) + [mover(14)], background: c("#1E293B")))
    trees.append(tree(base(shift: 5) + [mover(15)], background: c("#1E293B80")))
    // 16–17: a backdrop layer above the static ones reads their pixels.
    for n in 16..<18 {
      let frosted = Layer(
        id: "frosted", bounds: Rect(x: 0, y: 0, width: 90, height: 50), position: Point(x: 110 + Double(n), y: 75),
        cornerRadius: 8, backdrop: LayerBackdrop(.thin))
      trees.append(tree(base(shift: 5) + [frosted]))
    }
    // 18–19: nothing changes at all, then the same tree again.
    trees.append(tree(base(shift: 5)))
    trees.append(tree(base(shift: 5)))
    // 20: the static layers hidden.
    var hidden = base(shift: 5)
    hidden[1].isHidden = true
    trees.append(tree(hidden + [mover(20)]))
    return trees
  }

  @Test(arguments: [1.0, 1.5])
  func framesAreByteIdenticalWhileThePrefixChanges(scale: Double) throws {
    let trees = Self.changingRun()
    let reference = try trees.map { try Renderer(scale: scale).render($0) }
    let cached = FrameRenderer.wholeFrames(scale: scale)
    for (n, tree) in trees.enumerated() {
      try expectEqual(cached.render(tree), reference[n], "frame \(n) at scale \(scale)")
    }
    let stats = cached.prefixStatistics
    // Frames 3, 8, 10–12 (the glow only) and 19 start from kept pixels, taken in frames 2, 7,
    // 9, 18 and 20.
    expectEqual(stats.framesReused, 6)
    expectEqual(stats.snapshots, 5)
    // The test can fail: consecutive frames differ.
    expectNotEqual(reference[0], reference[1])
  }

  @Test func aPooledRendererStartsFromTheSamePixels() throws {
    let trees = Self.changingRun()
    let pool = FramePool(capacity: 2)
    let cached = FrameRenderer.wholeFrames(pool: pool)
    for (n, tree) in trees.enumerated() {
      let frame = try cached.render(tree)
      expectEqual(frame, (try Renderer().render(tree)), "frame \(n)")
      pool.recycle(frame.pixels)
    }
    expectEqual(cached.prefixStatistics.framesReused, 6)
  }

  @Test func switchedOffItDrawsEveryFrameFromTheBackground() throws {
    let trees = Self.changingRun()
    let cached = FrameRenderer.wholeFrames()
    cached.reusesStaticPrefix = false
    for (n, tree) in trees.enumerated() {
      try expectEqual(cached.render(tree), Renderer().render(tree), "frame \(n)")
    }
    expectEqual(cached.prefixStatistics, StaticPrefix.Statistics())
  }

  @Test func randomOrderAndSeveralWorkersGiveTheSameBytes() throws {
    let trees = Self.changingRun()
    let reference = try trees.map { try Renderer().render($0) }
    var random = SeededGenerator(seed: 18)
    for round in 0..<3 {
      let workers = (0..<3).map { _ in FrameRenderer.wholeFrames() }
      // Every frame twice, in a shuffled order, each time to a random worker.
      let order = (trees.indices.map { $0 } + trees.indices.map { $0 }).shuffled(using: &random)
      for n in order {
        let worker = workers[Int(random.next() % 3)]
        try expectEqual(worker.render(trees[n]), reference[n], "frame \(n), round \(round)")
      }
    }
  }

  @Test func motionBlurredFramesShareTheKeptPixelsBetweenSamples() throws {
    // Shutter samples differ only in the mover: the samples after the first start from a copy.
    let trees = (0..<4).map { n in
      let samples = (0..<3).map { s in Self.tree(Self.base() + [Self.mover(2 * n + s)]) }
      var tree = RenderTree(
        size: samples[0].size, backgroundColor: samples[0].backgroundColor, layers: samples[0].layers, time: Double(n))
      tree.shutterSamples = samples
      return tree
    }
    let cached = FrameRenderer.wholeFrames()
    for (n, tree) in trees.enumerated() {
      try expectEqual(cached.render(tree), Renderer().render(tree), "frame \(n)")
    }
    // Kept in the third sample; every sample after it starts from the copy.
    expectEqual(cached.prefixStatistics.framesReused, 9)
  }

  @Test func aPrefixOfAFewSolidFillsAndTextIsNotKept() throws {
    // Drawing these costs about what copying the frame would: nothing is kept.
    let cheap = [
      Self.base()[3],
      Layer(
        id: "bar", bounds: Rect(x: 0, y: 0, width: 150, height: 8), position: Point(x: 100, y: 140),
        backgroundColor: Self.c("#334155")),
    ]
    let cached = FrameRenderer.wholeFrames()
    for n in 0..<5 {
      let tree = Self.tree(cheap + [Self.mover(n)])
      try expectEqual(cached.render(tree), Renderer().render(tree), "frame \(n)")
    }
    expectEqual(cached.prefixStatistics, StaticPrefix.Statistics())
    #expect(!StaticPrefix.isWorthKeeping(.init(layers: 2), in: cheap))
    #expect(StaticPrefix.isWorthKeeping(.init(layers: 1), in: Self.base()))
    // Four plain layers are.
    #expect(StaticPrefix.isWorthKeeping(.init(layers: 4), in: cheap + cheap))
  }

  @Test func aFailedFrameForgetsThePrefix() throws {
    let good = Self.tree(Self.base() + [Self.mover(0)])
    let missing = Layer(
      id: "photo", bounds: Rect(x: 0, y: 0, width: 20, height: 20), position: Point(x: 30, y: 30),
      contents: LayerImage(path: "/nonexistent/flick-static-prefix.png"))
    let bad = Self.tree(Self.base() + [missing])
    let cached = FrameRenderer.wholeFrames()
    _ = try cached.render(good)
    #expect(throws: RasterError.self) { try cached.render(bad) }
    let after = Self.tree(Self.base() + [Self.mover(1)])
    try expectEqual(cached.render(after), Renderer().render(after))
  }
}

/// A layer drawn as a group (opacity below 1, a mask, a tint) whose subtree, matrix and place on
/// the frame are unchanged is composited from its kept pixels, with the bytes of a redraw.
@Suite struct KeptGroupTests {
  static let c = Raster.hex

  /// A moving bottom layer (so no static prefix), then groups at rest and groups that move.
  static func trees(count: Int = 8) -> [RenderTree] {
    (0..<count).map { n in
      let drifting = Layer(
        id: "drift", bounds: Rect(x: 0, y: 0, width: 160, height: 120), position: Point(x: 90 + 1.3 * Double(n), y: 70),
        content: .gradient(
          GradientContent(colors: [c("#EC4899"), c("#8B5CF6")], startPoint: .zero, endPoint: Point(x: 1, y: 1))))
      let translucent = Layer(
        id: "glass", bounds: Rect(x: 0, y: 0, width: 70, height: 50), position: Point(x: 60.4, y: 50.6), opacity: 0.7,
        backgroundColor: c("#F8FAFC"), cornerRadius: 10, shadowOpacity: 0.3, shadowRadius: 5,
        sublayers: [
          Layer(
            id: "t", bounds: Rect(x: 0, y: 0, width: 60, height: 20), position: Point(x: 35, y: 25),
            content: .text(TextContent(string: "Glass", fontSize: 13, textColor: c("#0F172A"))))
        ])
      let masked = Layer(
        id: "masked", bounds: Rect(x: 0, y: 0, width: 60, height: 60), position: Point(x: 140, y: 95), opacity: 0.85,
        mask: Layer(
          id: "m", bounds: Rect(x: 0, y: 0, width: 60, height: 60), position: Point(x: 30, y: 30),
          content: .gradient(GradientContent(colors: [c("#000000"), c("#00000000")]))),
        content: .gradient(
          GradientContent(colors: [c("#22C55E"), c("#0EA5E9")], startPoint: .zero, endPoint: Point(x: 1, y: 0))))
      let tinted = Layer(
        id: "tinted", bounds: Rect(x: 0, y: 0, width: 40, height: 40), position: Point(x: 40, y: 120),
        backgroundColor: c("#FACC15"), cornerRadius: 20, colorMultiplier: c("#60A5FACC"))
      // Moves by a fraction of a pixel every frame: never reused, still exact.
      let sliding = Layer(
        id: "slide", bounds: Rect(x: 0, y: 0, width: 30, height: 30), position: Point(x: 100 + 0.37 * Double(n), y: 30),
        opacity: 0.5, backgroundColor: c("#EF4444"), cornerRadius: 6)
      // Rotates: never reused.
      let turning = Layer(
        id: "turn", bounds: Rect(x: 0, y: 0, width: 24, height: 24), position: Point(x: 170, y: 30), opacity: 0.6,
        backgroundColor: c("#10B981"), transform: LayerTransform(rotation: 0.2 * Double(n)))
      // A frosted layer inside a group reads the pixels behind: never kept.
      let frosted = Layer(
        id: "frostedGroup", bounds: Rect(x: 0, y: 0, width: 50, height: 40), position: Point(x: 150, y: 130),
        opacity: 0.9,
        sublayers: [
          Layer(
            id: "f", bounds: Rect(x: 0, y: 0, width: 50, height: 40), position: Point(x: 25, y: 20),
            backdrop: LayerBackdrop(.thin))
        ])
      // Changes in frame 4 only.
      var changing = Layer(
        id: "changing", bounds: Rect(x: 0, y: 0, width: 36, height: 22), position: Point(x: 30, y: 20), opacity: 0.8,
        backgroundColor: c("#1E293B"), cornerRadius: 4)
      if n == 4 { changing.backgroundColor = c("#7C3AED") }
      return Raster.tree(
        [drifting, translucent, masked, tinted, sliding, turning, frosted, changing], width: 200, height: 150,
        background: c("#0B1020"))
    }
  }

  @Test(arguments: [1.0, 1.5])
  func unchangedGroupsAreCompositedFromKeptPixels(scale: Double) throws {
    let trees = Self.trees()
    let cached = FrameRenderer.wholeFrames(scale: scale)
    let plain = FrameRenderer.wholeFrames(scale: scale)
    plain.reusesGroups = false
    for (n, tree) in trees.enumerated() {
      let frame = try cached.render(tree)
      expectEqual(frame, (try Renderer(scale: scale).render(tree)), "frame \(n) at scale \(scale)")
      expectEqual(frame, (try plain.render(tree)), "frame \(n) at scale \(scale)")
    }
    // glass, masked and tinted are kept in frame 1 and reused in frames 2–7 (18); changing in
    // frames 2–3, then (its frame-4 colour dropping the entry) kept again in 6 and reused in 7.
    expectEqual(cached.keptGroupHits, 21)
    expectEqual(plain.keptGroupHits, 0)
    expectEqual(cached.prefixStatistics.framesReused, 0)
  }

  @Test func randomOrderGivesTheSameBytes() throws {
    let trees = Self.trees(count: 6)
    let reference = try trees.map { try Renderer().render($0) }
    var random = SeededGenerator(seed: 4)
    let cached = FrameRenderer.wholeFrames()
    for n in (trees.indices.map { $0 } + trees.indices.map { $0 } + [2, 2, 2]).shuffled(using: &random) {
      try expectEqual(cached.render(trees[n]), reference[n], "frame \(n)")
    }
  }
}

/// A frame can start inside a top-level container drawn straight into the frame (a root layer
/// or a page holding everything): after its shadow, background, content and first sublayers.
@Suite struct OpenedContainerPrefixTests {
  static let c = Raster.hex

  /// A page (opaque, clipped, with a shadow cast by its bounds) over a static backdrop layer,
  /// holding static sublayers under one that turns.
  static func page(_ n: Int, clips: Bool = true, background: Color = c("#F4EFE6")) -> Layer {
    let plinth = Layer(
      id: "plinth", bounds: Rect(x: 0, y: 0, width: 90, height: 90), position: Point(x: 70, y: 70), cornerRadius: 12,
      content: .gradient(GradientContent(colors: [c("#E8E1D5"), c("#D6CFC2")])))
    let title = Layer(
      id: "title", bounds: Rect(x: 0, y: 0, width: 80, height: 20), position: Point(x: 160, y: 30),
      content: .text(TextContent(string: "Now playing", fontSize: 12, textColor: c("#1C1917"))))
    let disc = Layer(
      id: "disc", bounds: Rect(x: 0, y: 0, width: 70, height: 70), position: Point(x: 70, y: 70),
      backgroundColor: c("#111111"),
      cornerRadius: 35, transform: LayerTransform(rotation: 0.3 * Double(n)),
      sublayers: [
        Layer(
          id: "mark", bounds: Rect(x: 0, y: 0, width: 8, height: 30), position: Point(x: 35, y: 18),
          backgroundColor: c("#DB2777"))
      ])
    let button = Layer(
      id: "button", bounds: Rect(x: 0, y: 0, width: 40, height: 40), position: Point(x: 170, y: 100),
      backgroundColor: c("#1C19170D"),
      cornerRadius: 20)
    return Layer(
      id: "page", bounds: Rect(x: 0, y: 0, width: 210, height: 140), position: Point(x: 110.5, y: 78),
      backgroundColor: background,
      shadowColor: c("#000000"), shadowOpacity: 0.45, shadowRadius: 8, shadowOffset: Point(x: -3, y: 0),
      masksToBounds: clips,
      sublayers: [plinth, title, disc, button])
  }

  static let library = Layer(
    id: "library", bounds: Rect(x: 0, y: 0, width: 220, height: 160), position: Point(x: 110, y: 80),
    content: .gradient(GradientContent(colors: [c("#1C1917"), c("#44403C")])))

  static func trees() -> [RenderTree] {
    var trees: [RenderTree] = []
    func add(_ layers: [Layer]) { trees.append(Raster.tree(layers, width: 220, height: 160, background: c("#1C1917"))) }
    for n in 0..<5 { add([library, page(n)]) }  // 0–4: inside the page after the title
    for n in 5..<7 { add([library, page(n, background: c("#FFFFFF"))]) }  // the page's own colour changes
    for n in 7..<10 { add([library, page(n, clips: false)]) }  // unclipped: its shadow is cast by its content
    var reordered = page(10)
    reordered.sublayers[0].zPosition = 2  // the plinth is drawn last now
    add([library, reordered])
    for n in 11..<14 {
      var inserted = page(n)
      inserted.sublayers.insert(
        Layer(
          id: "dot", bounds: Rect(x: 0, y: 0, width: 6, height: 6), position: Point(x: 20, y: 120),
          backgroundColor: c("#DB2777")), at: 1)
      add([library, inserted])
    }
    for n in 14..<17 { add([page(n)]) }  // the page alone at the bottom
    return trees
  }

  @Test(arguments: [1.0, 2.0])
  func framesStartingInsideThePageAreByteIdentical(scale: Double) throws {
    let trees = Self.trees()
    let cached = FrameRenderer.wholeFrames(scale: scale)
    for (n, tree) in trees.enumerated() {
      try expectEqual(cached.render(tree), Renderer(scale: scale).render(tree), "frame \(n) at scale \(scale)")
    }
    // 3–4 start inside the page (after the plinth and the title, kept in 2); from 6 on the
    // library at least.
    expectEqual(cached.prefixStatistics.framesStartedInside, 2)
    expectGreaterOrEqual(cached.prefixStatistics.framesReused, 7)
  }

  @Test func opensOnlyLayersDrawnStraightIntoTheFrame() {
    var page = Self.page(0)
    #expect(StaticPrefix.opens(page))
    page.opacity = 0.9
    #expect(!StaticPrefix.opens(page))
    page = Self.page(0)
    page.transform = LayerTransform(rotationY: 0.4, perspective: 500)
    #expect(!StaticPrefix.opens(page))
    page = Self.page(0)
    page.colorMultiplier = Self.c("#FF000080")
    #expect(!StaticPrefix.opens(page))
    // Its own properties differ: the position is before its sublayers.
    let a = [Self.library, Self.page(0)]
    var moved = Self.page(1)
    moved.position.x += 1
    expectEqual(StaticPrefix.shared(a, [Self.library, moved], shadowIsBounds: { _ in true }), .init(layers: 1))
    expectEqual(
      StaticPrefix.shared(a, [Self.library, Self.page(1)], shadowIsBounds: { _ in true }),
      .init(layers: 1, sublayers: 2))
    // A shadow cast by the sublayers: not opened.
    expectEqual(StaticPrefix.shared(a, [Self.library, Self.page(1)], shadowIsBounds: { _ in false }), .init(layers: 1))
  }
}
