import FlickExpectations
import FlickTestSupport
import FlickVideo
import Foundation
import Testing

@testable import FlickStudio

/// An export is the file `flick render` writes, and reports its progress.
@Suite struct StudioExportTests {
  /// One export at a time: each takes every core, and two to one output would share its
  /// temporary files. While one runs (held here by hand), another is refused with 409 naming
  /// it; once it has ended, the next starts.
  @Test func aSecondExportWaitsForTheFirst() throws {
    let h = try StudioHarness()
    let events = try EventReader(port: h.port, token: h.token)
    h.studio.runningExport.withLock { $0 = (7, "pulse.mp4") }
    let refused = try h.post("/api/export?template=pulse.json5", json: #"{"format": "apng"}"#)
    expectEqual(refused.status, 409, "\(refused.text)")
    #expect(refused.text.contains("export 7 (pulse.mp4) is still running"), "\(refused.text)")
    h.studio.runningExport.withLock { $0 = nil }
    let started = try h.post("/api/export?template=pulse.json5", json: #"{"format": "apng"}"#)
    expectEqual(started.status, 200, "\(started.text)")
    _ = events.wait(for: "done")
    #expect(h.studio.runningExport.withLock { $0 } == nil)
  }

  /// An export is checked against the caps the studio was started with (`--max-frames`,
  /// `--max-work`, `--max-memory` and their variables), as `flick render` checks a render.
  @Test func anExportIsCheckedAgainstTheStudiosCaps() throws {
    let h = try StudioHarness(exportLimits: RenderLimits(maximumFrames: 1))
    let refused = try h.post("/api/export?template=pulse.json5", json: #"{"format": "apng"}"#)
    expectEqual(refused.status, 400, "\(refused.text)")
    #expect(refused.text.contains("more than the cap of 1 (--max-frames"), "\(refused.text)")
    #expect(!FileManager.default.fileExists(atPath: h.folder.appendingPathComponent("pulse.apng").path))
  }

  @Test(arguments: ["gif", "apng"])
  func anExportIsByteIdenticalToFlickRender(_ format: String) throws {
    let h = try StudioHarness()
    let events = try EventReader(port: h.port, token: h.token)
    try expectEqual(
      h.post("/api/params?template=pulse.json5", json: ##"{"values": {"accent": "#22C55E"}}"##).status, 200)
    let started = try h.post("/api/export?template=pulse.json5", json: #"{"format": "\#(format)"}"#)
    expectEqual(started.status, 200, "\(started.text)")
    #expect(started.text.contains(#""output":"pulse.\#(format)""#))
    let done = events.wait(for: "done")
    expectEqual(done.first?.data.contains(#""output":"pulse.\#(format)""#), true, "\(events.events)")
    let progress = events.wait(for: "progress")
    #expect(!progress.isEmpty)
    // An event a frame and a stage (render 0…N, finish, done); a GIF's finishing steps (its
    // encoding pass frame by frame, gifsicle) are not progress events.
    let frames = progress.last.flatMap { event in
      (try? JSONSerialization.jsonObject(with: Data(event.data.utf8)) as? [String: Any])?["frames"] as? Int
    }
    expectLessOrEqual(progress.count, (frames ?? 0) + 3, "\(progress.count) events for \(frames ?? -1) frames")
    // Those steps are "finishing" events: a GIF's encoding pass from its first frame to its last
    // (in twentieths), then gifsicle when it is installed; nothing for an APNG (its encoder
    // finishes with the last frame).
    // (Every event came before "done", which has arrived.)
    let finishing = events.events.filter { $0.name == "finishing" }.compactMap { event in
      try? JSONSerialization.jsonObject(with: Data(event.data.utf8)) as? [String: Any]
    }
    if format == "gif" {
      let pass = finishing.filter { $0["step"] as? String == "encode-gif" }
      let sent = pass.compactMap { $0["done"] as? Int }
      expectEqual(sent.first, 0, "\(finishing)")
      expectEqual(sent.last, pass.last?["of"] as? Int, "\(finishing)")
      expectEqual(sent, sent.sorted(), "\(finishing)")
      expectLessOrEqual(pass.count, 21, "in twentieths")
      let after = finishing.dropFirst(pass.count).map { $0["step"] as? String }
      #expect(after.allSatisfy { $0 == "gifsicle" } && after.count <= 1, "\(finishing)")
    } else {
      #expect(finishing.isEmpty, "\(finishing)")
    }
    let reference = h.folder.appendingPathComponent("reference.\(format)")
    let run = try ProcessRunner.run(
      ProcessRunner.flick(root: StudioFrameTests.root),
      ["render", "pulse.json5", "--set", "accent=#22C55E", "-q", "-o", reference.path], directory: h.folder.path)
    expectEqual(run.status, 0, "\(run.stderr)")
    let exported = try Data(contentsOf: h.folder.appendingPathComponent("pulse.\(format)"))
    expectEqual(exported, (try Data(contentsOf: reference)))
  }

  /// A gifsicle that fails leaves Flick's own GIF, not the bytes a working one writes: the
  /// export's "done" event carries the warning (the page shows it under the size), where it was
  /// once only in the studio's log.
  @Test func aFailingGifsicleIsNamedInTheDoneEvent() throws {
    let h = try StudioHarness()
    let bin = h.folder.deletingLastPathComponent().appendingPathComponent("bin-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: bin) }
    let gifsicle = bin.appendingPathComponent("gifsicle")
    try Data("#!/bin/sh\necho 'gifsicle: out of cheese' >&2\nexit 1\n".utf8).write(to: gifsicle)
    try ExecutableScript.settle(gifsicle.path)
    let (process, url, _) = try StudioCommandTests.start(h.folder, environment: ["FLICK_GIFSICLE": gifsicle.path])
    defer {
      kill(process.processIdentifier, SIGTERM)
      process.waitUntilExit()
    }
    let (port, token) = try StudioCommandTests.address(url)
    let events = try EventReader(port: port, token: token)
    let started = try RawHTTP.request(
      port: port, method: "POST", target: "/api/export?template=pulse.json5&token=\(token)",
      host: "127.0.0.1:\(port)", headers: ["X-Flick-Token": token, "Content-Type": "application/json"],
      body: Data(#"{"format": "gif"}"#.utf8))
    expectEqual(started.status, 200, "\(started.text)")
    let done = try #require(events.wait(for: "done", timeout: 120).first, "\(events.events)")
    let body = try #require(try JSONSerialization.jsonObject(with: Data(done.data.utf8)) as? [String: Any])
    let warnings = body["warnings"] as? [String] ?? []
    expectEqual(warnings.count, 1, "\(done.data)")
    #expect(warnings.first?.contains("gifsicle \(gifsicle.path) could not optimise") == true, "\(done.data)")
    #expect(warnings.first?.contains("out of cheese") == true, "\(done.data)")
    #expect(FileManager.default.fileExists(atPath: h.folder.appendingPathComponent("pulse.gif").path))
  }

  @Test func anExportNeverWritesOverATemplateOrOutsideTheFolder() throws {
    let h = try StudioHarness()
    for output in ["pulse.json5", "../out.gif", "/tmp/out.gif", "pic.png"] {
      let response = try h.post("/api/export?template=pulse.json5", json: #"{"format": "gif", "output": "\#(output)"}"#)
      // A name without .gif (pulse.json5, pic.png) is refused for its name (400) before its place.
      #expect([400, 403, 409].contains(response.status), "\(output): \(response.status)")
    }
    #expect(try h.text("pulse.json5").contains("pulse"))
  }

  /// A pull request's checkout may name a link like an export (`pulse.mp4 -> .git/config`) or a
  /// params file: the studio never writes through a link (409), and the file it leads to stays.
  @Test func noWriteGoesThroughALink() throws {
    let h = try StudioHarness()
    let git = h.folder.appendingPathComponent(".git")
    try FileManager.default.createDirectory(at: git, withIntermediateDirectories: true)
    let config = "[core]\n\trepositoryformatversion = 0\n"
    for name in ["config", "hooks.json"] { try Data(config.utf8).write(to: git.appendingPathComponent(name)) }
    for (link, target) in [
      ("pulse.mp4", ".git/config"), ("out.gif", ".git/config"), ("saved.json5", ".git/hooks.json"),
    ] {
      try FileManager.default.createSymbolicLink(
        atPath: h.folder.appendingPathComponent(link).path, withDestinationPath: target)
    }
    let requests = [
      ("/api/export?template=pulse.json5", #"{"format": "mp4"}"#),
      ("/api/export?template=pulse.json5", #"{"format": "gif", "output": "out.gif"}"#),
      ("/api/params/save?template=pulse.json5", #"{"path": "saved.json5", "overwrite": true}"#),
    ]
    for (path, body) in requests {
      let refused = try h.post(path, json: body)
      expectEqual(refused.status, 409, "\(body): \(refused.text)")
      #expect(refused.text.contains("symbolic link"), "\(body): \(refused.text)")
    }
    #expect(h.studio.runningExport.withLock { $0 } == nil)
    for name in ["config", "hooks.json"] { try expectEqual(h.text(".git/\(name)"), config, "\(name)") }
  }

  /// An export replaces only an output of its own kind (a file with its format's extension, a
  /// folder of a PNG sequence Flick wrote): never another file the folder holds.
  @Test func anExportReplacesOnlyAnOutputOfItsKind() throws {
    let h = try StudioHarness()
    let events = try EventReader(port: h.port, token: h.token)
    try Data("a,b\n".utf8).write(to: h.folder.appendingPathComponent("notes.csv"))
    let src = h.folder.appendingPathComponent("src")
    try FileManager.default.createDirectory(at: src, withIntermediateDirectories: true)
    try Data("keep".utf8).write(to: src.appendingPathComponent("0000.png"))
    for (body, status) in [
      (#"{"format": "gif", "output": "notes.csv"}"#, 400), (#"{"format": "png", "output": "src/"}"#, 409),
    ] {
      let refused = try h.post("/api/export?template=pulse.json5", json: body)
      expectEqual(refused.status, status, "\(body): \(refused.text)")
    }
    try expectEqual(h.text("notes.csv"), "a,b\n")
    try expectEqual(h.text("src/0000.png"), "keep")
    // A previous export of the same format is replaced.
    for round in 1...2 {
      let started = try h.post("/api/export?template=pulse.json5", json: #"{"format": "gif", "output": "again.gif"}"#)
      expectEqual(started.status, 200, "round \(round): \(started.text)")
      expectEqual(events.wait(for: "done", count: round).count, round)
    }
  }
}
