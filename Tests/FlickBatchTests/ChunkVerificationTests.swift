import FlickExpectations
import FlickTestSupport
import Foundation
import Testing

/// `flick merge` checks every chunk before joining: a chunk frame or folder that is a link, a
/// truncated or undecodable frame, a frame of another size (or a header claiming 16000²) is
/// refused with exit 2 naming the chunk file and what was expected, and nothing is written; an
/// outside image never reaches an output. The seeded fuzz damages chunk folders at random.
@Suite struct ChunkVerificationTests {
  typealias C = ChunkFixtures
  typealias F = BatchFixtures

  /// A copy of the prepared workspace, an outside folder with a victim PNG of the clip's size
  /// (magenta, which no frame of the clip has) beside it, and a cleanup.
  struct Case {
    let dir: URL
    let victim: URL
    let merged: [String: Data]
    init() throws {
      let prepared = try C.prepared.get()
      dir = try C.copy(prepared.folder)
      merged = prepared.merged
      let outside = dir.appendingPathComponent("outside")
      try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: false)
      victim = outside.appendingPathComponent("victim.png")
      try C.png(width: C.width, height: C.height).write(to: victim)
    }
    func merge() throws -> ProcessRunner.Output {
      try F.flick(["merge", "plan.json", "-q"], in: dir, environment: F.cleanEnvironment)
    }
    /// Nothing of the merge exists, and the victim is as it was.
    func nothingWritten() throws -> Bool {
      try C.outputs(dir).isEmpty && Data(contentsOf: victim) == C.png(width: C.width, height: C.height)
    }
    func cleanup() { try? FileManager.default.removeItem(at: dir) }
  }

  @Test func intactChunksMerge() throws {
    let c = try Case()
    defer { c.cleanup() }
    let r = try c.merge()
    expectEqual(r.status, 0, "\(r.stderr)")
    try expectEqual(C.outputs(c.dir), c.merged)
  }

  @Test func aFrameThatIsALinkToAnOutsideImageIsRefused() throws {
    let c = try Case()
    defer { c.cleanup() }
    let frame = C.frame(c.dir, 5)
    try FileManager.default.removeItem(at: frame)
    try FileManager.default.createSymbolicLink(at: frame, withDestinationURL: c.victim)
    let r = try c.merge()
    expectEqual(r.status, 2)
    #expect(r.stderr.contains("chunk \(frame.path) is a symbolic link"), "\(r.stderr)")
    #expect(try c.nothingWritten())
  }

  @Test func aChunkFolderThatIsALinkIsRefused() throws {
    let c = try Case()
    defer { c.cleanup() }
    let folder = C.chunks(c.dir).appendingPathComponent("2.frames")
    let moved = c.dir.appendingPathComponent("outside/2.frames")
    try FileManager.default.moveItem(at: folder, to: moved)
    try FileManager.default.createSymbolicLink(at: folder, withDestinationURL: moved)
    let r = try c.merge()
    expectEqual(r.status, 2)
    // The manifest's output check (no link anywhere under the output root) refuses it before the
    // chunk verifier would; either way the link is named and nothing is written.
    #expect(r.stderr.contains("\(folder.path)"), "\(r.stderr)")
    #expect(r.stderr.contains("is a symbolic link"), "\(r.stderr)")
    #expect(try c.nothingWritten())
  }

  @Test func truncatedWrongSizeAndHugeFramesAreRefusedNamingTheFile() throws {
    let cases: [(String, (Data) -> Data, String)] = [
      ("truncated", { $0.prefix($0.count - 20) }, "does not decode"),
      ("wrong size", { _ in C.png(width: C.width + 2, height: C.height) }, "is 34×24; expected a PNG of 32×24"),
      ("huge header", { C.withHeader($0, width: 16000, height: 16000) }, "is 16000×16000; expected a PNG of 32×24"),
      ("not a PNG", { _ in Data("hello".utf8) }, "is not a PNG; expected a PNG of 32×24 pixels"),
    ]
    for (what, damage, message) in cases {
      let c = try Case()
      defer { c.cleanup() }
      let frame = C.frame(c.dir, 6)
      try damage(try Data(contentsOf: frame)).write(to: frame)
      let r = try c.merge()
      expectEqual(r.status, 2, "\(what): \(r.stderr)")
      #expect(r.stderr.contains("chunk frame \(frame.path) "), "\(what): \(r.stderr)")
      #expect(r.stderr.contains(message), "\(what): \(r.stderr)")
      #expect(try c.nothingWritten(), "\(what)")
    }
  }

  @Test func aMergedOutputThatIsALinkIsRefused() throws {
    let c = try Case()
    defer { c.cleanup() }
    let folder = c.dir.appendingPathComponent("out/long/default")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(
      at: folder.appendingPathComponent("\(C.width)x\(C.height)"),
      withDestinationURL: c.dir.appendingPathComponent("outside"))
    let r = try c.merge()
    expectEqual(r.status, 2)
    #expect(r.stderr.contains("is a symbolic link"), "\(r.stderr)")
    let outside = try FileManager.default.contentsOfDirectory(atPath: c.dir.appendingPathComponent("outside").path)
    expectEqual(outside, ["victim.png"])
  }

  /// `make test` runs `FLICK_CHUNK_FUZZ_CASES` cases (default 6); `make fuzz` runs more.
  /// `FLICK_FUZZ_SEED` picks the first seed; a failure names its seed.
  static let environment = ProcessInfo.processInfo.environment
  static let fuzzCases = Int(environment["FLICK_CHUNK_FUZZ_CASES"] ?? "") ?? 6
  static let firstSeed = UInt64(environment["FLICK_FUZZ_SEED"] ?? "") ?? 0xC4_0C5

  /// One way to damage a chunk folder.
  enum Damage: CaseIterable {
    case truncate, wrongSize, linkToVictim, delete, hugeHeader, linkFolder, flipByte, folderInstead, extraFile,
      linkMP4

    /// Applies the damage to frame `index` (or its chunk) of the case, choosing details with `g`.
    func apply(_ c: Case, frame index: Int, _ g: inout SeededGenerator) throws {
      let frame = C.frame(c.dir, index)
      let chunk = frame.deletingLastPathComponent()
      let fm = FileManager.default
      func replace(_ data: Data) throws {
        try? fm.removeItem(at: frame)
        try data.write(to: frame)
      }
      guard fm.fileExists(atPath: chunk.path) || self == .linkMP4 else { return }
      switch self {
      case .truncate:
        guard let data = try? Data(contentsOf: frame), !data.isEmpty else { return }
        try replace(data.prefix(Int.random(in: 0..<data.count, using: &g)))
      case .wrongSize:
        try replace(C.png(width: Int.random(in: 1...64, using: &g), height: Int.random(in: 1...64, using: &g)))
      case .linkToVictim:
        try? fm.removeItem(at: frame)
        try fm.createSymbolicLink(at: frame, withDestinationURL: c.victim)
      case .delete:
        try? fm.removeItem(at: frame)
      case .hugeHeader:
        guard let data = try? Data(contentsOf: frame) else { return }
        try replace(C.withHeader(data, width: Int.random(in: 1...20000, using: &g), height: 16000))
      case .linkFolder:
        let moved = c.dir.appendingPathComponent("outside/\(chunk.lastPathComponent)")
        guard !fm.fileExists(atPath: moved.path), (try? fm.moveItem(at: chunk, to: moved)) != nil else { return }
        try fm.createSymbolicLink(at: chunk, withDestinationURL: moved)
      case .flipByte:
        guard var bytes = try? [UInt8](Data(contentsOf: frame)), !bytes.isEmpty else { return }
        let at = Int.random(in: 0..<bytes.count, using: &g)
        bytes[at] ^= UInt8.random(in: 1...255, using: &g)
        try replace(Data(bytes))
      case .folderInstead:
        try? fm.removeItem(at: frame)
        try fm.createDirectory(at: frame, withIntermediateDirectories: false)
      case .extraFile:
        try Data("notes".utf8).write(to: chunk.appendingPathComponent("notes-\(index).txt"))
      case .linkMP4:
        let mp4 = C.chunks(c.dir).appendingPathComponent("\(index / 4).mp4")
        let moved = c.dir.appendingPathComponent("outside/\(index / 4).mp4")
        guard !fm.fileExists(atPath: moved.path), (try? fm.moveItem(at: mp4, to: moved)) != nil else { return }
        try fm.createSymbolicLink(at: mp4, withDestinationURL: moved)
      }
    }
  }

  @Test func damagedChunkFoldersEndWithExit023AndNeverReachAnOutput() throws {
    for seed in Self.firstSeed..<(Self.firstSeed + UInt64(Self.fuzzCases)) {
      var g = SeededGenerator(seed: seed)
      let c = try Case()
      defer { c.cleanup() }
      var applied: [String] = []
      for _ in 0..<Int.random(in: 1...3, using: &g) {
        let damage = Damage.allCases.randomElement(using: &g)!
        let index = Int.random(in: 0..<C.frames, using: &g)
        try damage.apply(c, frame: index, &g)
        applied.append("\(damage) \(index)")
      }
      let r = try c.merge()
      let what = "seed \(seed) (\(applied.joined(separator: ", "))): exit \(r.status): \(r.stderr)"
      #expect([0, 2, 3].contains(r.status), "\(what)")
      if r.status == 0 {
        // Only harmless damage merges, and then into exactly the intact clip.
        try expectEqual(C.outputs(c.dir), c.merged, "\(what)")
      } else {
        #expect(try c.nothingWritten(), "\(what)")
        #expect(r.stderr.hasPrefix("flick: "), "\(what)")
        #expect(!r.stderr.contains("Fatal error"), "\(what)")
      }
      try expectEqual(Data(contentsOf: c.victim), C.png(width: C.width, height: C.height), "\(what)")
    }
  }
}
