import FlickExpectations
import FlickTestSupport
import Foundation
import Testing

/// stdout and stderr that cannot be written (docs/security.md, "Standard streams"): no command
/// crashes; a command whose stdout (its product) is lost ends with status 3 and a message, or 141
/// and no message when the reader has gone, leaving no temporary; a lost progress or log line on
/// stderr changes nothing. Writes go to device nodes made in a temporary folder (`mknod`), never
/// to the real /dev/full.
@Suite struct StandardStreamCommandTests {
  static let flick = CLITests.flick

  /// How a command ended, and what it wrote to the stream that was not replaced.
  struct Ended {
    var status: Int32
    var reason: Process.TerminationReason
    var captured: String
  }

  /// Where a stream goes.
  enum Sink {
    /// A full device (`/dev/full`'s numbers, 1:7, made in the test's folder): every write fails
    /// with ENOSPC.
    case full
    /// A pipe whose reader has gone: every write fails with EPIPE.
    case closedPipe
  }

  /// Runs `flick args` in `dir` with stdout (or stderr, `onStderr`) going to `sink`; the other
  /// stream is captured.
  static func run(_ args: [String], in dir: URL, stdout sink: Sink, onStderr: Bool = false) throws -> Ended {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: flick)
    p.arguments = args
    p.currentDirectoryURL = dir
    let broken: FileHandle
    switch sink {
    case .full:
      let node = dir.appendingPathComponent("full-\(UUID().uuidString)").path
      try #require(mknod(node, S_IFCHR | 0o666, dev_t(1 << 8 | 7)) == 0, "mknod: \(String(cString: strerror(errno)))")
      broken = try FileHandle(forWritingTo: URL(fileURLWithPath: node))
    case .closedPipe:
      let pipe = Pipe()
      try pipe.fileHandleForReading.close()
      broken = pipe.fileHandleForWriting
    }
    let captured = Pipe()
    p.standardInput = Pipe()
    p.standardOutput = onStderr ? captured : broken
    p.standardError = onStderr ? broken : captured
    try p.runUnblocked()
    try broken.close()
    let text = String(decoding: captured.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    p.waitUntilExit()
    return Ended(status: p.terminationStatus, reason: p.terminationReason, captured: text)
  }

  /// A folder with a small template `t.json5` and a manifest `m.json5` rendering it as a GIF.
  static func workspace() throws -> URL {
    let dir = try CLITests.temporaryDirectory()
    try HostileCLITests.small.write(to: dir.appendingPathComponent("t.json5"), atomically: true, encoding: .utf8)
    try #"{ flick: 1, output: "out", renders: [ { template: "t.json5", formats: ["gif"] } ] }"#
      .write(to: dir.appendingPathComponent("m.json5"), atomically: true, encoding: .utf8)
    return dir
  }

  /// Every name under `dir` that is one of Flick's temporaries.
  static func temporaries(_ dir: URL) -> [String] {
    let names = FileManager.default.enumerator(atPath: dir.path)?.compactMap { $0 as? String } ?? []
    return names.filter { path in
      let name = (path as NSString).lastPathComponent
      return [".partial", ".frames", ".merge", ".tmp", ".removing"].contains { name.hasSuffix($0) }
    }
  }

  static let products: [[String]] = [
    ["schema"], ["templates"], ["--help"], ["info", "t.json5"], ["plan", "m.json5", "-o", "-"],
    ["render", "t.json5", "-o", "a.gif"],
  ]

  /// `flick schema >/dev/full` trapped in FileHandle.write (SIGILL, exit 132); `flick info
  /// >/dev/full`, `templates` and `--help` exited 0 having written nothing.
  @Test(arguments: products) func aFullStdoutEndsTheCommandWithStatus3(_ args: [String]) throws {
    let dir = try Self.workspace()
    defer { try? FileManager.default.removeItem(at: dir) }
    let r = try Self.run(args, in: dir, stdout: .full)
    expectEqual(r.reason, .exit, "\(args): \(r.captured)")
    expectEqual(r.status, 3, "\(args): \(r.captured)")
    #expect(r.captured.contains("cannot write to standard output"), "\(args): \(r.captured)")
    #expect(!r.captured.contains("crashed"), "\(args): \(r.captured)")
    expectEqual(Self.temporaries(dir), [])
  }

  /// `flick schema | head -1`: the reader goes; the command ends quietly with 141, as a tool that
  /// SIGPIPE ends (128 + 13).
  @Test(arguments: products) func aVanishedStdoutReaderEndsTheCommandWithStatus141(_ args: [String]) throws {
    let dir = try Self.workspace()
    defer { try? FileManager.default.removeItem(at: dir) }
    let r = try Self.run(args, in: dir, stdout: .closedPipe)
    expectEqual(r.reason, .exit, "\(args): \(r.captured)")
    expectEqual(r.status, 141, "\(args): \(r.captured)")
    #expect(!r.captured.contains("crashed"), "\(args): \(r.captured)")
    expectEqual(Self.temporaries(dir), [])
  }

  /// `flick run plan.json 2>/dev/full` and `2>&1 | head -1`: BatchProgress wrote with
  /// FileHandle.write, which trapped, leaving the job's temporaries. A lost progress line is
  /// dropped: the run finishes and exits 0.
  @Test(arguments: [Sink.full, .closedPipe]) func aLostStderrNeverStopsARunOrARender(_ sink: Sink) throws {
    let dir = try Self.workspace()
    defer { try? FileManager.default.removeItem(at: dir) }
    let planned = try ProcessRunner.run(Self.flick, ["plan", "m.json5", "-o", "plan.json"], directory: dir.path)
    expectEqual(planned.status, 0, "\(planned.stderr)")
    for args in [
      ["run", "plan.json", "--progress", "lines"], ["render", "t.json5", "-o", "r.gif", "--progress", "json"],
    ] {
      let r = try Self.run(args, in: dir, stdout: sink, onStderr: true)
      expectEqual(r.reason, .exit, "\(args)")
      expectEqual(r.status, 0, "\(args)")
    }
    #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("r.gif").path))
    let written = FileManager.default.enumerator(atPath: dir.appendingPathComponent("out").path)?
      .compactMap { $0 as? String }.filter { $0.hasSuffix(".gif") }
    expectEqual(written?.count, 1, "\(String(describing: written))")
    expectEqual(Self.temporaries(dir), [])
  }
}

extension StandardStreamCommandTests.Sink: CustomTestStringConvertible {
  var testDescription: String { self == .full ? "full device" : "closed pipe" }
}
