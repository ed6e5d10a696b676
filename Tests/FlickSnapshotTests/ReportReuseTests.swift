import FlickExpectations
import FlickTestSupport
import Foundation
import Testing

/// A report folder that an earlier `flick verify` wrote is reused by the next one: a run cut
/// short there (a signal, a kill) left the earlier run's `summary.json`, `index.html` and
/// `junit.xml` beside its own `actual.png` files, so CI and `flick accept` took the new frames
/// under the old summary. Now the run removes what the earlier one wrote first, a new report
/// folder cut short is removed, and `flick accept` refuses a folder without a summary.
@Suite struct ReportReuseTests {
  typealias V = VerifyCommandTests

  /// Goldens of a slow template (about a second a frame at full size; drawn at 1024²) and a changed copy of
  /// it, so every frame verified fails and writes its artefacts.
  static func slowGoldens(in dir: String, times: String) throws -> (changed: String, golden: String) {
    let template = dir + "/slow.json5"
    try Data(SlowFrameTemplate.text(layers: 12).utf8).write(to: URL(fileURLWithPath: template))
    let golden = dir + "/golden"
    let s = try V.run(["snapshot", template, "--at", times, "--scale", "0.25", "--out", golden], in: dir)
    expectEqual(s.status, 0, "\(s.stderr)")
    // The same file name, another background: the design the goldens are compared with.
    let changed = SlowFrameTemplate.text(layers: 12).replacingOccurrences(of: "#102030", with: "#203040")
    try Data(changed.utf8).write(to: URL(fileURLWithPath: template))
    return (template, golden)
  }

  /// Starts `flick ARGS` in `dir`, waits until `ready()` holds (or `seconds` pass, or it ends),
  /// then sends `signal` and returns its exit status.
  static func interrupt(
    _ args: [String], in dir: String, signal: Int32, seconds: Double = 30, when ready: () -> Bool
  ) throws -> Int32 {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: V.flick)
    p.arguments = args
    var environment = ProcessInfo.processInfo.environment
    for name in ["CI", "FLICK_RECORD", "FLICK_ARTIFACTS"] { environment[name] = nil }
    p.environment = environment
    p.currentDirectoryURL = URL(fileURLWithPath: dir)
    p.standardError = FileHandle.nullDevice
    p.standardOutput = FileHandle.nullDevice
    try p.runUnblocked()
    let deadline = Date().addingTimeInterval(seconds)
    while p.isRunning && !ready() && Date() < deadline { usleep(2_000) }
    kill(p.processIdentifier, signal)
    p.waitUntilExit()
    return p.terminationStatus
  }

  static func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

  @Test(arguments: [SIGTERM, SIGINT])
  func anInterruptedRunInAReusedFolderLeavesNoEarlierSummary(_ signal: Int32) throws {
    let dir = try V.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let (template, golden) = try Self.slowGoldens(in: dir, times: "0")
    let report = dir + "/report"
    let verify = ["verify", template, "--against", golden, "--report", report]
    let first = try V.run(verify, in: dir)
    expectEqual(first.status, 1, "\(first.stderr)")
    for file in ["summary.json", "index.html", "junit.xml", "0s/actual.png", ".flick-report"] {
      #expect(Self.exists(report + "/" + file), "the first run wrote \(file)")
    }
    // A file Flick did not write stays, wherever it is.
    try Data("mine\n".utf8).write(to: URL(fileURLWithPath: report + "/notes.txt"))
    try Data("mine\n".utf8).write(to: URL(fileURLWithPath: report + "/0s/notes.txt"))
    // The second run is interrupted while it draws (the earlier report gone, or a few seconds).
    let status = try Self.interrupt(verify, in: dir, signal: signal, seconds: 5) {
      !["summary.json", "index.html", "junit.xml"].contains { Self.exists(report + "/" + $0) }
    }
    expectEqual(status, 130)
    for file in ["summary.json", "index.html", "junit.xml"] {
      #expect(!Self.exists(report + "/" + file), "the earlier run's \(file) is still in the reused folder")
    }
    #expect(Self.exists(report + "/notes.txt") && Self.exists(report + "/0s/notes.txt"))
    #expect(Self.exists(report + "/.flick-report"))
    // A folder without a summary is no report: accepting it changes nothing.
    let accept = try V.run(["accept", report, "--against", golden], in: dir)
    expectEqual(accept.status, 2, "\(accept.stderr)")
    #expect(accept.stderr.contains("summary.json"), "\(accept.stderr)")
  }

  /// A new report folder cut short is removed, with the folders the run made above it
  /// (`flick-report/` in the default `flick-report/<template>`): each case is the report's path
  /// in a fresh folder and the topmost folder the run made for it.
  @Test(arguments: [("report", "report"), ("made/above/report", "made")])
  func aNewReportFolderCutShortIsRemoved(path: String, made: String) throws {
    let dir = try V.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let (template, golden) = try Self.slowGoldens(in: dir, times: "0,0.1,0.2,0.3,0.4")
    let report = dir + "/" + path
    // Interrupted once the first failing frame's artefacts are in the new folder: the others
    // are still being drawn (at most four at a time).
    let status = try Self.interrupt(
      ["verify", template, "--against", golden, "--report", report], in: dir, signal: SIGTERM
    ) {
      let names = (try? FileManager.default.contentsOfDirectory(atPath: report)) ?? []
      return names.contains { Self.exists(report + "/" + $0 + "/actual.png") }
    }
    expectEqual(status, 130)
    #expect(!Self.exists(dir + "/" + made), "the new report folder cut short, or a folder made for it, is still there")
  }

  /// A run that is not cut short leaves a complete report in the reused folder: the earlier
  /// run's frame folders that this one does not write are gone with the rest.
  @Test func aReusedFolderHoldsOnlyTheNewReport() throws {
    let dir = try V.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let golden = dir + "/golden"
    expectEqual(try V.run(["snapshot", V.twoCards, "--at", "0,end", "--out", golden], in: dir).status, 0)
    let report = dir + "/report"
    let all = try V.run(["verify", V.twoCards, "--against", golden, "--report", report] + V.recolour, in: dir)
    expectEqual(all.status, 1, "\(all.stderr)")
    #expect(Self.exists(report + "/end/actual.png"))
    let one = try V.run(
      ["verify", V.twoCards, "--against", golden, "--report", report, "--at", "0"] + V.recolour, in: dir)
    expectEqual(one.status, 1, "\(one.stderr)")
    #expect(Self.exists(report + "/0s/actual.png") && Self.exists(report + "/summary.json"))
    #expect(!Self.exists(report + "/end"), "the earlier run's frame folder stays beside the new summary")
  }

  /// An `actual.png` that is not the one the summary's run wrote (another run's, left in a
  /// reused folder) is refused: the summary records the SHA-256 of what `flick accept` takes.
  @Test func acceptRefusesAFrameTheSummaryDoesNotDescribe() throws {
    let dir = try V.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let golden = dir + "/golden"
    expectEqual(try V.run(["snapshot", V.twoCards, "--at", "0,end", "--out", golden], in: dir).status, 0)
    let report = dir + "/report"
    let v = try V.run(["verify", V.twoCards, "--against", golden, "--report", report] + V.recolour, in: dir)
    expectEqual(v.status, 1, "\(v.stderr)")
    let before = try Data(contentsOf: URL(fileURLWithPath: golden + "/0s.png"))
    try FileManager.default.removeItem(atPath: report + "/0s/actual.png")
    try FileManager.default.copyItem(atPath: report + "/end/actual.png", toPath: report + "/0s/actual.png")
    let accept = try V.run(["accept", report, "--against", golden], in: dir)
    expectEqual(accept.status, 2, "\(accept.stderr)")
    #expect(accept.stderr.contains("another SHA-256"), "\(accept.stderr)")
    expectEqual(try Data(contentsOf: URL(fileURLWithPath: golden + "/0s.png")), before)
  }
}
