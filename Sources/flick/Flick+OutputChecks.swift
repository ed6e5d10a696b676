import FlickMotion
import FlickScene
import FlickSnapshot
import FlickTemplates
import FlickVideo
import Foundation

/// Checks `flick still` and `flick render` share: output folders, the PNG-file hint, times.
extension Flick {
  /// Fails (environment, exit 3) before anything is rendered when `path`'s folder is missing or
  /// `path` is a folder, and (invalid input, exit 2) when `path` is a symbolic link: the
  /// messages `render` gives for its outputs.
  static func checkOutputFolder(_ path: String) throws {
    if let link = OutputEntry.link(in: path) {
      let refusal = VideoError.linkedOutput(path: link)
      throw CommandError(message: refusal.description, code: .invalidInput)
    }
    if let kind = OutputEntry.specialKind(path) {
      throw CommandError(
        message: "cannot write \(quoted: path): it is " + kind + ", not a regular file; Flick writes only files",
        code: .invalidInput)
    }
    let url = URL(fileURLWithPath: path)
    let folder = url.deletingLastPathComponent().path
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
      throw CommandError(
        message: "cannot write \(quoted: path): the folder \(quoted: folder) does not exist", code: .environment)
    }
    if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
      throw CommandError(message: "cannot write \(quoted: path): it is a folder", code: .environment)
    }
  }

  /// The files a render or still reads, which no output may replace: the template (or Lottie
  /// file) `path`, its `--params` files and the assets `assetLog` recorded while it loaded.
  static func renderInputs(_ path: String, _ a: Arguments, _ assetLog: AssetLog) -> [String] {
    [(try? templatePath(path)) ?? path] + a.all("params") + assetLog.paths
  }

  /// Refuses (invalid input, exit 2) a command's own file beside its outputs at `path` (the plan
  /// `flick plan -o` writes, a run or merge report, a status gallery; `json` for the JSON ones)
  /// when it would replace one of `inputs` or is named like a file Flick reads
  /// (``FlickVideo/RenderSession/sideOutputRefusal(_:json:inputs:)``), before anything is written.
  static func refuseSideOutput(_ path: String, json: Bool, inputs: [String]) throws(CommandError) {
    if let reason = RenderSession.sideOutputRefusal(path, json: json, inputs: inputs) {
      throw CommandError(message: reason, code: .invalidInput)
    }
  }

  /// For `render -o out.png` (one PNG file, not a sequence): where one frame is rendered instead.
  static func stillHint(for path: String) -> String? {
    guard path.lowercased().hasSuffix(".png"), !path.contains("%") else { return nil }
    return "to render one frame as a PNG use 'flick still TEMPLATE --time SECONDS -o \(path)'; "
      + "for every frame as PNGs give a folder (frames/) or a pattern (frames/%04d.png)"
  }

  /// The scene time `still` renders, from `--time`, `--frame` or `--at` (nil: 0). `--at` takes
  /// a percentage (`50%`: the nearest frame; `100%` the last frame) or any `snapshot --at`
  /// time (`0`, `1.2s`, `end`, `frame:30`). A time past the end is an error naming the duration.
  static func stillTime(_ a: Arguments, _ scene: Scene) throws -> Double {
    do {
      return try StillTime.seconds(time: a.value("time"), frame: a.value("frame"), at: a.value("at"), in: scene)
    } catch {
      throw CommandError.usage(error.message)
    }
  }
}
