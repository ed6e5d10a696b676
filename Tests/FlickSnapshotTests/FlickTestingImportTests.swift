import FlickExpectations
import FlickTesting
import Testing

/// `import FlickTesting` alone gives a test what it needs to call `assertFrameSnapshot` and read its
/// verdicts (this file imports nothing else on purpose).
@Suite struct FlickTestingImportTests {
  @Test func theTypesATestNeedsComeWithFlickTesting() {
    let options: ComparisonOptions = .perceptual
    let times: [SnapshotTime] = [.percent(50), .end, .frame(3), .seconds(1.5)]
    let mode: RecordMode = .none
    let status: FrameVerdict.Status = .match
    let region = PixelRegion(x: 0, y: 0, width: 1, height: 1)
    let limits = DecodeLimits(maxPixels: 10)
    expectEqual(options.mode, .perceptual)
    expectEqual(ComparisonOptions.exact.mode, .exact)
    expectEqual(times.count, 4)
    expectEqual(mode, .none)
    expectEqual(status.rawValue, "match")
    expectEqual(region.width, 1)
    expectEqual(limits.maxPixels, 10)
  }
}
