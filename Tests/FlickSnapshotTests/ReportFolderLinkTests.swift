import FlickExpectations
import FlickRaster
import FlickTestSupport
import Foundation
import Testing

@testable import FlickSnapshot

/// A report folder from a pull request with symbolic links planted in it (a frame's folder,
/// `inputs/`, the default `flick-report/` itself): no write, creation or removal of the report
/// goes through a link; the report is refused with exit 2 naming the link, and nothing lands in
/// the link's target.
@Suite struct ReportFolderLinkTests {
  typealias V = VerifyCommandTests

  /// Goldens of two-cards at 0 in `DIR/golden`, an empty folder `DIR/victim` (a link's target)
  /// and a report folder `DIR/rep` that looks like Flick's (its marker, nothing else).
  struct Box {
    let dir: String
    var golden: String { dir + "/golden" }
    var victim: String { dir + "/victim" }
    var report: String { dir + "/rep" }

    init() throws {
      dir = try V.temporaryDirectory()
      try expectEqual(V.run(["snapshot", V.twoCards, "--at", "0", "--out", golden]).status, 0)
      try FileManager.default.createDirectory(atPath: victim, withIntermediateDirectories: true)
      try FileManager.default.createDirectory(atPath: report, withIntermediateDirectories: true)
      FileManager.default.createFile(atPath: report + "/" + ReportFolder.markerName, contents: Data())
    }

    /// Plants `report/name` as a link to the victim folder.
    func plant(_ name: String) throws {
      try FileManager.default.createSymbolicLink(atPath: report + "/" + name, withDestinationPath: victim)
    }

    func victimFiles() -> [String] { (try? FileManager.default.subpathsOfDirectory(atPath: victim)) ?? ["?"] }
    func remove() { try? FileManager.default.removeItem(atPath: dir) }
  }

  @Test(arguments: ["0s", "inputs"])
  func verifyRefusesAReportFolderWithALinkInside(_ name: String) throws {
    let box = try Box()
    defer { box.remove() }
    try box.plant(name)
    let v = try V.run(["verify", V.twoCards, "--against", box.golden, "--report", box.report] + V.recolour)
    expectEqual(v.status, 2, "\(v.stderr)")
    #expect(v.stderr.contains("symbolic link"), "\(v.stderr)")
    #expect(v.stderr.contains("rep/\(name)"), "\(v.stderr)")
    expectEqual(box.victimFiles(), [])
  }

  /// A linked report folder spelled with `.` components (`lstat("link/.")` follows the link)
  /// outside the current folder is refused all the same.
  @Test(arguments: ["/.", "/./", "//.//", "/./."])
  func verifyRefusesALinkedReportFolderSpelledWithDots(_ spelling: String) throws {
    let box = try Box()
    defer { box.remove() }
    try FileManager.default.createSymbolicLink(atPath: box.dir + "/linked", withDestinationPath: box.victim)
    let v = try V.run(
      ["verify", V.twoCards, "--against", box.golden, "--report", box.dir + "/linked" + spelling] + V.recolour)
    expectEqual(v.status, 2, "\(v.stderr)")
    #expect(v.stderr.contains("symbolic link"), "\(v.stderr)")
    expectEqual(box.victimFiles(), [])
  }

  @Test func theDefaultReportFolderIsNotWrittenThroughALinkedFlickReport() throws {
    let box = try Box()
    defer { box.remove() }
    let work = box.dir + "/work"
    try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(atPath: work + "/flick-report", withDestinationPath: box.victim)
    let v = try V.run(["verify", V.twoCards, "--against", box.golden] + V.recolour, in: work)
    expectEqual(v.status, 2, "\(v.stderr)")
    #expect(v.stderr.contains("flick-report"), "\(v.stderr)")
    expectEqual(box.victimFiles(), [])
  }

  @Test func diffRefusesAReportFolderWithALinkInside() throws {
    let box = try Box()
    defer { box.remove() }
    try box.plant("0s")
    let other = box.dir + "/other"
    try expectEqual(V.run(["snapshot", V.twoCards, "--at", "0", "--out", other] + V.recolour).status, 0)
    let d = try V.run(["diff", box.golden + "/0s.png", other + "/0s.png", "--report", box.report])
    expectEqual(d.status, 2, "\(d.stderr)")
    expectEqual(box.victimFiles(), [])
  }

  /// The writers themselves, whatever checked the folder before: a frame's artefacts and the
  /// report's stored inputs never land in a link's target.
  @Test func theReportWritersNeverWriteThroughALink() throws {
    let box = try Box()
    defer { box.remove() }
    try box.plant("0s")
    try box.plant("inputs")
    let frame = Frame(width: 4, height: 4)
    var other = frame
    for i in 0..<4 { other.pixels[i] = 0xFF }
    let comparison = ImageComparator().compare(frame, other, goldenRenderer: nil, actualRenderer: nil)
    let written = GoldenVerifier(record: .none).writeArtifacts(
      name: "0s", expected: frame, actual: other, comparison: comparison, into: box.report)
    expectEqual(written, [:])
    let blob = Data("stored input".utf8)
    let hash = SnapshotManifest.hash([UInt8](blob))
    var manifest = try #require(try SnapshotManifest.read(from: box.golden))
    manifest.inputs?.template.sha256 = hash
    let report = SnapshotReport(
      title: "t", verdicts: [], options: ComparisonOptions(), goldenRenderer: nil, manifest: manifest,
      inputBlobs: [hash: blob])
    #expect(throws: SnapshotError.self) { try report.write(to: box.report) }
    expectEqual(box.victimFiles(), [])
  }
}
