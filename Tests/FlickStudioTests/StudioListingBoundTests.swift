import FlickExpectations
import FlickMotion
import FlickTestSupport
import Foundation
import Testing

@testable import FlickStudio

/// Listing the folder is bounded: `/api/files` stops at ``StudioWorkspace/maximumTemplates``
/// files even inside one folder and says so, and the answers that read the folder run a few at a
/// time on their own queue, so a crowd of them never holds the threads other answers need.
@Suite struct StudioListingBoundTests {
  struct Body: Decodable {
    var files: [String]
    var truncated: Bool
  }

  @Test func oneFolderOfManyFilesIsCutAtTheCap() throws {
    let h = try StudioHarness()
    let many = h.folder.appendingPathComponent("many")
    try FileManager.default.createDirectory(at: many, withIntermediateDirectories: true)
    for i in 0..<(StudioWorkspace.maximumTemplates + 5) {
      try Data("x".utf8).write(to: many.appendingPathComponent(String(format: "f%05d.png", i)))
    }
    let cut = try JSONDecoder().decode(Body.self, from: h.get("/api/files?kind=image&folder=many").body)
    expectEqual(cut.files.count, StudioWorkspace.maximumTemplates)
    expectEqual(cut.truncated, true)
    // In name order: the first files of the folder, not any 2,000 of them.
    expectEqual(cut.files.first, "many/f00000.png")
    expectEqual(cut.files.last, "many/f01999.png")
    let fonts = try JSONDecoder().decode(Body.self, from: h.get("/api/files?kind=font").body)
    expectEqual(fonts.truncated, false)
  }

  @Test func busyListingsLeaveOtherAnswersFree() throws {
    let h = try StudioHarness()
    let release = DispatchSemaphore(value: 0)
    let started = DispatchSemaphore(value: 0)
    // Every listing lane is taken.
    for _ in 0..<Studio.listingLanes {
      h.studio.listings.addOperation {
        started.signal()
        release.wait()
      }
    }
    for _ in 0..<Studio.listingLanes { started.wait() }
    let listed = Locked<Int?>(nil)
    let done = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      let status = try? h.get("/api/files?kind=image").status
      listed.withLock { $0 = status ?? -1 }
      done.signal()
    }
    // Another endpoint answers while the listing waits for a lane.
    let params = try h.get("/api/params?template=pulse.json5")
    expectEqual(params.status, 200, "\(params.text)")
    expectEqual(listed.withLock { $0 }, nil, "the listing waits for a free lane")
    for _ in 0..<Studio.listingLanes { release.signal() }
    done.wait()
    expectEqual(listed.withLock { $0 }, 200)
  }
}
