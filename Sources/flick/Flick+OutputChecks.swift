import FlickMotion
import FlickScene
import FlickSnapshot
import FlickTemplates
import FlickVideo
import Foundation

/// Checks `flick still` and `flick render` share: output folders, the PNG-file hint, times.
extension Flick {
  /// Fails before anything is rendered when `path` cannot be written, with the checks and
  /// messages every output gets (``FlickVideo/OutputEntry/checkDestination(_:folder:naming:)``):
  /// invalid input (exit 2) for a symbolic link or a device, FIFO or socket, environment (exit 3)
  /// for a folder that is missing or may not be written, or a folder at `path`.
  static func checkOutputFolder(_ path: String) throws {
    do {
      try OutputEntry.checkDestination(path, folder: false)
    } catch {
      throw CommandError(message: error.description, code: error.isInvalidInput ? .invalidInput : .environment)
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
