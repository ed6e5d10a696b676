import FlickMotion
import FlickScene
import FlickSnapshot
import FlickVideo
import Foundation

/// Checks `flick still` and `flick render` share: output folders, the PNG-file hint, times.
extension Flick {
  /// Fails (environment, exit 3) before anything is rendered when `path`'s folder is missing or
  /// `path` is a folder, and (invalid input, exit 2) when `path` is a symbolic link: the
  /// messages `render` gives for its outputs.
  static func checkOutputFolder(_ path: String) throws {
    if OutputEntry.isLink(path) {
      let refusal = VideoError.linkedOutput(path: OutputEntry.entry(path))
      throw CommandError(message: refusal.description, code: .invalidInput)
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
    let last = scene.frameCount - 1
    var time = 0.0
    var source = ""
    if let text = a.value("time") {
      let trimmed = text.hasSuffix("s") ? String(text.dropLast()) : text
      guard let t = Double(trimmed), t.isFinite, t >= 0 else {
        throw CommandError.usage("--time expects seconds ≥ 0 such as 0.5 or 1.25s, found '\(quoted: text)'")
      }
      time = t
      source = "--time \(text)"
    } else if let text = a.value("frame") {
      guard let n = Int(text), (0...last).contains(n) else {
        throw CommandError.usage("--frame expects a frame number in 0…\(quoted: last), found '\(quoted: text)'")
      }
      time = scene.time(ofFrame: n)
    } else if let text = a.value("at") {
      if text.hasSuffix("%") {
        guard let p = Double(text.dropLast()), (0...100).contains(p) else {
          throw CommandError.usage("--at expects a percentage of the duration such as 50%, found '\(quoted: text)'")
        }
        // The frame nearest that point of the duration; 100% is the last frame (the end instant
        // itself is not a frame).
        time = scene.time(ofFrame: min(last, Int((p / 100 * scene.duration * Double(scene.fps)).rounded())))
      } else {
        let at: SnapshotTime
        do {
          at = try SnapshotTime(parsing: text)
        } catch {
          throw CommandError.usage(
            "--at expects a percentage (50%), seconds (1.2s), 'end' or 'frame:N', found "
              + "'\(quoted: text)'")
        }
        if case .seconds(let t) = at {
          time = t  // checked against the duration below, with the same message as --time
        } else {
          do {
            time = try at.seconds(duration: scene.duration, fps: scene.fps)
          } catch {
            throw CommandError.usage("--at \(quoted: text): \(escaped: error)")
          }
        }
        source = "--at \(text)"
      }
    }
    if time > scene.duration + 1e-9 {
      throw CommandError.usage(
        "\(quoted: source) is past the end: the scene lasts \(TimeText.seconds(scene.duration)) s "
          + "(its last frame, \(quoted: last), is at \(TimeText.seconds(scene.time(ofFrame: last))) s)")
    }
    return time
  }
}

/// Short, exact-enough seconds for messages: `1`, `0.967`.
enum TimeText {
  static func seconds(_ v: Double) -> String {
    let rounded = (v * 1000).rounded() / 1000
    return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
  }
}
