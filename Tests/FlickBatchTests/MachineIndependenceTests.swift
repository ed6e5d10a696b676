import FlickTestSupport
import FlickVideo
import Foundation
import Testing

/// The same job gives the same MP4 bytes whatever CPUs the encoder sees: x264 runs a fixed
/// number of threads instead of 1.5 × the CPUs it finds (issue 14; docs/video.md).
@Suite struct MachineIndependenceTests {
  @Test func x264ThreadCountIsFixed() throws {
    let command = try FFmpegCommand(format: .mp4, width: 64, height: 36, fps: 30, options: EncodingOptions(), output: "o.mp4")
    let i = try #require(command.arguments.firstIndex(of: "-threads"))
    #expect(command.arguments[i + 1] == String(FFmpegCommand.x264Threads))
    #expect(command.arguments.firstIndex(of: "-c:v")! < i && i < command.arguments.firstIndex(of: "o.mp4")!)
  }

  /// `taskset -c 0` (one CPU) against two CPUs: byte-identical MP4 files.
  @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/taskset")))
  func sameBytesOnOneAndTwoCPUs() throws {
    let dir = try ProcessRunner.temporaryDirectory(prefix: "flick-cpus")
    defer { try? FileManager.default.removeItem(at: dir) }
    let hello = BatchFixtures.root.appendingPathComponent("Templates/hello.json5").path
    var files: [Data] = []
    for cpus in ["0", "0,1"] {
      let path = dir.appendingPathComponent("cpus-\(cpus).mp4").path
      let r = try ProcessRunner.run(
        "/usr/bin/taskset", ["-c", cpus, BatchFixtures.flick, "render", hello, "--frames", "0..44", "-q", "-o", path])
      #expect(r.status == 0, "\(r.stderr)")
      files.append(try Data(contentsOf: URL(fileURLWithPath: path)))
    }
    #expect(files[0].count > 1000)
    #expect(files[0] == files[1], "MP4 bytes differ between 1 and 2 visible CPUs")
  }
}
