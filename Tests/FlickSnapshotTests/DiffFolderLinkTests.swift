import FlickExpectations
import FlickRaster
import FlickTestSupport
import Foundation
import Testing

@testable import FlickSnapshot

/// `flick diff DIR_A DIR_B` on folders from a pull request: a symbolic link (or anything but a
/// regular file) among either folder's PNGs is refused with exit 2 naming it, as `verify` refuses
/// one in a goldens folder; nothing it points at is read or copied into the report.
@Suite struct DiffFolderLinkTests {
  typealias V = VerifyCommandTests

  /// Folders `A` and `B` with the two-cards goldens at 0, and a picture outside both.
  static func folders(in dir: String) throws -> (a: String, b: String, secret: String) {
    let a = dir + "/A", b = dir + "/B"
    try expectEqual(V.run(["snapshot", V.twoCards, "--at", "0", "--out", a]).status, 0)
    try expectEqual(V.run(["snapshot", V.twoCards, "--at", "0", "--out", b] + V.recolour).status, 0)
    let secret = dir + "/victim/secret.png"
    try FileManager.default.createDirectory(atPath: dir + "/victim", withIntermediateDirectories: true)
    try FileManager.default.copyItem(atPath: a + "/0s.png", toPath: secret)
    return (a, b, secret)
  }

  @Test(arguments: [false, true])
  func aLinkInEitherFolderIsRefused(_ inB: Bool) throws {
    let dir = try V.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let (a, b, secret) = try Self.folders(in: dir)
    let side = inB ? b : a
    try FileManager.default.removeItem(atPath: side + "/0s.png")
    try FileManager.default.createSymbolicLink(atPath: side + "/0s.png", withDestinationPath: secret)
    let report = dir + "/R"
    let d = try V.run(["diff", a, b, "--report", report])
    expectEqual(d.status, 2, "\(d.stderr)")
    #expect(d.stderr.contains("0s.png"), "\(d.stderr)")
    #expect(d.stderr.contains("symbolic link"), "\(d.stderr)")
    #expect(!FileManager.default.fileExists(atPath: report + "/0s"), "\(d.stderr)")
  }

  @Test func aFolderNamedLikeAPNGIsRefused() throws {
    let dir = try V.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let (a, b, _) = try Self.folders(in: dir)
    try FileManager.default.createDirectory(atPath: a + "/end.png", withIntermediateDirectories: true)
    try FileManager.default.createDirectory(atPath: b + "/end.png", withIntermediateDirectories: true)
    let d = try V.run(["diff", a, b])
    expectEqual(d.status, 2, "\(d.stderr)")
    #expect(d.stderr.contains("end.png"), "\(d.stderr)")
  }
}
