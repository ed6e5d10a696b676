import CRLottie
import FlickMotion
@testable import FlickRaster
import FlickExpectations
import FlickScene
import Foundation
import Testing

/// Lottie files drawn by rlottie: the pixels are rlottie's own, composed like any layer.
///
/// The fixtures in `Fixtures/lottie` are made by hand by the Flick authors (`make-fixtures.py`
/// writes them; same licence as the repository): shapes, trim paths, linear and radial
/// gradients (`shapes-trim`), masks, a track matte and a precomposition used twice with a time
/// offset (`masks-precomp`), a card flip by negative scale and rotation (`card-flip`), and one
/// using features rlottie 0.1 does not draw (`has-text`: a text layer, skew, an expression).
@Suite struct LottieTests {
  static let folder = Raster.fixtures.appendingPathComponent("lottie")
  static func fixture(_ name: String) -> String { folder.appendingPathComponent("\(name).json").path }
  static let drawable = ["shapes-trim", "masks-precomp", "card-flip"]

  /// rlottie's own rendering of `frame` at `width × height`, through its C API, as BGRA bytes.
  static func rlottieFrame(_ path: String, frame: Int, width: Int, height: Int) throws -> [UInt8] {
    let animation = try #require(lottie_animation_from_file(path))
    defer { lottie_animation_destroy(animation) }
    var buffer = [UInt32](repeating: 0, count: width * height)
    buffer.withUnsafeMutableBufferPointer {
      lottie_animation_render(animation, frame, $0.baseAddress, width, height, width * 4)
    }
    return buffer.withUnsafeBytes { [UInt8]($0) }
  }

  static func scene(_ name: String, background: Color = .clear) throws -> Scene {
    try LottieFile.load(path: fixture(name)).scene(backgroundColor: background)
  }

  @Test(arguments: drawable)
  func everyFrameIsRlottiesOwnByteForByte(name: String) throws {
    let scene = try Self.scene(name)
    let file = try LottieFile.load(path: Self.fixture(name))
    expectEqual(scene.frameCount, file.frameCount)
    let renderer = FrameRenderer()
    for n in 0..<scene.frameCount {
      let frame = try renderer.render(scene.renderTree(at: scene.time(ofFrame: n)))
      expectEqual(frame.bytesPerRow, frame.width * 4)
      let expected = try Self.rlottieFrame(Self.fixture(name), frame: n, width: frame.width, height: frame.height)
      let same = frame.pixels == expected
      #expect(same, "\(name) frame \(n) differs from rlottie's")
      if !same { break }
    }
  }

  @Test(arguments: drawable)
  func twiceTheScaleIsRlottieAtTwiceTheSize(name: String) throws {
    let scene = try Self.scene(name)
    let frame = try Renderer(scale: 2).render(scene.renderTree(at: scene.time(ofFrame: 17)))
    expectEqual(frame.width, Int(scene.size.width) * 2)
    let expected = try Self.rlottieFrame(Self.fixture(name), frame: 17, width: frame.width, height: frame.height)
    let same = frame.pixels == expected
    #expect(same)
  }

  @Test func framesAreTheSameInAnyOrderAndFromAnyRenderer() throws {
    let scene = try Self.scene("masks-precomp", background: .white)
    let sequential = FrameRenderer()
    let frames = try (0..<scene.frameCount).map { try sequential.render(scene.renderTree(at: scene.time(ofFrame: $0))) }
    let shuffled = FrameRenderer()
    for n in [59, 3, 3, 40, 0, 21, 58] {
      let cached = try shuffled.render(scene.renderTree(at: scene.time(ofFrame: n))) == frames[n]
      let plain = try Renderer().render(scene.renderTree(at: scene.time(ofFrame: n))) == frames[n]
      #expect(cached, "frame \(n)")
      #expect(plain, "frame \(n)")
    }
    // Different frames really differ (the animation moves).
    let moved = frames[0] != frames[30]
    #expect(moved)
  }

  @Test func aHeldFrameIsDrawnOnceByAFrameRenderer() throws {
    var scene = try Self.scene("shapes-trim")
    scene.animations = []  // frame 0 throughout
    // Drawn whole, the second frame takes the Lottie frame from the cache.
    let renderer = FrameRenderer.wholeFrames()
    let first = try renderer.render(scene.renderTree(at: 0))
    let before = renderer.cacheStatistics
    let same = try renderer.render(scene.renderTree(at: 0.5)) == first
    #expect(same)
    expectEqual(renderer.cacheStatistics.hits, before.hits + 1)
    // With damage regions (the default) it is a copy of the first: nothing is drawn again.
    let copying = FrameRenderer()
    let again = try copying.render(scene.renderTree(at: 0))
    let drawn = copying.damageStatistics.redrawnPixels
    try expectEqual(copying.render(scene.renderTree(at: 0.5)), again)
    expectEqual(copying.damageStatistics.redrawnPixels, drawn)
  }

  @Test func theLayerComposesWithOpacityTransformAndBackground() throws {
    let file = try LottieFile.load(path: Self.fixture("shapes-trim"))
    var layer = Layer(id: "anim")
    layer.bounds = Rect(x: 0, y: 0, width: 100, height: 100)
    layer.position = Point(x: 100, y: 100)
    layer.content = .lottie(
      LottieContent(path: file.path, size: file.size, frameCount: file.frameCount, frameRate: 30, frame: 20))
    let plain = try Raster.render([layer], background: .white)
    // Half the size: the ink stays inside the layer's 100-point box around the centre.
    let ink = try #require(plain.inkBounds(background: .white))
    expectGreaterOrEqual(ink.minX, 50)
    expectLess(ink.maxX, 150)
    expectGreaterOrEqual(ink.minY, 50)
    expectLess(ink.maxY, 150)
    var faded = layer
    faded.opacity = 0.5
    let half = try Raster.render([faded], background: .white)
    let changed = half != plain
    #expect(changed)
    // Faded ink is lighter than the opaque ink at the same pixel.
    let x = (ink.minX + ink.maxX) / 2
    let y = (ink.minY + ink.maxY) / 2
    expectLessOrEqual(half.darkness(x, y), plain.darkness(x, y))
    var turned = layer
    turned.transform.rotationY = .pi / 4
    turned.transform.perspective = 500
    let projected = try Raster.render([turned], background: .white)
    let narrow = try #require(projected.inkBounds(background: .white))
    expectLess(narrow.maxX - narrow.minX, ink.maxX - ink.minX)
  }

  @Test func frameIndexHoldsOrLoops() {
    var c = LottieContent(path: "x.json", size: Size(width: 10, height: 10), frameCount: 10, frameRate: 30)
    c.frame = 12.5
    expectEqual(c.frameIndex, 9)
    c.frame = -3
    expectEqual(c.frameIndex, 0)
    c.loops = true
    c.frame = 12.5
    expectEqual(c.frameIndex, 2)
    c.frame = -1
    expectEqual(c.frameIndex, 9)
    c.frame = 2.9999999
    expectEqual(c.frameIndex, 3)  // a rounding error below a whole frame is that frame
    c.progress = 1
    expectEqual(c.frame, 9)
    c.progress = 0.5
    expectEqual(c.frame, 4.5)
  }

  @Test func unsupportedFeaturesAreReportedWithWhereTheyAre() throws {
    let file = try LottieFile.load(path: Self.fixture("has-text"))
    expectEqual(
      file.unsupportedFeatures,
      [
        "layers[0] 'Title': a text layer", "layers[1] 'slanted': skew (rlottie 0.1 draws it unskewed)",
        "layers[2] 'wobble': expressions",
      ])
    #expect(throws: LottieFileError.self) { try file.requireSupported() }
    for name in Self.drawable {
      try expectEqual(LottieFile.load(path: Self.fixture(name)).unsupportedFeatures, [])
    }
    var layer = Layer(id: "t")
    layer.bounds = Rect(origin: .zero, size: file.size)
    layer.position = Point(x: 100, y: 100)
    layer.content = .lottie(LottieContent(path: file.path, size: file.size, frameCount: file.frameCount, frameRate: 30))
    #expect {
      try Renderer().checkVectorFiles(of: Raster.tree([layer]))
    } throws: { error in
      guard case RasterError.unreadableLottie(let path, let reason) = error else { return false }
      return path == file.path && reason.contains("a text layer")
    }
    // Drawing it fails the same way rather than drawing it wrong.
    #expect(throws: RasterError.self) { _ = try Raster.render([layer]) }
  }

  @Test func aLottieFileIsKnownByItsContent() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("flick-lottie-\(getpid())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let renamed = dir.appendingPathComponent("animation.txt")
    try FileManager.default.copyItem(atPath: Self.fixture("card-flip"), toPath: renamed.path)
    #expect(LottieFile.isLottie(path: renamed.path))
    let notLottie = dir.appendingPathComponent("data.json")
    try Data(#"{"v": "5", "fr": 30, "w": 10}"#.utf8).write(to: notLottie)
    #expect(!LottieFile.isLottie(path: notLottie.path))
    #expect(
      throws: LottieFileError(path: notLottie.path, message: "is not a Lottie file: missing 'ip', 'op', 'h', 'layers'")
    ) {
      try LottieFile.load(path: notLottie.path)
    }
    #expect(!LottieFile.isLottie(path: Raster.fixtures.appendingPathComponent("green-blue-16.png").path))
    let broken = dir.appendingPathComponent("broken.json")
    try Data(#"{"v": "5", "fr": 30, "ip": 0, "op": 10, "w": 10, "h": 10, "layers": [ }"#.utf8).write(to: broken)
    #expect(throws: LottieFileError.self) { try LottieFile.load(path: broken.path) }
  }

  @Test func fileFacts() throws {
    let file = try LottieFile.load(path: Self.fixture("shapes-trim"))
    expectEqual(file.size, Size(width: 200, height: 200))
    expectEqual(file.frameRate, 30)
    expectEqual(file.frameCount, 60)
    expectEqual(file.duration, 2)
    expectEqual(file.layers.map(\.name), ["ring", "box", "star"])
    expectEqual(file.markers.map(\.name), ["intro", "outro"])
    let masks = try LottieFile.load(path: Self.fixture("masks-precomp"))
    expectEqual(masks.precompositionCount, 1)
    expectEqual(masks.layers.map(\.kind), ["precomp", "precomp", "shape", "solid", "solid"])
    let card = try LottieFile.load(path: Self.fixture("card-flip"))
    expectEqual(card.frameRate, 25)
    expectEqual(card.frameCount, 45)
  }
}

@Suite struct FingerprintLibraryTests {
  @Test func theFingerprintNamesRlottieAndLibrsvg() {
    let f = RendererFingerprint.current
    expectEqual(f.rlottie?.hasPrefix("0.1"), true, "\(f)")
    expectEqual(f.librsvg?.hasPrefix("2."), true, "\(f)")
    #expect(f.description.contains("rlottie \(f.rlottie ?? "")"))
    #expect(f.description.contains("librsvg"))
    // A manifest from before Flick drew Lottie or SVG records neither: that is not drift.
    var old = f
    old.rlottie = nil
    old.librsvg = nil
    expectEqual(f.differences(from: old), [])
    var other = f
    other.rlottie = "0.2.0"
    expectEqual(f.differences(from: other), ["rlottie 0.2.0 → \(f.rlottie ?? "")"])
  }

  @Test func oldManifestsStillDecode() throws {
    let json =
      #"{"cairo":"1.16.0","pango":"1.50.12","pixman":"0.42.2","freetype":"2.12.1","harfbuzz":"6.0.0","architecture":"x86_64"}"#
    let f = try JSONDecoder().decode(RendererFingerprint.self, from: Data(json.utf8))
    #expect(f.rlottie == nil)
    #expect(f.librsvg == nil)
  }
}
