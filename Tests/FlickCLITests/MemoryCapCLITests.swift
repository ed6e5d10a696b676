import FlickExpectations
import FlickTestSupport
import Foundation
import Testing

/// `--max-memory` holds through the real binary: the up-front estimate of each allocation class
/// is checked against the peak resident size measured on small renders, the watch stops a
/// process whose real use passes the cap (exit 3, nothing written), the estimate refuses up
/// front in every command that draws, and the work cap refuses a render of days.
@Suite(.serialized) struct MemoryCapCLITests {
  static let mib = 1 << 20

  /// Runs `flick args`; its exit status and its peak resident size in bytes, as GNU time reports
  /// it (`ru_maxrss` of a process forked by `time`: a child forked from the test process itself
  /// would inherit the test's own high-water mark across `exec`).
  static func peak(_ args: [String]) throws -> (status: Int32, bytes: Int) {
    let report = FileManager.default.temporaryDirectory.appendingPathComponent("flick-peak-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: report) }
    let r = try ProcessRunner.run("/usr/bin/time", ["-f", "%M", "-o", report, CLITests.flick] + args)
    let text = (try? String(contentsOfFile: report, encoding: .utf8)) ?? ""
    let kilobytes = text.split(separator: "\n").last.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) } ?? 0
    return (r.status, kilobytes * 1024)
  }

  /// The one-worker estimate `flick` states when refusing under a 1 KiB cap, in bytes, and the
  /// class it names as the largest.
  static func estimate(_ args: [String]) throws -> (bytes: Int, dominant: String) {
    let r = try HostileCLITests.run(args + ["--max-memory", "1K"])
    expectEqual(r.status, 2, "\(r.stderr)")
    // "… needs about 220 MiB (most of it motion-blur samples: 132 MiB) with one worker …"
    let text = r.stderr
    guard let about = text.range(of: "needs about "),
      let open = text.range(of: " (most of it ", range: about.upperBound..<text.endIndex),
      let colon = text.range(of: ":", range: open.upperBound..<text.endIndex)
    else {
      Issue.record("no estimate in \(text)")
      return (0, "")
    }
    let amount = text[about.upperBound..<open.lowerBound].split(separator: " ")
    let value = Double(amount.first ?? "") ?? 0
    let bytes = Int(value * Double(amount.last == "GiB" ? 1 << 30 : Self.mib))
    return (bytes, String(text[open.upperBound..<colon.lowerBound]))
  }

  static func template(_ size: Int, _ extra: String = "", layers: String = "") -> String {
    "{ flick: 1, canvas: { width: \(size), height: \(size), fps: 10, duration: 1 }, \(extra) layers: ["
      + "{ id: 'a', size: [40, 40], position: [20, 20], backgroundColor: '#f00' }\(layers)], "
      + "timeline: [{ at: 0, target: 'a', animate: { position: [\(size - 20), \(size - 20)] }, duration: 1 }] }"
  }

  /// Each class alone on top of a small baseline: the estimate's growth over the baseline must
  /// cover the measured growth of the peak (never under) and may exceed it at most 4× plus
  /// 24 MiB (it is meant to be generous, not wild). Sizes are small so the test stays quick.
  @Test func eachClassEstimateCoversTheMeasuredPeak() throws {
    let dir = try CLITests.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    // A 3000² picture shown in a 30-point layer: 36 MB decoded.
    try PNGFile.writeTransparent(width: 3000, height: 3000, to: dir.appendingPathComponent("big.png").path)
    // An SVG picture embedding two such images (librsvg decodes each once, into each worker's
    // document, through a copy): 36 MB each decoded, from 100 KB of SVG.
    try PNGFile.writeTransparent(width: 2999, height: 3000, to: dir.appendingPathComponent("other.png").path)
    let embedded = try ["big.png", "other.png"].map { name in
      let png = try Data(contentsOf: dir.appendingPathComponent(name))
      return "<image width=\"8\" height=\"8\" href=\"data:image/png;base64,\(png.base64EncodedString())\"/>"
    }
    for (name, body) in [("pics.svg", embedded.joined()), ("bare.svg", "<rect width=\"8\" height=\"8\"/>")] {
      _ = try HostileCLITests.write(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"8\" height=\"8\">\(body)</svg>", name, in: dir)
    }
    let shadows = (0..<12).map {
      ", { id: 's\($0)', size: [300, 300], position: [\(100 + $0 * 20), 300], backgroundColor: '#fff', "
        + "shadowOpacity: 0.5, shadowRadius: \(10 + $0) }"
    }.joined()
    let cases: [(name: String, text: String, dominant: String?)] = [
      ("baseline", Self.template(64), nil),
      // librsvg and its libraries, loaded on first use (12 MiB), come out of the program's own
      // allowance: the SVG images are measured over the same picture without images.
      ("bare SVG", Self.template(64, layers: ", { id: 'v', size: [30, 30], contents: 'bare.svg' }"), nil),
      ("frames", Self.template(2048), "frame buffers"),
      ("motion blur", Self.template(1024, "motionBlur: { samples: 32 },"), "motion-blur samples"),
      ("shadows", Self.template(1024, layers: shadows), nil),
      ("image", Self.template(64, layers: ", { id: 'p', size: [30, 30], contents: 'big.png' }"), "decoded images"),
      (
        "SVG images", Self.template(64, layers: ", { id: 'v', size: [30, 30], contents: 'pics.svg' }"), "decoded images"
      ),
    ]
    var measured: [String: Int] = [:]
    var estimated: [String: Int] = [:]
    for c in cases {
      let path = try HostileCLITests.write(c.text, "\(c.name).json5", in: dir)
      let args = ["still", path, "--time", "0.5", "-o", dir.appendingPathComponent("\(c.name).png").path]
      let run = try Self.peak(args)
      expectEqual(run.status, 0, "\(c.name) exited \(run.status)")
      let e = try Self.estimate(args)
      if let dominant = c.dominant { expectEqual(e.dominant, dominant, "\(c.name): \(e.dominant)") }
      measured[c.name] = run.bytes
      estimated[c.name] = e.bytes
    }
    let base = (measured["baseline"] ?? 0, estimated["baseline"] ?? 0)
    for c in cases.dropFirst() where c.name != "bare SVG" {
      let over = c.name == "SVG images" ? "bare SVG" : "baseline"
      let grewBy = (measured[c.name] ?? 0) - (measured[over] ?? 0)
      let estimatedGrowth = (estimated[c.name] ?? 0) - (estimated[over] ?? 0)
      let note = "\(c.name): measured +\(grewBy / Self.mib) MiB, estimated +\(estimatedGrowth / Self.mib) MiB"
      // The estimate is rounded to whole MiB in the message: one MiB of slack each way.
      expectLessOrEqual(grewBy, estimatedGrowth + 2 * Self.mib, "\(note)")
      expectLessOrEqual(estimatedGrowth, 4 * grewBy + 24 * Self.mib, "\(note)")
    }
    // The baseline's estimate covers the program itself, librsvg included.
    expectLessOrEqual(base.0, base.1, "baseline: measured \(base.0 / Self.mib) MiB, estimated \(base.1 / Self.mib) MiB")
    let bare = (measured["bare SVG"] ?? 0, estimated["bare SVG"] ?? 0)
    expectLessOrEqual(bare.0, bare.1, "bare SVG: measured \(bare.0 / Self.mib) MiB, estimated \(bare.1 / Self.mib) MiB")
  }

  /// An "ffmpeg" that takes 400 MiB before reading its input (and lingers after it), so the
  /// process tree passes a cap its estimate fits under: the watch, which counts Flick's ffmpeg
  /// processes, stops everything with exit 3 and leaves no output and no temporary file.
  @Test func theWatchStopsARenderWhoseProcessesPassTheCap() throws {
    let dir = try CLITests.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let hog = try HostileCLITests.write(
      "#!/bin/sh\nexec python3 -c 'import sys, time\nb = b\"x\" * (400 << 20)\n"
        + "sys.stdin.buffer.read()\ntime.sleep(30)'\n",
      "ffmpeg", in: dir)
    try ExecutableScript.settle(hog)
    let t = try HostileCLITests.write(HostileCLITests.small, "t.json5", in: dir)
    let out = dir.appendingPathComponent("o.mp4").path
    let r = try HostileCLITests.run(
      ["render", t, "-o", out, "--max-memory", "300M"], environment: ["FLICK_FFMPEG": hog])
    expectEqual(r.status, 3, "\(r.stderr)")
    #expect(r.stderr.contains("within 64 MiB of the memory cap of 300 MiB"), "\(r.stderr)")
    #expect(r.stderr.contains("--max-memory"), "\(r.stderr)")
    #expect(!FileManager.default.fileExists(atPath: out))
    #expect(HostileCLITests.hidden(dir).isEmpty, "\(HostileCLITests.hidden(dir))")
  }

  /// A cap the up-front check accepts is one the memory watch (which fires at the cap less its
  /// margin) lets the command finish under: each command's refusal names the smallest cap that
  /// fits in whole MiB, one MiB less is refused up front (exit 2), and at that cap the command
  /// draws to the end (not stopped by the watch with exit 3, as `render hello --max-memory 145M`
  /// was after every frame when the check compared the estimate with the cap alone).
  @Test func theCapARefusalNamesLetsTheCommandFinish() throws {
    let dir = try CLITests.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let commands = [
      ["render", CLITests.hello, "-o", dir.appendingPathComponent("h.gif").path, "--jobs", "1"],
      ["still", CLITests.hello, "-o", dir.appendingPathComponent("s.png").path],
      ["snapshot", CLITests.hello, "--at", "0.5", "--out", dir.appendingPathComponent("golden").path],
    ]
    for args in commands {
      let refused = try HostileCLITests.run(args + ["--max-memory", "1K"])
      expectEqual(refused.status, 2, "\(args[0]): \(refused.stderr)")
      let cap = try #require(
        refused.stderr.firstMatch(of: /--max-memory ([0-9]+)M or more/).flatMap { Int($0.output.1) },
        "\(args[0]): \(refused.stderr)")
      let under = try HostileCLITests.run(args + ["--max-memory", "\(cap - 1)M"])
      expectEqual(under.status, 2, "\(args[0]) at \(cap - 1) MiB: \(under.stderr)")
      let fits = try HostileCLITests.run(args + ["--max-memory", "\(cap)M"])
      expectEqual(fits.status, 0, "\(args[0]) at \(cap) MiB: \(fits.stderr)")
    }
  }

  @Test func everyDrawingCommandRefusesOverTheEstimateUpFront() throws {
    let dir = try CLITests.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let t = try HostileCLITests.write(Self.template(512, "motionBlur: { samples: 64 },"), "t.json5", in: dir)
    let golden = dir.appendingPathComponent("golden").path
    let commands = [
      ["still", t, "-o", dir.appendingPathComponent("s.png").path],
      ["snapshot", t, "--out", golden],
      ["verify", t, "--against", golden, "--report", dir.appendingPathComponent("report").path],
      ["render", t, "-o", dir.appendingPathComponent("frames").path + "/"],
    ]
    for args in commands {
      let r = try HostileCLITests.run(args, environment: ["FLICK_MAX_MEMORY": "64M"])
      expectEqual(r.status, 2, "\(args[0]): \(r.stderr)")
      #expect(r.stderr.contains("needs about"), "\(r.stderr)")
      #expect(r.stderr.contains("most of it motion-blur samples"), "\(r.stderr)")
      #expect(r.stderr.contains("memory cap of 64 MiB"), "\(r.stderr)")
    }
    try expectEqual(FileManager.default.contentsOfDirectory(atPath: dir.path).sorted(), ["t.json5"])
  }

  @Test func theWorkCapRefusesARenderOfDays() throws {
    let dir = try CLITests.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    // 372 bytes: 4096² × 64 samples × 216,000 frames.
    let t = try HostileCLITests.write(
      "{ flick: 1, canvas: { width: 4096, height: 4096, fps: 60, duration: 3600 }, motionBlur: { samples: 64 }, "
        + "layers: [{ id: 'a', size: [9, 9], backgroundColor: '#f00' }] }", "t.json5", in: dir)
    let out = dir.appendingPathComponent("o.mp4").path
    let r = try HostileCLITests.run(["render", t, "-o", out], environment: ["FLICK_MAX_MEMORY": "1T"])
    expectEqual(r.status, 2, "\(r.stderr)")
    #expect(r.stderr.contains("more than the work cap of 1000000000000"), "\(r.stderr)")
    #expect(r.stderr.contains("--max-work"), "\(r.stderr)")
    let small = try HostileCLITests.write(HostileCLITests.small, "small.json5", in: dir)
    let low = try HostileCLITests.run(["render", small, "-o", out], environment: ["FLICK_MAX_WORK": "1000"])
    expectEqual(low.status, 2, "\(low.stderr)")
    #expect(low.stderr.contains("= 9216 pixels, more than the work cap of 1000"), "\(low.stderr)")
    let bad = try HostileCLITests.run(["render", small, "-o", out, "--max-work", "lots"])
    expectEqual(bad.status, 2, "\(bad.stderr)")
    #expect(bad.stderr.contains("--max-work expects a whole number"), "\(bad.stderr)")
    let help = try HostileCLITests.run(["render", "--help"])
    #expect(help.stdout.contains("--max-work N"))
    #expect(help.stdout.contains("FLICK_MAX_WORK"))
    #expect(!FileManager.default.fileExists(atPath: out))
  }
}
