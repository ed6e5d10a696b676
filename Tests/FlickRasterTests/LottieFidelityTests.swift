@testable import FlickRaster
import FlickExpectations
@testable import FlickScene
import Foundation
import Testing

/// Files rlottie 0.1 drew otherwise than lottie-web: Flick's copy for rlottie writes them so
/// that rlottie draws what lottie-web draws, or Flick refuses them with the place in the file.
/// The fixtures in `Fixtures/lottie-fidelity` are 100 × 100 files made for Flick's review (same
/// licence as the repository), each using one feature; the pixels expected are lottie-web's.
@Suite struct LottieFidelityTests {
  static let folder = Raster.fixtures.appendingPathComponent("lottie-fidelity")
  static func path(_ name: String) -> String { folder.appendingPathComponent("\(name).json").path }

  /// The straight RGBA pixels of `name`'s frame `frame` at `points`.
  static func pixels(_ name: String, frame: Int = 0, at points: [(Int, Int)]) throws -> [[Int]] {
    let file = try LottieFile.load(path: path(name))
    try file.requireSupported()
    let scene = file.scene()
    let picture = try FrameRenderer().render(scene.renderTree(at: scene.time(ofFrame: frame)))
    return points.map { x, y in
      let p = picture.rgba(x: x, y: y)
      return [Int(p.r), Int(p.g), Int(p.b), Int(p.a)]
    }
  }

  static func findings(_ name: String) throws -> [String] {
    try LottieFile.load(path: path(name)).unsupportedFeatures
  }

  static func close(_ a: [[Int]], _ b: [[Int]], within tolerance: Int = 2) -> Bool {
    a.count == b.count && zip(a, b).allSatisfy { x, y in zip(x, y).allSatisfy { abs($0 - $1) <= tolerance } }
  }

  @Test(arguments: [("o_l100_5", 255), ("o_f120", 255), ("o_lm20", 0)])
  func staticOpacityOutsideTheRangeIsClamped(name: String, alpha: Int) throws {
    expectEqual(try Self.pixels(name, at: [(50, 50)])[0][3], alpha)
  }

  @Test func keyframedOpacityIsClampedWhereExactAndRefusedWhereNot() throws {
    func property(_ a: Double, _ b: Double, overshoot: Double = 1) throws -> LottieJSON {
      try LottieJSON.parse(
        Data(
          #"{"a":1,"k":[{"t":0,"s":[\#(a)],"i":{"x":[0.3],"y":[\#(overshoot)]},"o":{"x":[0.2],"y":[0]}},{"t":30,"s":[\#(b)]}]}"#
            .utf8))
    }
    func drawn(_ p: LottieJSON) -> (Double, Double)? {
      LottieFeatureInspector.range(LottieRlottieCopy.clampedOpacity(p))
    }
    // Wholly above 100: the clamped keyframes are the clamped curve.
    #expect(try drawn(property(120, 150)).map { $0 == (100, 100) } == true)
    #expect(try drawn(property(-20, -5)).map { $0 == (0, 0) } == true)
    // Across 100, or overshooting out of 0…100: left for the inspector to refuse.
    #expect(try drawn(property(50, 150)).map { $0 == (50, 150) } == true)
    let overshoot = try #require(try drawn(property(0, 100, overshoot: 1.6)))
    #expect(overshoot.1 > 100)
    #expect(try Self.findings("o_overshoot").contains { $0.contains("layer opacity (ks.o) that can leave 0…100") })
  }

  @Test func gradientOpacityStopsAllOneAreLeftOutOthersRefused() throws {
    #expect(
      Self.close(try Self.pixels("grad_op11_mid", at: [(30, 50), (70, 50)]), [[177, 0, 78, 255], [75, 0, 180, 255]]))
    for name in ["grad_same", "g_1_05"] {
      #expect(try Self.findings(name).contains { $0.contains("a gradient with opacity stops other than 1") })
    }
  }

  @Test(arguments: [
    ("maskinv_ccw_True", "an inverted mask"), ("smask_s_inv", "an inverted mask"),
    ("mask_a_o50", "mask opacity other than 100"), ("mask_o0", "mask opacity other than 100"),
    ("mask_o50anim", "mask opacity other than 100"), ("smask_a_o50", "mask opacity other than 100"),
    ("rd", "round corners"), ("tp", "a track matte by reference (tp: 1)"), ("shapebm", "blend mode 1 on a shape item"),
    ("perdim", "easing that differs between dimensions"),
  ])
  func refused(name: String, feature: String) throws {
    let findings = try Self.findings(name)
    #expect(findings.contains { $0.contains(feature) }, "\(findings)")
    #expect(throws: LottieFileError.self) { try LottieFile.load(path: Self.path(name)).requireSupported() }
  }

  @Test(arguments: ["mask_n", "smask_n"])
  func masksOfModeNoneAreIgnored(name: String) throws {
    #expect(Self.close(try Self.pixels(name, at: [(25, 50), (75, 50)]), [[255, 0, 0, 255], [255, 0, 0, 255]]))
  }

  @Test func repeaterOpacityStepsOverCopiesLessOne() throws {
    let alphas = try Self.pixels("rep", at: [(20, 50), (50, 50), (80, 50)]).map { $0[3] }
    #expect(Self.close([alphas], [[255, 153, 51]]), "\(alphas)")
  }

  @Test(arguments: [
    ("h_parent_self", "layers[0].parent"), ("h_parent_cycle", "layers[0].parent"),
    ("h_parent_cycle3", "layers[0].parent"),
  ])
  func parentCyclesAreRefusedAtTheParent(name: String, place: String) throws {
    let error = try #require(throws: LottieFileError.self) { try LottieFile.load(path: Self.path(name)) }
    #expect(error.message.hasPrefix(place + ": the parent chain comes back"), "\(error.message)")
    #expect(error.line != nil)
  }

  @Test(arguments: ["lop_2p31", "lop_3e9", "lip_-2p31", "h_layer_huge_ipop"])
  func layerTimesBeyond32BitsAreDrawn(name: String) throws {
    expectEqual(try Self.pixels(name, frame: 5, at: [(50, 50)]), [[255, 0, 0, 255]])
  }

  /// lottie-web ignores `rz` on a transform without `rx`: the 40 × 10 bar stays level.
  @Test func zRotationWithoutXRotationIsIgnored() throws {
    expectEqual(try Self.pixels("rz", at: [(65, 50), (50, 35)]), [[255, 0, 0, 255], [0, 0, 0, 0]])
  }
}
