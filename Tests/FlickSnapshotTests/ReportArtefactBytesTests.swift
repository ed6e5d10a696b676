import FlickExpectations
import FlickRaster
import FlickTestSupport
import Foundation
import Testing

@testable import FlickSnapshot

/// A report's `expected.png` (and `diff`'s `actual.png`, and `golden-recorded.png`) are the
/// compared files themselves, byte for byte: their own renderer chunk (so `flick diff` of the two
/// compares them as the run did) and their straight-alpha pixels (a premultiplied copy lost them).
@Suite struct ReportArtefactBytesTests {
  typealias V = VerifyCommandTests
  typealias P = PNGDecodingTests

  static func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

  @Test func diffWritesTheTwoFilesThemselves() throws {
    let dir = try V.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    // Alpha 2: straight colours 10 and 12 premultiply to the same byte.
    let a = P.png(width: 2, height: 1, idat: P.zlibStored(P.rows([[10, 20, 30, 2, 0, 0, 0, 255]])))
    let b = P.png(width: 2, height: 1, idat: P.zlibStored(P.rows([[12, 20, 30, 2, 0, 0, 0, 255]])))
    try Data(a).write(to: URL(fileURLWithPath: dir + "/a.png"))
    try Data(b).write(to: URL(fileURLWithPath: dir + "/b.png"))
    let v = try V.run(["diff", dir + "/a.png", dir + "/b.png", "--report", dir + "/r"], in: dir)
    expectEqual(v.status, 1, "\(v.stderr)")
    try expectEqual(Self.bytes(dir + "/r/b/expected.png"), Data(a))
    try expectEqual(Self.bytes(dir + "/r/b/actual.png"), Data(b))
    // Diffing the artefacts finds what the run found, not "identical".
    let again = try V.run(["diff", dir + "/r/b/expected.png", dir + "/r/b/actual.png"], in: dir)
    expectEqual(again.status, 1, "\(again.stderr)")
  }

  @Test func verifyWritesTheGoldenItselfAsExpected() throws {
    let dir = try V.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let golden = dir + "/golden"
    expectEqual(try V.run(["snapshot", V.twoCards, "--at", "0", "--out", golden], in: dir).status, 0)
    // A golden without the renderer chunk (its renderer unknown): the copy must not gain this one's.
    try Frame(pngAt: golden + "/0s.png").writePNG(to: golden + "/0s.png")
    let v = try V.run(["verify", V.twoCards, "--against", golden, "--report", dir + "/r"] + V.recolour, in: dir)
    expectEqual(v.status, 1, "\(v.stderr)")
    try expectEqual(Self.bytes(dir + "/r/0s/expected.png"), Self.bytes(golden + "/0s.png"))
    try expectEqual(PNGImage.recordedRenderer(atPath: dir + "/r/0s/expected.png"), nil)
    // The actual frame was rendered here: it carries this renderer.
    try expectEqual(PNGImage.recordedRenderer(atPath: dir + "/r/0s/actual.png"), RendererFingerprint.current)
  }

  @Test func theDriftArtefactIsTheRecordedGoldenItself() throws {
    let dir = try V.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let template = try RendererChangeTests.makeTemplate(in: dir)
    let golden = dir + "/golden"
    expectEqual(try V.run(["snapshot", template, "--at", "0", "--out", golden], in: dir).status, 0)
    try RendererChangeTests.drift(golden + "/0s.png")
    try RendererChangeTests.fakeRendererChange(golden)
    let v = try V.run(["verify", template, "--against", golden, "--report", dir + "/r"], in: dir)
    expectEqual(v.status, 0, "\(v.stderr)")
    try expectEqual(Self.bytes(dir + "/r/0s/golden-recorded.png"), Self.bytes(golden + "/0s.png"))
  }
}
