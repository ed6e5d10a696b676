import FlickExpectations
import FlickTestSupport
import Foundation
import Testing

/// `flick render|still|info` on Lottie files (recognised by content), end to end with ffprobe.
@Suite struct LottieCommandTests {
  static let fixtures = CLITests.root.appendingPathComponent("Tests/FlickRasterTests/Fixtures/lottie")
  static func fixture(_ name: String) -> String { fixtures.appendingPathComponent("\(name).json").path }

  static func duration(_ path: String) throws -> Double {
    let r = try CLITests.run(
      "/usr/bin/env", ["ffprobe", "-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", path])
    return Double(r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
  }

  @Test func rendersWholeToMP4AndGIFWithTheFilesFramesAndDuration() throws {
    let dir = try CLITests.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let mp4 = dir.appendingPathComponent("card.mp4").path
    let gif = dir.appendingPathComponent("card.gif").path
    // --every-frame: one GIF image per frame, so the GIF's frames are counted like the MP4's
    // (gifsicle, which may merge frames that map to the same pixels, then does not run).
    let r = try CLITests.run(
      CLITests.flick, ["render", Self.fixture("card-flip"), "-o", mp4, "-o", gif, "--quiet", "--every-frame"])
    expectEqual(r.status, 0, "\(r.stderr)")
    for path in [mp4, gif] {
      let p = try CLITests.probe(path, "nb_read_frames,width,height,r_frame_rate")
      #expect(
        p["nb_read_frames"] == "45" && p["width"] == "200" && p["height"] == "200" && p["r_frame_rate"] == "25/1",
        "\(path): \(p)")
      expectLess(abs(try Self.duration(path) - 1.8), 0.011, "\(path)")
    }
  }

  @Test func sizeFPSAndFramesOptionsApply() throws {
    let dir = try CLITests.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let out = dir.appendingPathComponent("a.webm").path
    let r = try CLITests.run(
      CLITests.flick, ["render", Self.fixture("shapes-trim"), "-o", out, "--fps", "60", "--size", "400x400", "--quiet"])
    expectEqual(r.status, 0, "\(r.stderr)")
    let p = try CLITests.probe(out, "nb_read_frames,width,height")
    #expect(p["nb_read_frames"] == "120" && p["width"] == "400", "\(p)")
    let part = dir.appendingPathComponent("part.gif").path
    let q = try CLITests.run(
      CLITests.flick, ["render", Self.fixture("shapes-trim"), "-o", part, "--frames", "10..19", "--quiet"])
    expectEqual(q.status, 0, "\(q.stderr)")
    try expectEqual(CLITests.probe(part, "nb_read_frames")["nb_read_frames"], "10")
  }

  @Test func framesAreIdenticalWhateverTheJobs() throws {
    let dir = try CLITests.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    var sequences: [[Data]] = []
    for jobs in ["1", "2"] {
      let out = dir.appendingPathComponent("j\(jobs)/")
      let r = try CLITests.run(
        CLITests.flick, ["render", Self.fixture("masks-precomp"), "-o", out.path + "/", "--jobs", jobs, "--quiet"])
      expectEqual(r.status, 0, "\(r.stderr)")
      let names = try FileManager.default.contentsOfDirectory(atPath: out.path).filter { $0.hasSuffix(".png") }.sorted()
      expectEqual(names.count, 60)
      sequences.append(try names.map { try Data(contentsOf: out.appendingPathComponent($0)) })
    }
    expectEqual(sequences[0], sequences[1])
  }

  @Test func stillAndInfoWorkOnAFileKnownByItsContent() throws {
    let dir = try CLITests.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let renamed = dir.appendingPathComponent("animation.lottie.txt").path
    try FileManager.default.copyItem(atPath: Self.fixture("shapes-trim"), toPath: renamed)
    let png = dir.appendingPathComponent("f.png").path
    let s = try CLITests.run(
      CLITests.flick, ["still", renamed, "--frame", "59", "--background", "transparent", "-o", png])
    expectEqual(s.status, 0, "\(s.stderr)")
    #expect(FileManager.default.fileExists(atPath: png))
    let bad = try CLITests.run(CLITests.flick, ["still", renamed, "--frame", "60", "-o", png])
    expectEqual(bad.status, 2)
    #expect(bad.stderr.contains("0…59"))
    let i = try CLITests.run(CLITests.flick, ["info", renamed])
    expectEqual(i.status, 0)
    for line in [
      "canvas: 200×200 px, 30 fps, 2 s, 60 frames", "shape  ring", "frame 30–60  outro", "every feature used is drawn",
    ] {
      #expect(i.stdout.contains(line), "missing '\(line)' in:\n\(i.stdout)")
    }
    let params = try CLITests.run(
      CLITests.flick, ["render", renamed, "-o", png.replacingOccurrences(of: ".png", with: ".gif"), "--set", "a=1"])
    expectEqual(params.status, 2)
    #expect(params.stderr.contains("takes no template parameters"))
  }

  @Test func unsupportedFeaturesAreExit2NamingTheFileAndNothingIsWritten() throws {
    let dir = try CLITests.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let out = dir.appendingPathComponent("t.mp4").path
    let r = try CLITests.run(CLITests.flick, ["render", Self.fixture("has-text"), "-o", out])
    expectEqual(r.status, 2)
    #expect(r.stderr.contains("has-text.json"), "\(r.stderr)")
    #expect(r.stderr.contains("a text layer"), "\(r.stderr)")
    #expect(r.stderr.contains("expressions"), "\(r.stderr)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
    let info = try CLITests.run(CLITests.flick, ["info", Self.fixture("has-text")])
    expectEqual(info.status, 0)
    #expect(info.stdout.contains("layers[0] 'Title': a text layer"))
  }

  @Test func theBundledLottieTemplateRenders() throws {
    let dir = try CLITests.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let out = dir.appendingPathComponent("l.gif").path
    // One image per frame (the spring's held frames would otherwise be merged into one image).
    let r = try CLITests.run(
      CLITests.flick, ["render", "lottie-spring", "-o", out, "--frames", "0..29", "--quiet", "--every-frame"])
    expectEqual(r.status, 0, "\(r.stderr)")
    try expectEqual(CLITests.probe(out, "nb_read_frames")["nb_read_frames"], "30")
  }

  @Test func svgContentsRenderAndAMalformedOneIsExit2NamingIt() throws {
    let dir = try CLITests.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let svg = CLITests.root.appendingPathComponent("Tests/FlickRasterTests/Fixtures/svg")
    for name in ["icon.svg", "malformed.svg"] {
      try FileManager.default.copyItem(at: svg.appendingPathComponent(name), to: dir.appendingPathComponent(name))
    }
    func template(_ file: String) throws -> String {
      let path = dir.appendingPathComponent("t-\(file).json5").path
      try Data(
        """
        { flick: 1, canvas: { width: 96, height: 96, fps: 10, duration: 0.5, background: "transparent" },
          layers: [ { id: "i", size: [96, 96], position: [48, 48], contents: "\(file)" } ] }
        """.utf8
      ).write(to: URL(fileURLWithPath: path))
      return path
    }
    let png = dir.appendingPathComponent("still.png").path
    let ok = try CLITests.run(CLITests.flick, ["still", try template("icon.svg"), "--scale", "3", "-o", png])
    expectEqual(ok.status, 0, "\(ok.stderr)")
    let size = try CLITests.probe(png, "width,height")
    #expect(size["width"] == "288" && size["height"] == "288")
    let bad = try CLITests.run(
      CLITests.flick, ["render", try template("malformed.svg"), "-o", dir.appendingPathComponent("x.gif").path])
    expectEqual(bad.status, 2, "\(bad.stderr)")
    #expect(bad.stderr.contains("malformed.svg"), "\(bad.stderr)")
    #expect(bad.stderr.contains("not a valid SVG"), "\(bad.stderr)")
    #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("x.gif").path))
  }

  @Test func motionBlurFramesAreIdenticalWhateverTheJobsAndOffIsSharp() throws {
    let dir = try CLITests.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    func frames(_ extra: [String]) throws -> [Data] {
      let out = dir.appendingPathComponent(UUID().uuidString + "/")
      let r = try CLITests.run(
        CLITests.flick, ["render", "motion-blur", "-o", out.path + "/", "--frames", "16..21", "--quiet"] + extra)
      expectEqual(r.status, 0, "\(r.stderr)")
      let names = try FileManager.default.contentsOfDirectory(atPath: out.path).filter { $0.hasSuffix(".png") }.sorted()
      return try names.map { try Data(contentsOf: out.appendingPathComponent($0)) }
    }
    let one = try frames(["--jobs", "1"])
    let two = try frames(["--jobs", "2"])
    expectEqual(one.count, 6)
    expectEqual(one, two)
    let info = try CLITests.run(CLITests.flick, ["info", "motion-blur"])
    #expect(info.stdout.contains("motion blur: 180° shutter, 16 samples per moving frame"))
    let sharp = try frames(["--no-motion-blur"])
    expectEqual(sharp.count, 6)
    expectNotEqual(sharp, one)
    let bad = try CLITests.run(
      CLITests.flick, ["still", "motion-blur", "--shutter-angle", "0", "-o", dir.appendingPathComponent("s.png").path])
    expectEqual(bad.status, 2)
    #expect(bad.stderr.contains("--shutter-angle"))
  }
}
