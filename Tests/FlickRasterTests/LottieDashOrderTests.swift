@testable import FlickRaster
import FlickExpectations
@testable import FlickScene
import Foundation
import Testing

/// Dash lists drawn as lottie-web reads them: by the entries' names (`o` the offset, the last
/// one if several, 0 if none; the others the dash array in file order, an odd one repeated),
/// where rlottie 0.1 reads them by place. `Fixtures/lottie/dashes.json` has one line a row, from
/// x 10 to 190, 4 points wide with butt caps; a pixel at x is on the line at 10 + x + 0.5 points.
@Suite struct LottieDashOrderTests {
  static func frame(_ name: String, frame: Int = 0) throws -> Frame {
    let scene = try LottieFile.load(path: LottieTests.fixture(name)).scene()
    return try FrameRenderer().render(scene.renderTree(at: scene.time(ofFrame: frame)))
  }

  /// The x coordinates in row `y` that are not `on`/`off` as expected (alpha above 200, below 30).
  static func wrong(_ frame: Frame, y: Int, on: [Int], off: [Int]) -> [Int] {
    on.filter { frame.rgba(x: $0, y: y).a <= 200 } + off.filter { frame.rgba(x: $0, y: y).a >= 30 }
  }

  static func row(_ frame: Frame, _ y: Int) -> [UInt8] {
    Array(frame.pixels[(y - 3) * frame.bytesPerRow..<(y + 3) * frame.bytesPerRow])
  }

  @Test func entriesAreReadByName() throws {
    let frame = try Self.frame("dashes")
    // `[d 20, g 10, o 5]` (rlottie's order already): dashes of 20 every 30 points from 5 in.
    let fromFive = (on: [17, 45, 75, 105], off: [30, 60, 90])
    expectEqual(Self.wrong(frame, y: 120, on: fromFive.on, off: fromFive.off), [])
    // `o` first, `o` between the dash and the gap, two `o` (the last wins): the same line.
    expectEqual(Self.wrong(frame, y: 20, on: fromFive.on, off: fromFive.off), [])
    let same20 = Self.row(frame, 20) == Self.row(frame, 120)
    #expect(same20, "o first")
    let same40 = Self.row(frame, 40) == Self.row(frame, 120)
    #expect(same40, "o between d and g")
    let same160 = Self.row(frame, 160) == Self.row(frame, 120)
    #expect(same160, "two offsets")
    // `[g 10, d 20, o 5]`: the array is in file order, a gap named first is the first dash.
    expectEqual(Self.wrong(frame, y: 140, on: [12, 40, 70], off: [25, 55, 85]), [])
  }

  @Test func noOffsetIsAnOffsetOfZero() throws {
    // `[d 20, g 10]`: dashes of 20 from the start (rlottie read g as the offset, d as its gap too).
    expectEqual(Self.wrong(try Self.frame("dashes"), y: 60, on: [20, 50, 80], off: [34, 64, 94]), [])
  }

  @Test func anOddDashArrayIsRepeated() throws {
    // `[d 20, g 10, d 5, o 0]` dashes as SVG's `20 10 5 20 10 5` (rlottie: `20 10 5 5`).
    let frame = try Self.frame("dashes")
    expectEqual(Self.wrong(frame, y: 80, on: [20, 42, 70, 90], off: [35, 55, 77, 105]), [])
  }

  @Test func animatedDashesMoveWithTheirKeyframes() throws {
    // `[o 0, d 20→40 over frames 0–10, g 10]`: at frame 0 dashes of 20 every 30, at frame 5 of
    // 30 every 40.
    expectEqual(Self.wrong(try Self.frame("dashes"), y: 100, on: [20, 50, 80], off: [35, 64]), [])
    expectEqual(Self.wrong(try Self.frame("dashes", frame: 5), y: 100, on: [35, 60, 100], off: [45, 85]), [])
  }

  @Test func aPatternOfLengthZeroIsASolidStroke() throws {
    // `[d 0, g 0, o 5]`, `[d 0, o 0]` and `[o 3]`: SVG draws a dash array adding up to 0, or
    // none, as a solid stroke (lottie-web's picture).
    let file = try LottieFile.load(path: LottieTests.fixture("dashes-zero"))
    expectEqual(file.unsupportedFeatures, [])
    let frame = try Self.frame("dashes-zero")
    let along = Array(stride(from: 11, through: 188, by: 1))
    for y in [20, 40, 60] { expectEqual(Self.wrong(frame, y: y, on: along, off: [5, 195]), [], "row \(y)") }
  }

  @Test func theCopyKeepsListsRlottieAlreadyReadsAsLottieWeb() {
    func names(_ list: String) -> String {
      let entries = list.map { LottieJSON.object([.init(key: "n", value: .string(String($0)), offset: 0)]) }
      switch LottieDashList.reading(entries) {
      case .kept: return "kept"
      case .solid: return "solid"
      case .reordered(let out): return String(out.compactMap { $0["n"]?.text?.first })
      }
    }
    expectEqual(names("dgo"), "kept")
    expectEqual(names("do"), "kept")
    expectEqual(names("dgdgo"), "kept")
    expectEqual(names("gdo"), "kept")
    expectEqual(names("odg"), "dgo")
    expectEqual(names("dg"), "dgo")
    expectEqual(names("d"), "ddo")
    expectEqual(names("dgdo"), "dgddgdo")
    expectEqual(names("odgo"), "dgo")
    expectEqual(names("o"), "solid")
  }
}
