import FlickMotion
@testable import FlickRaster
import FlickExpectations
import FlickScene
import Foundation
import Testing

/// Motion blur: the analytic timeline sampled over the shutter, averaged in linear light.
@Suite struct MotionBlurTests {
  /// A 20 × 40 white box on black moving right at `speed` points per second (linear), and a
  /// still 20 × 20 grey square elsewhere.
  static func scene(speed: Double, blur: MotionBlur?) -> Scene {
    var box = Layer(id: "box")
    box.bounds = Rect(x: 0, y: 0, width: 20, height: 40)
    box.position = Point(x: 50, y: 30)
    box.backgroundColor = .white
    var still = Layer(id: "still")
    still.bounds = Rect(x: 0, y: 0, width: 20, height: 20)
    still.position = Point(x: 150, y: 80)
    still.backgroundColor = Color(red: 0.5, green: 0.6, blue: 0.7)
    var scene = Scene(
      size: Size(width: 200, height: 100), fps: 30, duration: 1, backgroundColor: .black, layers: [box, still],
      animations: [
        LayerAnimation(layerID: "box", property: .positionX, duration: 1, value: { 50 + speed * $0 })
      ])
    scene.motionBlur = blur
    return scene
  }

  /// Pixels along row `y` brighter than black, and fully white ones.
  static func extent(_ f: Frame, row y: Int, in xs: Range<Int> = 0..<200) -> (ink: Int, solid: Int) {
    let reds = xs.map { f.rgba(x: $0, y: y).r }
    return (reds.filter { $0 > 2 }.count, reds.filter { $0 >= 253 }.count)
  }

  @Test func withNothingMovingTheFrameIsByteIdenticalToNoBlur() throws {
    let sharp = Self.scene(speed: 0, blur: nil)
    let blurred = Self.scene(speed: 0, blur: MotionBlur(shutterAngle: 360, samples: 16))
    let tree = blurred.renderTree(at: 0.5)
    #expect(tree.shutterSamples.isEmpty)  // adaptive: drawn once
    let same = try Renderer().render(tree) == Renderer().render(sharp.renderTree(at: 0.5))
    #expect(same)
  }

  @Test func aMovingLayerSmearsByShutterTimesVelocityAndTheStillOneStaysSharp() throws {
    // 600 pt/s at 30 fps: a 180° shutter is open 1/60 s → a 10-point smear; 360° → 20 points.
    for (angle, smear) in [(180.0, 10), (360.0, 20)] {
      let scene = Self.scene(speed: 600, blur: MotionBlur(shutterAngle: angle, samples: 32))
      let tree = scene.renderTree(at: 0.1)
      expectEqual(tree.shutterSamples.count, 32)
      let frame = try Renderer().render(tree)
      let e = Self.extent(frame, row: 30)
      // The box (20 wide) covers 20 + smear points at all, and 20 − smear fully.
      expectLessOrEqual(abs(e.ink - (20 + smear)), 1, "\(angle)°: ink \(e.ink)")
      expectLessOrEqual(abs(e.solid - (20 - smear)), 1, "\(angle)°: solid \(e.solid)")
      // The still square is exactly what it is without blur.
      let sharp = try Renderer().render(Self.scene(speed: 600, blur: nil).renderTree(at: 0.1))
      for y in 70..<90 {
        for x in 140..<160 {
          #expect(frame.rgba(x: x, y: y) == sharp.rgba(x: x, y: y))
        }
      }
    }
    let sharp = try Renderer().render(Self.scene(speed: 600, blur: nil).renderTree(at: 0.1))
    expectEqual(Self.extent(sharp, row: 30).ink, 20)
  }

  @Test func theAverageIsInLinearLight() {
    // Half white, half black: the mean light is 0.5, sRGB 188 (a plain byte average would be 128).
    let white = Frame(width: 1, height: 1, bytesPerRow: 4, pixels: [255, 255, 255, 255])
    let black = Frame(width: 1, height: 1, bytesPerRow: 4, pixels: [0, 0, 0, 255])
    let mean = ShutterAverage.average([white, black])
    expectEqual(mean.pixels, [188, 188, 188, 255])
    // Coverage (alpha) averages plainly; colour is weighted by it.
    let clear = Frame(width: 1, height: 1)
    let red = Frame(width: 1, height: 1, bytesPerRow: 4, pixels: [0, 0, 255, 255])
    expectEqual(ShutterAverage.average([red, clear]).pixels, [0, 0, 128, 128])
  }

  @Test func framesAreDeterministicAndTheSameFromEveryRenderer() throws {
    let scene = Self.scene(speed: 900, blur: MotionBlur(shutterAngle: 180, samples: 16))
    let cached = FrameRenderer()
    for n in [3, 7, 3, 20] {
      let tree = scene.renderTree(at: scene.time(ofFrame: n))
      let a = try Renderer().render(tree)
      let b = try Renderer().render(scene.renderTree(at: scene.time(ofFrame: n)))
      let c = try cached.render(tree)
      let same = a == b && b == c
      #expect(same, "frame \(n)")
    }
  }

  /// A worker draws each blurred frame's samples into the buffers of the last one's (fresh
  /// pages cost more than the drawing on some machines), with the same bytes as `Renderer`.
  @Test func aWorkerDrawsTheSamplesIntoTheBuffersItUsedBefore() throws {
    let scene = Self.scene(speed: 900, blur: MotionBlur(shutterAngle: 180, samples: 8))
    let worker = FrameRenderer()
    for n in 2..<7 {
      let tree = scene.renderTree(at: scene.time(ofFrame: n))
      try #require(tree.shutterSamples.count == 8)
      let same = try worker.render(tree) == Renderer().render(tree)
      #expect(same, "frame \(n)")
    }
    let buffers = try #require(worker.sampleBuffers)
    expectEqual(buffers.allocated, 8)
    expectEqual(buffers.reused, 4 * 8)
    expectEqual(buffers.copied, 0)
    expectEqual(buffers.returned, 5 * 8)
    // A renderer kept between requests (the studio's) keeps none, with the same bytes.
    let kept = FrameRenderer(drawsInPlace: true, keepsSampleBuffers: false)
    let tree = scene.renderTree(at: scene.time(ofFrame: 3))
    let same = try kept.render(tree) == Renderer().render(tree)
    #expect(same)
    #expect(kept.sampleBuffers == nil)
  }

  @Test func sampleTimesAreCentredOnTheFrame() {
    let times = MotionBlur(shutterAngle: 180, samples: 4).sampleTimes(at: 1, fps: 25)
    let exposure = 0.5 / 25
    let expected = [-0.375, -0.125, 0.125, 0.375].map { 1 + $0 * exposure }
    #expect(zip(times, expected).allSatisfy { abs($0 - $1) < 1e-12 })
  }
}

/// Frame reuse (``Renderer/drawsIdentically(_:_:)``) must see the shutter: two frames whose own
/// trees agree are still different pictures when their blur samples differ.
@Suite struct MotionBlurReuseTests {
  @Test func framesWithOtherShutterSamplesAreNotReused() {
    var box = Layer(id: "box")
    box.bounds = Rect(x: 0, y: 0, width: 20, height: 20)
    box.position = Point(x: 50, y: 50)
    var moved = box
    moved.position = Point(x: 60, y: 50)
    let plain = Raster.tree([box])
    var blurred = Raster.tree([box])
    blurred.shutterSamples = [Raster.tree([box]), Raster.tree([moved])]
    var otherBlur = Raster.tree([box])
    otherBlur.shutterSamples = [Raster.tree([moved]), Raster.tree([box])]
    #expect(Renderer.drawsIdentically(plain, plain))
    #expect(Renderer.drawsIdentically(blurred, blurred))
    #expect(!Renderer.drawsIdentically(plain, blurred))
    #expect(!Renderer.drawsIdentically(blurred, otherBlur))
  }
}
