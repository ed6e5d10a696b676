import FlickExpectations
import FlickTestSupport
import Foundation
import Testing

/// `--gif-palette`: who makes a GIF's palette, as the commands `--dry-run` prints show.
@Suite struct GIFPaletteOptionTests {
  static func run(_ args: [String]) throws -> CLITests.Result {
    try CLITests.run(CLITests.flick, ["render", CLITests.hello] + args)
  }

  @Test func flickMakesThePaletteUnlessAskedOrFiltered() throws {
    let dir = try ProcessRunner.temporaryDirectory(prefix: "flick-gif-palette")
    defer { try? FileManager.default.removeItem(at: dir) }
    let gif = dir.appendingPathComponent("a.gif").path
    func commands(_ extra: [String]) throws -> [String] {
      let r = try Self.run(["-o", gif, "--dry-run"] + extra)
      expectEqual(r.status, 0, "\(r.stderr)")
      return r.stdout.split(separator: "\n").map(String.init)
    }
    // Flick's palette: one ffmpeg, reading it as its first frame, or from the PAM file Flick
    // writes when the frames are smaller than the palette's 16 × 16.
    let flick = try commands([])
    #expect(
      flick.count == 1 && flick[0].contains("trim=end_frame=1,crop=16:16:0:0[p]") && !flick[0].contains("movie=")
        && !flick[0].contains("palettegen"))
    let tiny = try commands(["--size", "16x9"])
    #expect(tiny.count == 1 && tiny[0].contains("palette.pam:f=pam_pipe") && !tiny[0].contains("palettegen"))
    // ffmpeg's, when asked and when the frames are scaled before the palette.
    for extra in [["--gif-palette", "ffmpeg"], ["--gif-width", "320"]] {
      let both = try commands(extra)
      #expect(
        both.count == 2 && both[0].contains("palettegen=stats_mode=diff") && both[1].contains("paletteuse"), "\(extra)")
    }
    // Resampled by Flick: ffmpeg reads the kept frames at the GIF's rate, with no fps filter.
    let resampled = try commands(["--gif-fps", "10"])
    #expect(resampled.count == 1 && resampled[0].contains("-framerate 10") && !resampled[0].contains("fps=10"))
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
  }

  /// `render --help` says how many commands `--dry-run` prints for a GIF: one, and two only when
  /// ffmpeg makes the palette (the counts ``flickMakesThePaletteUnlessAskedOrFiltered()`` sees);
  /// it said "two for a GIF".
  @Test func helpCountsTheCommandsDryRunPrintsForAGIF() throws {
    let r = try CLITests.run(CLITests.flick, ["render", "--help"])
    expectEqual(r.status, 0, "\(r.stderr)")
    let lines = r.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
    guard let at = lines.firstIndex(where: { $0.hasPrefix("--dry-run") }), at + 1 < lines.count else {
      Issue.record("no --dry-run line in render --help")
      return
    }
    let text = lines[at] + " " + lines[at + 1]
    #expect(!text.contains("two for a GIF"), "\(text)")
    #expect(text.contains("--gif-palette ffmpeg or --gif-width, has two"), "\(text)")
  }

  /// The encoding pass finds a palette file through its filter graph, where `:`, `,`, `;`, `[`,
  /// `]`, `'`, `\`, `=` and white space (here a newline and a tab too) in a path mean something:
  /// a GIF written into a folder named with all of them is the same bytes as one written into a
  /// plain folder, with either palette (Flick's comes first on ffmpeg's input at 160 × 90, from a
  /// file at 16 × 9), and nothing is left beside it.
  @Test(arguments: [["--size", "160x90"], ["--size", "160x90", "--gif-palette", "ffmpeg"], ["--size", "16x9"]])
  func aPaletteInAFolderNamedWithFilterGraphCharactersIsRead(_ extra: [String]) throws {
    let dir = try ProcessRunner.temporaryDirectory(prefix: "flick-gif-palette")
    defer { try? FileManager.default.removeItem(at: dir) }
    let plain = dir.appendingPathComponent("plain")
    let hostile = dir.appendingPathComponent(" a:b,c;d[e]f'g\\h=i\n\t\"$é ")
    var bytes: [Data] = []
    for folder in [plain, hostile] {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
      let gif = folder.appendingPathComponent("o k:1.gif")
      let r = try Self.run(["-o", gif.path, "-q"] + extra)
      expectEqual(r.status, 0, "\(r.stderr)")
      bytes.append(try Data(contentsOf: gif))
      expectEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["o k:1.gif"])
    }
    #expect(bytes[0] == bytes[1])
  }

  @Test func anUnknownSourceIsAUsageError() throws {
    let r = try Self.run(["-o", "/tmp/never-written.gif", "--gif-palette", "gimp"])
    expectEqual(r.status, 2, "\(r.stderr)")
    #expect(r.stderr.contains("--gif-palette gimp is not one of flick, ffmpeg"), "\(r.stderr)")
  }
}
