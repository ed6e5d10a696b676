import FlickMotion
import FlickRaster
import FlickScene
import Foundation
import Testing

/// Composite scenes compared exactly with PNGs in `Fixtures/golden/`. Set
/// `FLICK_RECORD_GOLDENS=1` to (re)write them; a recording run fails so it cannot pass by accident.
@Suite struct GoldenImageTests {
  static let folder = Raster.fixtures.appendingPathComponent("golden")

  static let cases: [(name: String, scene: Scene, time: Double)] = [
    ("cards-start", CompositeScenes.cards(), 0),
    ("cards-flip", CompositeScenes.cards(), 0.3),
    ("kinds", CompositeScenes.kinds(), 0),
  ]

  @Test(arguments: cases.indices)
  func matchesTheGolden(_ index: Int) throws {
    let item = Self.cases[index]
    let frame = try Renderer().render(item.scene.renderTree(at: item.time))
    let path = Self.folder.appendingPathComponent("\(item.name).png").path
    if ProcessInfo.processInfo.environment["FLICK_RECORD_GOLDENS"] == "1" {
      try FileManager.default.createDirectory(at: Self.folder, withIntermediateDirectories: true)
      try frame.writePNG(to: path)
      Issue.record("recorded \(path); run again without FLICK_RECORD_GOLDENS")
      return
    }
    let golden = try Frame(pngAt: path)
    if golden != frame {
      let actual = FileManager.default.temporaryDirectory.appendingPathComponent("\(item.name)-actual.png").path
      try? frame.writePNG(to: actual)
      Issue.record("\(item.name) differs from \(path); actual written to \(actual)")
    }
  }
}
