import FlickExpectations
import FlickMotion
import FlickRaster
import FlickScene
import Foundation
import Testing

@testable import FlickVideo

/// A scene's size, duration and fps, and a custom renderer's frames, are checked before anything
/// counts frames, sizes pixels or hands bytes to C: `validate()` throws a message in the API's
/// words instead of trapping (NaN, ∞ or 1e300 durations; NaN, ∞ or 1e20 canvases) or passing a
/// scene that renders one silent frame (a negative duration) or fails in ffmpeg (fps 0).
@Suite struct SceneInputValidationTests {
  static func scene(size: Size = Size(width: 320, height: 200), fps: Int = 30, duration: Double = 2) -> Scene {
    Scene(
      size: size, fps: fps, duration: duration,
      layers: [Layer(id: "card", bounds: Rect(x: 0, y: 0, width: 120, height: 80), position: Point(x: 80, y: 100))])
  }

  static func sessionError(_ scene: Scene) throws -> VideoError? {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("flick-scene-inputs-\(UUID().uuidString)")
    let session = RenderSession(scene: scene, outputs: [try OutputTarget(path: dir.path + "/out.mp4")])
    do {
      try session.validate()
      return nil
    } catch {
      return error
    }
  }

  @Test(arguments: [Double.nan, .infinity, -.infinity, 1e300, -5, 0])
  func aDurationThatIsNotAFiniteNumberAboveZeroIsRefused(duration: Double) throws {
    let scene = Self.scene(duration: duration)
    expectEqual(scene.frameCount, 1)
    let error = #expect(throws: SceneError.self) { try scene.validate() }
    #expect(error?.description.contains("duration") == true, "\(String(describing: error))")
    let session = try #require(try Self.sessionError(scene))
    #expect(session.isInvalidInput)
    #expect(session.description.contains("duration"), "\(session)")
  }

  @Test(arguments: [0, -5, 100_000])
  func anFPSOutsideOneToAThousandIsRefusedInTheAPIsWords(fps: Int) throws {
    let scene = Self.scene(fps: fps)
    let error = #expect(throws: SceneError.self) { try scene.validate() }
    #expect(error?.description.contains("fps must be 1…1000") == true, "\(String(describing: error))")
    let session = try #require(try Self.sessionError(scene))
    #expect(!session.description.contains("--"), "\(session)")
    #expect(session.description.contains("fps must be 1…1000"), "\(session)")
  }

  @Test(arguments: [
    Size(width: .nan, height: 200), Size(width: .infinity, height: 200), Size(width: -320, height: 200),
    Size(width: 0, height: 200),
  ])
  func aCanvasWhoseSidesAreNotFiniteAndPositiveIsRefused(size: Size) throws {
    let scene = Self.scene(size: size)
    let session = try #require(try Self.sessionError(scene))
    #expect(session.isInvalidInput)
    #expect(!session.description.contains("--scale"), "\(session)")
    #expect(throws: RasterError.self) { try Renderer().render(scene.renderTree(at: 0)) }
  }

  @Test func aHugeFiniteCanvasNamesItsSizeWithoutConvertingItToAnInt() throws {
    // Finite and positive: the scene accepts it; the session refuses its pixel size.
    let session = try #require(try Self.sessionError(Self.scene(size: Size(width: 1e19, height: 200))))
    #expect(session.description.contains("1e+19×200 canvas"), "\(session)")
    let both = try #require(try Self.sessionError(Self.scene(size: Size(width: 1e20, height: 1e20))))
    #expect(both.description.contains("1e+20×1e+20 canvas"), "\(both)")
  }

  @Test func aCustomRendererWhosePixelsDoNotFitItsFrameIsRefused() throws {
    let pipeline = RenderPipeline(jobs: 1, framesInFlight: 1) { _ in
      { _ in
        var frame = Frame(width: 64, height: 64)
        frame.pixels = [0, 0, 0, 0]
        return frame
      }
    }
    let scene = Self.scene()
    let error = #expect(throws: VideoError.self) {
      try pipeline.run(
        frames: 0..<2, tree: { scene.renderTree(at: scene.time(ofFrame: $0)) }, layouts: FrameLayouts(),
        onWorker: { _ in }
      ) { _ in }
    }
    #expect(error?.description.contains("the frame's pixels hold 4 bytes") == true, "\(String(describing: error))")
  }
}
