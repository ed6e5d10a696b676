import FlickMotion
import FlickScene

/// The scene time `flick still` renders, from `--time`, `--frame` or `--at` (none: 0); shared
/// with `flick studio`'s `/api/frame.png` (`t=`, `frame=`, `at=`), so both pick the same instant
/// and refuse the same inputs with the same words.
///
/// `at` takes a percentage (`50%`: the nearest frame; `100%` the last frame) or any
/// `snapshot --at` time (`0`, `1.2s`, `end`, `frame:30`). A time past the end is refused,
/// naming the duration.
package enum StillTime {
  /// How the three choices are written in messages (`--time` for the command, `t=` for the API).
  package struct Names: Sendable {
    package var time: String
    package var frame: String
    package var at: String

    package init(time: String, frame: String, at: String) {
      self.time = time
      self.frame = frame
      self.at = at
    }

    /// The command's options.
    package static let options = Names(time: "--time", frame: "--frame", at: "--at")
  }

  /// Why a time is refused (the message of a usage error).
  package struct Refusal: Error, Equatable, CustomStringConvertible {
    package var message: String
    package var description: String { message }
  }

  /// The scene time in seconds for the one of `time`, `frame` and `at` that is given (two or
  /// three given are refused).
  package static func seconds(
    time: String?, frame: String?, at: String?, in scene: Scene, names: Names = .options
  ) throws(Refusal) -> Double {
    let given = [(time, names.time), (frame, names.frame), (at, names.at)].filter { $0.0 != nil }.map(\.1)
    guard given.count <= 1 else {
      throw Refusal(
        message: "give one of \(escaped: names.time), \(escaped: names.frame) and \(escaped: names.at), not "
          + "\(escaped: given.joined(separator: " and "))")
    }
    let last = scene.frameCount - 1
    var seconds = 0.0
    var source = ""
    if let text = time {
      seconds = try timeValue(text, names: names)
      source = "\(escaped: names.time) \(text)"
    } else if let text = frame {
      guard let n = try? frameValue(text, names: names), n <= last else {
        throw Refusal(
          message: "\(escaped: names.frame) expects a frame number in 0…\(quoted: last), found '\(quoted: text)'")
      }
      seconds = scene.time(ofFrame: n)
    } else if let text = at {
      switch try atValue(text, names: names) {
      case .percent(let p):
        // The frame nearest that point of the duration; 100% is the last frame (the end instant
        // itself is not a frame).
        seconds = scene.time(ofFrame: min(last, Int((p / 100 * scene.duration * Double(scene.fps)).rounded())))
      case .seconds(let t):
        seconds = t  // checked against the duration below, with the same message as a time
        source = "\(escaped: names.at) \(text)"
      case let parsed:
        do {
          seconds = try parsed.seconds(duration: scene.duration, fps: scene.fps)
        } catch {
          throw Refusal(message: "\(escaped: names.at) \(quoted: text): \(escaped: error)")
        }
        source = "\(escaped: names.at) \(text)"
      }
    }
    if seconds > scene.duration + 1e-9 {
      throw Refusal(
        message: "\(quoted: source) is past the end: the scene lasts \(escaped: Self.text(scene.duration)) s "
          + "(its last frame, \(quoted: last), is at \(escaped: Self.text(scene.time(ofFrame: last))) s)")
    }
    return seconds
  }

  /// Checks the grammar of whichever of `time`, `frame` and `at` are given, without a scene:
  /// what ``seconds(time:frame:at:in:names:)`` refuses before it reads the scene (its numbers are
  /// ``FlickMotion/DecimalText`` numbers, as every number Flick reads).
  package static func check(time: String?, frame: String?, at: String?, names: Names = .options) throws(Refusal) {
    if let time { _ = try timeValue(time, names: names) }
    if let frame { _ = try frameValue(frame, names: names) }
    if let at { _ = try atValue(at, names: names) }
  }

  /// The seconds of `time` (`0.5`, `1.25s`): a number ≥ 0.
  static func timeValue(_ text: String, names: Names) throws(Refusal) -> Double {
    let trimmed = text.hasSuffix("s") ? String(text.dropLast()) : text
    guard let t = DecimalText.optionValue(trimmed), t >= 0 else {
      throw Refusal(
        message: "\(escaped: names.time) expects seconds ≥ 0 such as 0.5 or 1.25s, found '\(quoted: text)'")
    }
    return t
  }

  /// The frame number of `frame`: a whole number ≥ 0.
  static func frameValue(_ text: String, names: Names) throws(Refusal) -> Int {
    guard let v = DecimalText.optionValue(text), v >= 0, v == v.rounded(), v <= Double(Int32.max) else {
      throw Refusal(message: "\(escaped: names.frame) expects a whole frame number ≥ 0, found '\(quoted: text)'")
    }
    return Int(v)
  }

  /// The point `at` names: a percentage (`50%`) or any `snapshot --at` time.
  static func atValue(_ text: String, names: Names) throws(Refusal) -> SnapshotTime {
    if text.hasSuffix("%") {
      guard let p = DecimalText.optionValue(text.dropLast()), (0...100).contains(p) else {
        throw Refusal(
          message: "\(escaped: names.at) expects a percentage of the duration such as 50%, found '\(quoted: text)'")
      }
      return .percent(p)
    }
    do {
      return try SnapshotTime(parsing: text)
    } catch {
      throw Refusal(
        message: "\(escaped: names.at) expects a percentage (50%), seconds (1.2s), 'end' or 'frame:N', found "
          + "'\(quoted: text)'")
    }
  }

  /// Short, exact-enough seconds for messages: `1`, `0.967`.
  package static func text(_ v: Double) -> String {
    let rounded = (v * 1000).rounded() / 1000
    return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
  }
}
