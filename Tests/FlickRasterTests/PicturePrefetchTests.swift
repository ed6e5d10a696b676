import FlickExpectations
import FlickMotion
import FlickScene
import FlickTestSupport
import Foundation
import Testing

@testable import FlickRaster

/// ``PicturePrefetch`` and the picture store under it: a picture several threads ask for at once
/// is decoded once, and a still's pictures decoded ahead are the ones its check and frame use.
@Suite struct PicturePrefetchTests {
  /// A copy of a fixture under a path of its own, so that no other test decodes it.
  static func privateCopy(of fixture: String, in folder: URL) throws -> String {
    let name = UUID().uuidString + "-" + fixture
    let path = folder.appendingPathComponent(name).path
    try FileManager.default.copyItem(atPath: Raster.fixtures.appendingPathComponent(fixture).path, toPath: path)
    return path
  }

  @Test func aPictureAskedForByManyThreadsAtOnceIsDecodedOnce() throws {
    let folder = try ProcessRunner.temporaryDirectory(prefix: "flick-pictures")
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = try Self.privateCopy(of: "green-blue-16.png", in: folder)
    let decoded = Locked<[DecodedImage]>([])
    DispatchQueue.concurrentPerform(iterations: 8) { _ in
      if let image = try? ImageStore.image(at: path) { decoded.withLock { $0.append(image) } }
    }
    let images = decoded.withLock { $0 }
    expectEqual(images.count, 8)
    #expect(images.allSatisfy { $0 === images[0] })
    expectEqual(ImageStore.decodeCount(of: path), 1)
  }

  @Test func aPictureThatFailsIsNotKeptAndEveryAskerGetsTheError() throws {
    let folder = try ProcessRunner.temporaryDirectory(prefix: "flick-pictures")
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("not-a-picture.png").path
    try Data("not a picture".utf8).write(to: URL(fileURLWithPath: path))
    let failures = Locked(0)
    DispatchQueue.concurrentPerform(iterations: 4) { _ in
      do {
        _ = try ImageStore.image(at: path)
      } catch {
        failures.withLock { $0 += 1 }
      }
    }
    expectEqual(failures.withLock { $0 }, 4)
    #expect(throws: RasterError.self) { try ImageStore.image(at: path) }
  }

  @Test func aStillsPicturesDecodedAheadAreTheOnesItsCheckAndFrameUse() throws {
    let folder = try ProcessRunner.temporaryDirectory(prefix: "flick-pictures")
    defer { try? FileManager.default.removeItem(at: folder) }
    let png = try Self.privateCopy(of: "green-blue-16.png", in: folder)
    let jpeg = try Self.privateCopy(of: "red-32x16.jpg", in: folder)
    var photo = Layer(id: "photo", bounds: Rect(x: 0, y: 0, width: 32, height: 32), position: Point(x: 20, y: 20))
    photo.contents = LayerImage(path: png)
    var masked = Layer(id: "masked", bounds: Rect(x: 0, y: 0, width: 32, height: 16), position: Point(x: 60, y: 20))
    masked.contents = LayerImage(path: png)
    var mask = Layer(id: "mask", bounds: Rect(x: 0, y: 0, width: 32, height: 16), position: Point(x: 16, y: 8))
    mask.contents = LayerImage(path: jpeg)
    masked.mask = mask
    var group = Layer(id: "group", bounds: Rect(x: 0, y: 0, width: 100, height: 40), position: Point(x: 50, y: 20))
    group.sublayers = [photo, masked]
    let prefetch = PicturePrefetch()
    prefetch.start([group])
    prefetch.finish()
    if ProcessInfo.processInfo.activeProcessorCount >= 2 {
      // Each path once, the mask's too.
      expectEqual(ImageStore.decodeCount(of: png), 1)
      expectEqual(ImageStore.decodeCount(of: jpeg), 1)
    }
    let tree = Raster.tree([group], width: 100, height: 40)
    try Renderer().checkResources(of: tree)
    let frame = try Renderer().render(tree)
    expectEqual(ImageStore.decodeCount(of: png), 1)
    expectEqual(ImageStore.decodeCount(of: jpeg), 1)
    #expect(frame.pixels.contains { $0 != 0 })
  }
}
