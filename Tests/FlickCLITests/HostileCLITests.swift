import FlickExpectations
import FlickTestSupport
import Foundation
import Testing

/// The command line under hostile templates and a hostile environment: caps refuse with exit 2
/// before any work, runs that hit a cap or a stuck ffmpeg stop with exit 3, and nothing is left
/// behind.
@Suite struct HostileCLITests {
  static let root = CLITests.root
  static let flick = CLITests.flick

  static func write(_ text: String, _ name: String, in dir: URL) throws -> String {
    let path = dir.appendingPathComponent(name).path
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  static func run(_ args: [String], environment extra: [String: String] = [:]) throws -> CLITests.Result {
    var environment = ProcessInfo.processInfo.environment
    for (k, v) in extra { environment[k] = v }
    let r = try ProcessRunner.run(flick, args, environment: environment)
    return CLITests.Result(status: r.status, stdout: r.text, stderr: r.stderr)
  }

  /// Every entry of `dir` whose name starts with a dot (Flick's temporaries all do).
  static func hidden(_ dir: URL) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).filter { $0.hasPrefix(".") }.sorted()
  }

  static let small =
    "{ flick: 1, canvas: { width: 64, height: 48, fps: 10, duration: 0.3 }, "
    + "layers: [{ id: 'a', size: [10, 10], position: [20, 20], backgroundColor: '#f00' }] }"

  // MARK: - Caps refused up front (exit 2)

  @Test func capsRefuseBeforeRenderingWithExit2() throws {
    let dir = try CLITests.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let t = try Self.write(Self.small, "t.json5", in: dir)
    let out = dir.appendingPathComponent("o.mp4").path
    let pixels = try Self.run(["render", t, "-o", out, "--max-pixels", "1000"])
    expectEqual(pixels.status, 2, "\(pixels.stderr)")
    #expect(pixels.stderr.contains("more than the cap of 1000"), "\(pixels.stderr)")
    #expect(pixels.stderr.contains("--max-pixels"), "\(pixels.stderr)")
    let frames = try Self.run(["render", t, "-o", out], environment: ["FLICK_MAX_FRAMES": "2"])
    expectEqual(frames.status, 2, "\(frames.stderr)")
    #expect(frames.stderr.contains("3 frames, more than the cap of 2"), "\(frames.stderr)")
    let memory = try Self.run(["render", t, "-o", out, "--max-memory", "1M"])
    expectEqual(memory.status, 2, "\(memory.stderr)")
    #expect(memory.stderr.contains("needs about"), "\(memory.stderr)")
    let bad = try Self.run(["render", t, "-o", out], environment: ["FLICK_MAX_MEMORY": "lots"])
    expectEqual(bad.status, 2, "\(bad.stderr)")
    #expect(bad.stderr.contains("FLICK_MAX_MEMORY expects a size"), "\(bad.stderr)")
    let still = try Self.run(["still", t, "-o", dir.appendingPathComponent("s.png").path, "--max-pixels", "100"])
    expectEqual(still.status, 2, "\(still.stderr)")
    #expect(still.stderr.contains("more than the cap of 100"), "\(still.stderr)")
    #expect(!FileManager.default.fileExists(atPath: out))
    #expect(Self.hidden(dir).isEmpty)
  }

  @Test func canvasLimitsMatchTheEncoders() throws {
    let dir = try CLITests.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let big = try Self.write(
      "{ flick: 1, canvas: { width: 16384, height: 16384, fps: 1, duration: 1 } }", "big.json5", in: dir)
    let caps = ["FLICK_MAX_PIXELS": "300000000", "FLICK_MAX_MEMORY": "1T"]
    let mp4 = try Self.run(
      ["render", big, "-o", dir.appendingPathComponent("a.mp4").path, "--dry-run"], environment: caps)
    expectEqual(mp4.status, 2, "\(mp4.stderr)")
    #expect(mp4.stderr.contains("ffmpeg refuses frames"), "\(mp4.stderr)")
    let fits = try Self.write(
      "{ flick: 1, canvas: { width: 16384, height: 16128, fps: 1, duration: 1 } }", "fits.json5", in: dir)
    let ok = try Self.run(
      ["render", fits, "-o", dir.appendingPathComponent("a.mp4").path, "--dry-run"], environment: caps)
    expectEqual(ok.status, 0, "\(ok.stderr)")
    let webp = try Self.run(
      ["render", fits, "-o", dir.appendingPathComponent("a.webp").path, "--dry-run"], environment: caps)
    expectEqual(webp.status, 2, "\(webp.stderr)")
    #expect(webp.stderr.contains("WebP allows at most 16383"), "\(webp.stderr)")
    // By default such a canvas is over the pixel cap.
    let capped = try Self.run(["render", fits, "-o", dir.appendingPathComponent("a.mp4").path, "--dry-run"])
    expectEqual(capped.status, 2, "\(capped.stderr)")
    #expect(capped.stderr.contains("--max-pixels"), "\(capped.stderr)")
  }

  @Test func templateCapsAreLocatedErrors() throws {
    let dir = try CLITests.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    // A parameter referenced many times ("billion laughs").
    let refs = Array(repeating: "'$big'", count: 2000).joined(separator: ", ")
    let laughs = try Self.write(
      "{ flick: 1, parameters: { big: { type: 'string', default: '\(String(repeating: "a", count: 10_000))' } }, "
        + "canvas: { width: 10, height: 10, duration: 1 }, description: 'x', styles: { s: { opacity: [\(refs)] } } }",
      "laughs.json5", in: dir)
    let r = try Self.run(["info", laughs, "--max-template-bytes", "1M"])
    expectEqual(r.status, 2, "\(r.stderr)")
    #expect(r.stderr.contains("expands the template past"), "\(r.stderr)")
    #expect(r.stderr.contains("laughs.json5:1:"), "\(r.stderr)")
    // A long text.
    let text = try Self.write(
      "{ flick: 1, canvas: { width: 10, height: 10, duration: 1 }, layers: [{ id: 't', string: '\(String(repeating: "w", count: 200))' }] }",
      "text.json5", in: dir)
    let long = try Self.run(["info", text, "--max-text", "100"])
    expectEqual(long.status, 2, "\(long.stderr)")
    #expect(long.stderr.contains("layers[0].string: the text is 200 characters"), "\(long.stderr)")
    try expectEqual(Self.run(["info", text]).status, 0)
    // A PNG whose header claims 20000 × 20000 pixels: refused from the header alone.
    var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8)
    png += [0, 0, 0x4E, 0x20, 0, 0, 0x4E, 0x20, 8, 6, 0, 0, 0, 0, 0, 0, 0]
    try Data(png).write(to: dir.appendingPathComponent("bomb.png"))
    let bomb = try Self.write(
      "{ flick: 1, canvas: { width: 10, height: 10, duration: 1 }, layers: [{ id: 'i', contents: 'bomb.png' }] }",
      "bomb.json5", in: dir)
    let b = try Self.run(["info", bomb])
    expectEqual(b.status, 2, "\(b.stderr)")
    #expect(b.stderr.contains("layers[0].contents: image \"bomb.png\" is 20000×20000 pixels"), "\(b.stderr)")
  }

  // MARK: - Stuck ffmpeg, timeouts (exit 3)

  /// A fake ffmpeg: answers the probes with the real one, then runs `body` instead of encoding.
  static func fakeFFmpeg(_ body: String, in dir: URL) throws -> String {
    let path = dir.appendingPathComponent("ffmpeg").path
    let real =
      ProcessInfo.processInfo.environment["PATH"]?.split(separator: ":").map { "\($0)/ffmpeg" }
      .first { FileManager.default.isExecutableFile(atPath: $0) } ?? "/usr/bin/ffmpeg"
    try """
    #!/bin/sh
    case "$*" in *-version*|*-encoders*) exec \(real) "$@";; esac
    \(body)
    """.write(toFile: path, atomically: true, encoding: .utf8)
    try ExecutableScript.settle(path)
    return path
  }

  static let large = "{ flick: 1, canvas: { width: 512, height: 512, fps: 10, duration: 1 } }"

  @Test(arguments: ["exec sleep 600", "kill -STOP $$", "cat > /dev/null; exec sleep 600"])
  func aStuckEncoderStopsWithExit3(_ behaviour: String) async throws {
    let dir = try CLITests.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let r = try await Self.renderWithStuckEncoder(behaviour, limit: ["--encoder-timeout", "1"], in: dir)
    expectEqual(r.status, 3, "\(behaviour): \(r.stderr)")
    #expect(r.stderr.contains("ffmpeg made no progress writing"), "\(r.stderr)")
    #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("o.mp4").path))
    #expect(Self.hidden(dir).isEmpty, "\(Self.hidden(dir))")
  }

  @Test func theTimeoutStopsAnyCommandWithExit3AndCleansUp() async throws {
    let dir = try CLITests.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let r = try await Self.renderWithStuckEncoder("exec sleep 600", limit: ["--timeout", "1s"], in: dir)
    expectEqual(r.status, 3, "\(r.stderr)")
    #expect(r.stderr.contains("stopped after the timeout of 1 s"), "\(r.stderr)")
    #expect(Self.hidden(dir).isEmpty, "\(Self.hidden(dir))")
  }

  /// `flick render` of `large` to `o.mp4` in `dir` with `limit`'s options, through a fake ffmpeg
  /// that does `behaviour` (and so never finishes). The seconds spent waiting on that sleeper
  /// pass off the test runner's threads (OffPool).
  static func renderWithStuckEncoder(_ behaviour: String, limit: [String], in dir: URL) async throws -> CLITests.Result
  {
    let ffmpeg = try fakeFFmpeg(behaviour, in: dir)
    let t = try write(large, "t.json5", in: dir)
    return try await OffPool.run {
      try run(
        ["render", t, "-o", dir.appendingPathComponent("o.mp4").path] + limit + ["-q"],
        environment: ["FLICK_FFMPEG": ffmpeg])
    }
  }

  // MARK: - Temporaries, interruption, closed streams

  /// A PID that is not running: a child that has exited and been reaped.
  static func deadPID() throws -> Int32 {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/bin/true")
    try p.runUnblocked()
    p.waitUntilExit()
    return p.processIdentifier
  }

  /// `flick still`, and `flick render` to an MP4, whose encoder starts before the template has
  /// compiled (``EarlyEncoders``) and before the folder is cleaned.
  @Test(arguments: [("still", "s.png"), ("render", "o.mp4")])
  func staleTemporariesOfKilledRunsAreRemovedNextTime(_ command: String, _ output: String) throws {
    let dir = try CLITests.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let dead = try Self.deadPID()
    let t = try Self.write(Self.small, "t.json5", in: dir)
    let stale = [
      ".o.mp4.\(dead).partial", ".s.png.\(dead).tmp", ".o.gif.\(dead).palette.png", ".p.gif.\(dead).palette.bgra",
    ]
    for name in stale { try Data([1]).write(to: dir.appendingPathComponent(name)) }
    try FileManager.default.createDirectory(
      at: dir.appendingPathComponent(".frames.\(dead).partial"), withIntermediateDirectories: false)
    // Not Flick's, or of a running process: kept.
    let kept = [".notes.\(dead).txt", ".o.mp4.\(getpid()).partial", ".x.\(dead).tmp", ".readme.\(dead).partial"]
    for name in kept { try Data([1]).write(to: dir.appendingPathComponent(name)) }
    let r = try Self.run([command, t, "-o", dir.appendingPathComponent(output).path])
    expectEqual(r.status, 0, "\(r.stderr)")
    expectEqual(Self.hidden(dir), kept.sorted())
    #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent(output).path))
  }

  @Test func stillOnSIGTERMExits130AndLeavesNothing() throws {
    let dir = try CLITests.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    // Slow enough to be interrupted: a big blurred shadow at 2×.
    let t = try Self.write(
      "{ flick: 1, canvas: { width: 2000, height: 2000, duration: 1 }, layers: [{ id: 'a', size: [1500, 1500], "
        + "position: [1000, 1000], backgroundColor: '#f00', shadowOpacity: 1, shadowRadius: 1000 }] }",
      "t.json5", in: dir)
    let out = dir.appendingPathComponent("s.png")
    try Data("old".utf8).write(to: out)
    let p = Process()
    p.executableURL = URL(fileURLWithPath: Self.flick)
    p.arguments = ["still", t, "-o", out.path, "--scale", "2"]
    p.standardError = FileHandle.nullDevice
    p.standardOutput = FileHandle.nullDevice
    try p.runUnblocked()
    usleep(400_000)
    kill(p.processIdentifier, SIGTERM)
    p.waitUntilExit()
    #expect(p.terminationStatus == 130 || p.terminationStatus == 0, "status \(p.terminationStatus)")
    if p.terminationStatus == 130 { try expectEqual(Data(contentsOf: out), Data("old".utf8)) }
    #expect(Self.hidden(dir).isEmpty, "\(Self.hidden(dir))")
  }

  @Test func aClosedOrVanishedStderrNeverCrashes() throws {
    let dir = try CLITests.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let t = try Self.write(Self.small, "t.json5", in: dir)
    let out = dir.appendingPathComponent("o.mp4").path
    // stderr closed (2>&-), and stderr a pipe whose reader has gone.
    let closed = try ProcessRunner.run(
      "/bin/sh", ["-c", "exec \"$0\" render \"$1\" -o \"$2\" 2>&-", Self.flick, t, out])
    expectEqual(closed.status, 0, "\(closed.stderr)")
    #expect(FileManager.default.fileExists(atPath: out))
    let p = Process()
    p.executableURL = URL(fileURLWithPath: Self.flick)
    p.arguments = ["render", t, "-o", out]
    let pipe = Pipe()
    p.standardError = pipe
    p.standardOutput = FileHandle.nullDevice
    try pipe.fileHandleForReading.close()
    try p.runUnblocked()
    p.waitUntilExit()
    expectEqual(p.terminationStatus, 0)
    expectEqual(p.terminationReason, .exit)
    // An error message to a vanished reader: still exit 2, not a crash.
    let q = Process()
    q.executableURL = URL(fileURLWithPath: Self.flick)
    q.arguments = ["render", dir.appendingPathComponent("missing.json5").path, "-o", out]
    let pipe2 = Pipe()
    q.standardError = pipe2
    try pipe2.fileHandleForReading.close()
    try q.runUnblocked()
    q.waitUntilExit()
    expectEqual(q.terminationStatus, 2)
    expectEqual(q.terminationReason, .exit)
  }
}
