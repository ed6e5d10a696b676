import FlickExpectations
import FlickTemplates
import Foundation
import Testing

@testable import FlickBatch

/// Planning: a fixed order, content-hash ids that change exactly when something that decides a
/// job's bytes changes, frame-exact chunks, and stale plans refused.
@Suite struct PlanTests {
  static func plan(_ dir: URL, _ name: String = "batch.json5") throws -> BatchPlan {
    try BatchPlan(manifest: try Manifest.load(path: dir.appendingPathComponent(name).path), flickVersion: "test")
  }

  static func edit(_ file: URL, _ from: String, _ to: String) throws {
    let text = try String(contentsOf: file, encoding: .utf8)
    #expect(text.contains(from))
    try text.replacingOccurrences(of: from, with: to).write(to: file, atomically: true, encoding: .utf8)
  }

  @Test func acceptanceManifestExpandsInOrder() throws {
    let dir = try BatchFixtures.workspace()
    defer { try? FileManager.default.removeItem(at: dir) }
    let plan = try Self.plan(dir)
    // 6 variants of 2 templates × 2 sizes = 12 clips; the 40-frame slide clips in chunks of 15.
    expectEqual(plan.jobs.count, 18 + 6)
    expectEqual(plan.merges.count, 6)
    expectEqual(plan.jobs.map(\.spec.index), Array(0..<24))
    expectEqual(Set(plan.jobs.map(\.spec.id)).count, 24)
    #expect(plan.jobs.allSatisfy { $0.spec.id.count == 64 })
    // Planning again gives the same bytes.
    try expectEqual(
      Self.plan(dir).document(planFolder: dir.path).encoded(), plan.document(planFolder: dir.path).encoded())
    // Chunks: frame-exact, contiguous, in order, at most `chunk` frames, covering the clip.
    for merge in plan.merges {
      let ranges = merge.chunks.map(\.frames)
      expectEqual(ranges.map(\.count), [15, 15, 10])
      #expect(ranges.first!.lowerBound == merge.spec.frames[0] && ranges.last!.upperBound == merge.spec.frames[1] + 1)
      for (a, b) in zip(ranges, ranges.dropFirst()) { expectEqual(a.upperBound, b.lowerBound) }
      #expect(merge.chunks.allSatisfy { $0.spec.merge == merge.spec.id })
    }
    #expect(plan.jobs.filter { $0.spec.kind == "render" }.allSatisfy { $0.frames == 0..<30 })
  }

  /// Which ids change: a parameter of one variant, the template file, a data file.
  @Test func idsChangeExactlyWithTheirInputs() throws {
    let dir = try BatchFixtures.workspace()
    defer { try? FileManager.default.removeItem(at: dir) }
    let before = try Self.plan(dir).jobs.map(\.spec)
    func changed(_ after: BatchPlan) -> [String] {
      zip(before, after.jobs.map(\.spec)).filter { $0.id != $1.id }.map(\.0.name)
    }

    try Self.edit(dir.appendingPathComponent("batch.json5"), "distance: 80", "distance: 81")
    let one = changed(try Self.plan(dir))
    #expect(one.count == 6 && one.allSatisfy { $0.hasPrefix("slide/2/") }, "\(one)")

    try Self.edit(dir.appendingPathComponent("variants.csv"), "#EF4444", "#EF4445")
    let row = changed(try Self.plan(dir))
    // A data file counts by the values of each row: only the edited row's jobs change.
    expectEqual(row.filter { $0.hasPrefix("pulse/") }, ["pulse/3/96x96", "pulse/3/48x48"], "\(row)")

    try Self.edit(dir.appendingPathComponent("slide.json5"), "cornerRadius: 6", "cornerRadius: 7")
    let template = changed(try Self.plan(dir))
    expectEqual(template.filter { $0.hasPrefix("slide/") }.count, 18)

    // Another Flick version or renderer changes every id.
    let manifest = try Manifest.load(path: dir.appendingPathComponent("batch.json5").path)
    let other = try BatchPlan(manifest: manifest, flickVersion: "other")
    let here = try BatchPlan(manifest: manifest, flickVersion: "test")
    #expect(zip(other.jobs, here.jobs).allSatisfy { $0.spec.id != $1.spec.id })
  }

  @Test func stalePlanIsRefused() throws {
    let dir = try BatchFixtures.workspace()
    defer { try? FileManager.default.removeItem(at: dir) }
    let planPath = dir.appendingPathComponent("plan.json").path
    let document = try Self.plan(dir).document(planFolder: dir.path)
    try document.encoded().write(to: URL(fileURLWithPath: planPath))
    expectEqual(document.manifest, "batch.json5")
    expectEqual(document.output, "out")
    let loaded = try Plan.load(path: planPath)
    expectEqual(loaded, document)
    _ = try BatchPlan.load(plan: loaded, planPath: planPath, flickVersion: "test")
    try Self.edit(dir.appendingPathComponent("wide.params.json5"), "distance: 100", "distance: 99")
    do {
      _ = try BatchPlan.load(plan: loaded, planPath: planPath, flickVersion: "test")
      Issue.record("a stale plan was accepted")
    } catch {
      expectEqual(error.exitCode, 2)
      #expect(error.description.contains("is stale: 6 of 24 jobs no longer match"), "\(error)")
    }
    #expect(throws: BatchError.self) { try BatchPlan.load(plan: loaded, planPath: planPath, flickVersion: "9.9") }
  }
}
