import FlickTestSupport
import Foundation

/// Paths of the batch fixtures and helpers shared by the suites.
enum BatchFixtures {
  static let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  static let fixtures = tests.appendingPathComponent("Fixtures")
  static let root = tests.deletingLastPathComponent().deletingLastPathComponent()
  static let flick = ProcessRunner.flick(root: root)

  /// A temporary folder holding a copy of every fixture (manifests write `out/` beside themselves).
  static func workspace() throws -> URL {
    let dir = try ProcessRunner.temporaryDirectory(prefix: "flick-batch")
    for name in try FileManager.default.contentsOfDirectory(atPath: fixtures.path) where name != "broken" {
      try FileManager.default.copyItem(at: fixtures.appendingPathComponent(name), to: dir.appendingPathComponent(name))
    }
    return dir
  }

  /// Runs `flick` with `args` in `directory`.
  static func flick(_ args: [String], in directory: URL, environment: [String: String]? = nil) throws
    -> ProcessRunner.Output
  {
    try ProcessRunner.run(flick, args, environment: environment, directory: directory.path)
  }

  /// The environment without any scheduler's shard variables (the test runner may be in CI).
  static var cleanEnvironment: [String: String] {
    ProcessInfo.processInfo.environment.filter {
      !["SLURM_", "JOB_COMPLETION_INDEX", "CI_NODE_", "BUILDKITE_PARALLEL", "CIRCLE_NODE"].contains(
        where: $0.key.hasPrefix)
    }
  }

  /// Every file under `folder` (relative paths) with its bytes.
  static func files(in folder: URL) throws -> [String: Data] {
    var out: [String: Data] = [:]
    for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where !name.hasPrefix(".") {
      out[name] = try Data(contentsOf: folder.appendingPathComponent(name))
    }
    return out
  }

  /// The presentation times of the keyframes of a video, in seconds, sorted.
  static func keyframeTimes(_ path: String) throws -> [Double] {
    let packets = try ProcessRunner.run(
      "/usr/bin/env",
      [
        "ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pts_time,flags", "-of", "csv=p=0",
        path,
      ])
    return packets.text.split(separator: "\n").compactMap { line -> Double? in
      let fields = line.split(separator: ",")
      guard fields.count >= 2, fields[1].hasPrefix("K") else { return nil }
      return Double(fields[0])
    }.sorted()
  }

  /// ffprobe's view of a video: frames, duration, and every packet's presentation time.
  /// Every stream's size in the file at `path`, one `W,H` line each (ffprobe; audio streams give
  /// an empty line).
  static func streamSizes(_ path: String) throws -> String {
    try ProcessRunner.run(
      "/usr/bin/env", ["ffprobe", "-v", "error", "-show_entries", "stream=width,height", "-of", "csv=p=0", path]
    ).text
  }

  static func probe(_ path: String) throws -> (frames: Int, duration: Double, times: [Double]) {
    let stream = try ProcessRunner.run(
      "/usr/bin/env",
      [
        "ffprobe", "-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries",
        "stream=nb_read_frames,duration", "-of", "csv=p=0", path,
      ])
    let parts = stream.text.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ",")
    let packets = try ProcessRunner.run(
      "/usr/bin/env",
      ["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pts_time", "-of", "csv=p=0", path])
    let times = packets.text.split(separator: "\n").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
      .sorted()
    // ffprobe prints the stream section's fields in its own order: duration, then frames.
    guard parts.count == 2, let duration = Double(parts[0]), let frames = Int(parts[1]) else { return (-1, -1, times) }
    return (frames, duration, times)
  }
}
