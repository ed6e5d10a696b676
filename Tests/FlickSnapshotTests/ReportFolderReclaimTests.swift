import FlickExpectations
import Foundation
import Testing

@testable import FlickSnapshot

/// `flick verify` cut short removes the report folder it created while other workers may still
/// be writing a frame's artefacts. A worker used to claim the folder again for each frame, which
/// created it anew after the cleanup had removed it, so an interrupted run under load left a
/// report folder behind (`ReportReuseTests.aNewReportFolderCutShortIsRemoved`, seen failing in a
/// loaded parallel run). A verifier claims its folder once; later frames never create it again.
@Suite struct ReportFolderReclaimTests {
  @Test func aFolderRemovedAfterItsClaimIsNotCreatedAgain() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("flick-reclaim-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let report = dir + "/report"
    let verifier = GoldenVerifier(record: .none)
    let first = verifier.artifactsFolder("0s", in: report)
    expectEqual(first, report + "/0s")
    #expect(FileManager.default.fileExists(atPath: report + "/" + ReportFolder.markerName))
    // The interruption's cleanup moves the folder aside and removes it.
    try FileManager.default.removeItem(atPath: report)
    // A copy of the verifier, as another worker holds it, finds the folder claimed.
    let worker = verifier
    #expect(worker.artifactsFolder("0.5s", in: report) == nil)
    #expect(!FileManager.default.fileExists(atPath: report), "a later frame created the removed report folder again")
  }

  @Test func anotherVerifierClaimsTheFolderAfresh() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("flick-reclaim-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let report = dir + "/report"
    expectEqual(GoldenVerifier(record: .none).artifactsFolder("0s", in: report), report + "/0s")
    try FileManager.default.removeItem(atPath: report)
    // A new run (a new verifier) creates its report folder again.
    expectEqual(GoldenVerifier(record: .none).artifactsFolder("0s", in: report), report + "/0s")
  }
}
