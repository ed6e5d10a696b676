import FlickExpectations
import Foundation
import Testing

/// `flick info` says "every feature used is drawn" only when rlottie draws the file as lottie-web
/// does (Flick's copy rewritten where that is exact), and `flick still` refuses the rest with exit 2
/// and the place in the file.
@Suite struct LottieFidelityCommandTests {
  static let fixtures = CLITests.root.appendingPathComponent("Tests/FlickRasterTests/Fixtures/lottie-fidelity")

  @Test(arguments: [("rd", "round corners"), ("o_overshoot", "layer opacity (ks.o) that can leave 0…100")])
  func infoListsWhatIsNotDrawnAndStillRefusesIt(name: String, feature: String) throws {
    let file = Self.fixtures.appendingPathComponent("\(name).json").path
    let info = try CLITests.run(CLITests.flick, ["info", file])
    expectEqual(info.status, 0, "\(info.stderr)")
    #expect(info.stdout.contains("not drawn by rlottie"), "\(info.stdout)")
    #expect(info.stdout.contains("layers[0] 'shape1': \(feature)"), "\(info.stdout)")
    #expect(!info.stdout.contains("every feature used is drawn"))
    let out = FileManager.default.temporaryDirectory.appendingPathComponent("flick-fidelity-\(UUID()).png").path
    let still = try CLITests.run(CLITests.flick, ["still", file, "-o", out])
    expectEqual(still.status, 2, "\(still.stderr)")
    #expect(still.stderr.contains("Lottie file \(file)"), "\(still.stderr)")
    #expect(still.stderr.contains(feature), "\(still.stderr)")
    #expect(!FileManager.default.fileExists(atPath: out))
  }

  @Test(arguments: ["rep", "mask_n", "grad_op11_mid", "o_f120"])
  func infoSaysARewrittenFileIsDrawn(name: String) throws {
    let info = try CLITests.run(CLITests.flick, ["info", Self.fixtures.appendingPathComponent("\(name).json").path])
    expectEqual(info.status, 0, "\(info.stderr)")
    #expect(info.stdout.contains("every feature used is drawn"), "\(info.stdout)")
  }

  @Test func aParentCycleIsRefusedAtItsParent() throws {
    let file = Self.fixtures.appendingPathComponent("h_parent_cycle.json").path
    let info = try CLITests.run(CLITests.flick, ["info", file])
    expectEqual(info.status, 2, "\(info.stderr)")
    #expect(info.stderr.contains("layers[0].parent: the parent chain comes back to this layer"), "\(info.stderr)")
  }
}
