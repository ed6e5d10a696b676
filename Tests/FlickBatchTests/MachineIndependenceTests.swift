import FlickExpectations
import FlickTestSupport
import FlickVideo
import Foundation
import Testing

/// The same job gives the same MP4 bytes whatever CPUs the encoder sees: x264 runs a fixed
/// number of threads instead of 1.5 × the CPUs it finds (issue 14; docs/video.md).
@Suite struct MachineIndependenceTests {
  @Test func x264ThreadCountIsFixed() throws {
    let command = try FFmpegCommand(
      format: .mp4, width: 64, height: 36, fps: 30, options: EncodingOptions(), output: "o.mp4")
    let i = try #require(command.arguments.firstIndex(of: "-threads"))
    expectEqual(command.arguments[i + 1], String(FFmpegCommand.x264Threads))
    #expect(command.arguments.firstIndex(of: "-c:v")! < i && i < command.arguments.firstIndex(of: "o.mp4")!)
  }

  /// `taskset -c 0` (one CPU) against two CPUs: byte-identical files in every encoded format
  /// (MP4 and WebM needed fixed thread counts, WebM also no random segment UID).
  @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/taskset")))
  func sameBytesOnOneAndTwoCPUs() throws {
    let dir = try ProcessRunner.temporaryDirectory(prefix: "flick-cpus")
    defer { try? FileManager.default.removeItem(at: dir) }
    let hello = BatchFixtures.root.appendingPathComponent("Templates/hello.json5").path
    let formats = ["mp4", "webm", "mov", "gif", "apng", "webp"]
    var files: [[Data]] = []
    for cpus in ["0", "0,1"] {
      let paths = formats.map { dir.appendingPathComponent("cpus-\(cpus).\($0)").path }
      let r = try ProcessRunner.run(
        "/usr/bin/taskset",
        ["-c", cpus, BatchFixtures.flick, "render", hello, "--frames", "0..29", "-q"] + paths.flatMap { ["-o", $0] })
      expectEqual(r.status, 0, "\(r.stderr)")
      files.append(try paths.map { try Data(contentsOf: URL(fileURLWithPath: $0)) })
    }
    for (i, format) in formats.enumerated() {
      expectGreater(files[0][i].count, 1000)
      expectEqual(files[0][i], files[1][i], "\(format) bytes differ between 1 and 2 visible CPUs")
    }
  }
}
