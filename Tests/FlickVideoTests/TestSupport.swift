import FlickExpectations
import FlickMotion
import FlickScene
import FlickTestSupport
import FlickVideo
import Foundation
import Testing

/// Helpers shared by the FlickVideo suites: temporary folders, subprocesses, ffprobe and
/// decoding through ffmpeg, small scenes built in code.
enum TestSupport {
  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  /// The `flick` executable built for the tests (scripts/build-tests builds it).
  static let flick = ProcessRunner.flick(root: root)

  typealias Result = ProcessRunner.Output

  /// A fresh temporary folder; remove it with `FileManager.removeItem` when done.
  static func temporaryDirectory() throws -> URL {
    try ProcessRunner.temporaryDirectory(prefix: "flick-video")
  }

  /// Runs `executable` with `arguments`, reading stdout and stderr concurrently.
  static func run(_ executable: String, _ arguments: [String], environment: [String: String]? = nil) throws -> Result {
    try ProcessRunner.run(executable, arguments, environment: environment)
  }

  /// What ffmpeg's filter chain `filter` makes of `frames` (`width × height` BGRA, one after
  /// another), written raw with `outputOptions` (say a pixel format) and read back.
  static func ffmpegFiltered(
    _ frames: [[UInt8]], width: Int, height: Int, filter: String, outputOptions: [String] = []
  ) throws -> [UInt8] {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let raw = dir.appendingPathComponent("frames.bgra")
    try Data(frames.joined()).write(to: raw)
    let out = dir.appendingPathComponent("filtered.raw").path
    let r = try run(
      "/usr/bin/env",
      [
        "ffmpeg", "-hide_banner", "-nostdin", "-loglevel", "error", "-y", "-f", "rawvideo", "-pix_fmt", "bgra",
        "-s", "\(width)x\(height)", "-i", raw.path, "-vf", filter,
      ] + outputOptions + ["-f", "rawvideo", out])
    expectEqual(r.status, 0, "ffmpeg: \(r.stderr)")
    return [UInt8](try Data(contentsOf: URL(fileURLWithPath: out)))
  }

  /// `ffprobe` stream (and format) fields of the first video stream, with frames counted.
  static func probe(_ path: String, _ entries: String) throws -> [String: String] {
    var args = ["-v", "error"]
    args += [
      "-count_frames", "-select_streams", "v:0", "-show_entries", entries, "-of", "default=noprint_wrappers=1", path,
    ]
    let r = try run("/usr/bin/env", ["ffprobe"] + args)
    expectEqual(r.status, 0, "ffprobe failed: \(r.stderr)")
    var fields: [String: String] = [:]
    for line in r.text.split(separator: "\n") {
      let parts = line.split(separator: "=", maxSplits: 1)
      if parts.count == 2 { fields[String(parts[0])] = String(parts[1]) }
    }
    return fields
  }

  /// Decodes every frame of `path` (or its first `frames`) to packed RGBA (straight alpha) with
  /// ffmpeg, as a player would (honouring the stream's colour tags).
  static func decodeRGBA(_ path: String, decoder: String? = nil, frames: Int? = nil) throws -> Data {
    var args = ["-hide_banner", "-loglevel", "error"]
    if let decoder { args += ["-c:v", decoder] }
    args += ["-i", path]
    if let frames { args += ["-frames:v", "\(frames)"] }
    args += ["-f", "rawvideo", "-pix_fmt", "rgba", "pipe:1"]
    let r = try run("/usr/bin/env", ["ffmpeg"] + args)
    expectEqual(r.status, 0, "ffmpeg decode failed: \(r.stderr)")
    return r.stdout
  }

  /// A grid of flat colour patches, `patch` pixels square, on `background`.
  static func patchScene(
    _ colors: [Color], columns: Int, patch: Double = 32, background: Color = .white, fps: Int = 10,
    duration: Double = 0.2
  ) -> Scene {
    let rows = (colors.count + columns - 1) / columns
    let layers = colors.enumerated().map { i, c in
      Layer(
        id: "p\(i)", bounds: Rect(x: 0, y: 0, width: patch, height: patch),
        position: Point(x: (Double(i % columns) + 0.5) * patch, y: (Double(i / columns) + 0.5) * patch),
        backgroundColor: c)
    }
    return Scene(
      size: Size(width: Double(columns) * patch, height: Double(rows) * patch), fps: fps, duration: duration,
      backgroundColor: background, layers: layers)
  }

  /// A small moving scene: a rounded card sliding across `width × height` over `duration` s.
  static func movingScene(
    width: Double = 64, height: Double = 48, fps: Int = 10, duration: Double = 1,
    background: Color = Color(red: 0.06, green: 0.09, blue: 0.16)
  ) -> Scene {
    let card = Layer(
      id: "card", bounds: Rect(x: 0, y: 0, width: 20, height: 20), position: Point(x: 10, y: height / 2),
      opacity: 0.9, backgroundColor: Color(red: 0.98, green: 0.45, blue: 0.09), cornerRadius: 5)
    let slide = LayerAnimation(
      layerID: "card", property: .position, beginTime: 0, duration: duration,
      value: { t in Point(x: 10 + (width - 20) * t / duration, y: height / 2) })
    return Scene(
      size: Size(width: width, height: height), fps: fps, duration: duration, backgroundColor: background,
      layers: [card], animations: [slide])
  }

  /// Writes an executable shell script and returns its path.
  static func script(_ body: String, named name: String, in dir: URL) throws -> String {
    let path = dir.appendingPathComponent(name).path
    try Data(("#!/bin/sh\n" + body).utf8).write(to: URL(fileURLWithPath: path))
    try ExecutableScript.settle(path)
    return path
  }

  /// This process's environment with `PATH` set to `path` and `FLICK_FFMPEG` unset, so that
  /// `flick` runs the first `ffmpeg` on `path` (a stand-in, say).
  static func environment(path: String) -> [String: String] {
    var env = ProcessInfo.processInfo.environment
    env["PATH"] = path
    env["FLICK_FFMPEG"] = nil
    return env
  }

  /// A new folder `bin` in `dir` for a stand-in `ffmpeg`, and the environment that puts it first
  /// on PATH (before `/usr/bin:/bin`).
  static func ffmpegFolder(in dir: URL) throws -> (bin: URL, environment: [String: String]) {
    let bin = dir.appendingPathComponent("bin")
    try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
    return (bin, environment(path: bin.path + ":/usr/bin:/bin"))
  }

  /// Starts `flick arguments` (with `--progress json`, stdout discarded) and returns once its
  /// stderr shows frames flowing (a `"frame":` report and at least 4 lines) or closes, with the
  /// rest of its stderr to read.
  static func startRendering(_ arguments: [String], environment: [String: String]? = nil) throws
    -> (process: Process, stderr: FileHandle)
  {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: flick)
    p.arguments = arguments
    if let environment { p.environment = environment }
    let err = Pipe()
    p.standardError = err
    p.standardOutput = FileHandle.nullDevice
    try p.runUnblocked()
    awaitFrames(err.fileHandleForReading)
    return (p, err.fileHandleForReading)
  }

  /// Returns once `stderr` (of a `--progress json` render) shows frames flowing (a `"frame":`
  /// report and at least 4 lines) or closes.
  static func awaitFrames(_ stderr: FileHandle) {
    var seen = ""
    while !seen.contains("\"frame\":") || seen.components(separatedBy: "\n").count < 4 {
      let chunk = stderr.availableData
      if chunk.isEmpty { break }
      seen += String(decoding: chunk, as: UTF8.self)
    }
  }

  /// The names in `dir`, sorted, without a PNG sequence's marker file (`.flick-sequence`).
  static func contents(_ dir: URL) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0 != PNGSequenceWriter.markerName }.sorted()
  }
}
