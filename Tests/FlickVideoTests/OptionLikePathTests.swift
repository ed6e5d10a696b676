@testable import FlickVideo
import FlickExpectations
import Testing

/// Every path an ffmpeg command names (output, palette, two-pass log) that begins with `-` is
/// written `./-…`, so ffmpeg never reads a file name such as `-y.mp4` as an option.
@Suite struct OptionLikePathTests {
  /// The arguments of `command` (and its palette pass) that begin with `-` and are not options
  /// ffmpeg knows here: any of `paths` as given.
  static func unprotected(_ arguments: [String], _ paths: [String]) -> [String] {
    arguments.filter { argument in paths.contains { argument.hasPrefix($0) } }
  }

  @Test(arguments: [OutputFormat.mp4, .gif, .webm, .mov, .apng, .webp])
  func anOutputBeginningWithADashIsWrittenAsARelativePath(format: OutputFormat) throws {
    let command = try FFmpegCommand(
      format: format, width: 64, height: 48, fps: 10, options: EncodingOptions(), output: "-y.\(format.rawValue)")
    #expect(command.arguments.last == "./-y.\(format.rawValue)", "\(command.arguments)")
    expectEqual(Self.unprotected(command.arguments, ["-y."]), [], "\(command.arguments)")
  }

  @Test func aGIFPaletteAndATwoPassLogBeginningWithADashAreWrittenAsRelativePaths() throws {
    var options = EncodingOptions()
    options.gifColors = 64
    let gif = try FFmpegCommand(format: .gif, width: 64, height: 48, fps: 10, options: options, output: "-a.gif")
    let pass = try #require(gif.palettePass)
    #expect(gif.palettePath?.hasPrefix("./-a.gif.palette") == true, "\(String(describing: gif.palettePath))")
    expectEqual(Self.unprotected(pass + gif.arguments, ["-a.gif"]), [], "\(pass) \(gif.arguments)")
    let named = try FFmpegCommand(
      format: .gif, width: 64, height: 48, fps: 10, options: options, output: "/tmp/x.gif", palette: "-p")
    #expect(named.palettePath?.hasPrefix("./-p") == true, "\(String(describing: named.palettePath))")
    for format in [OutputFormat.mp4, .webm] {
      let fit = FFmpegCommand.TwoPass(width: 64, height: 48, bitrate: 100_000, pass: 2, log: "-log")
      let command = try FFmpegCommand(
        format: format, width: 64, height: 48, fps: 10, options: EncodingOptions(), output: "/tmp/x", fit: fit)
      let log = try #require(command.arguments.firstIndex(of: "-passlogfile"))
      expectEqual(command.arguments[log + 1], "./-log", "\(command.arguments)")
    }
  }
}
