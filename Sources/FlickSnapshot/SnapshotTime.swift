import FlickMotion
import FlickScene
import Foundation

/// A point in a scene to snapshot, as written on the command line or in tests.
///
/// | text | meaning |
/// |---|---|
/// | `0`, `1.5`, `1.2s` | scene time in seconds (a bare number is seconds) |
/// | `25%` | that fraction of the duration; `100%` is the duration itself (the settled state) |
/// | `end` | the last frame a video shows: frame `frameCount − 1` |
/// | `frame:30` | frame 30, at `30 / fps` seconds |
///
/// Numbers are ``FlickMotion/DecimalText`` numbers, as every number Flick reads (not `0x10`,
/// `nan` or `inf`); spaces around an item of a list are allowed.
///
/// ```swift
/// let times = try SnapshotTime.list("0,25%,end,frame:30")
/// let t = try times[1].seconds(duration: 3, fps: 30)  // 0.75
/// ```
public enum SnapshotTime: Hashable, Sendable, Codable, CustomStringConvertible {
  /// Scene time in seconds (≥ 0).
  case seconds(Double)
  /// A percentage of the duration (0…100).
  case percent(Double)
  /// The last frame.
  case end
  /// A frame index (≥ 0).
  case frame(Int)

  /// The default set: the start, each quarter and the end state.
  public static let quarters: [SnapshotTime] = [.percent(0), .percent(25), .percent(50), .percent(75), .percent(100)]

  /// Every frame of a scene of `duration` seconds at `fps`: `frame:0` … `frame:N−1` (what
  /// `--at all` means).
  public static func everyFrame(duration: Double, fps: Int) -> [SnapshotTime] {
    let frameCount = Scene.frameCount(duration: duration, fps: fps)
    return (0..<frameCount).map { .frame($0) }
  }

  /// Whether `text` is `all` (every frame), which only a scene can expand (``everyFrame(duration:fps:)``).
  public static func isEveryFrame(_ text: String) -> Bool {
    text.trimmingCharacters(in: .whitespaces).lowercased() == "all"
  }

  /// Parses one time.
  ///
  /// - Throws: ``SnapshotError/invalidTime(_:reason:)``.
  public init(parsing text: String) throws(SnapshotError) {
    let s = text.trimmingCharacters(in: .whitespaces).lowercased()
    let expected = "expected seconds (1.2s), a percentage (25%), 'end' or 'frame:N'"
    if s == "end" {
      self = .end
    } else if s.hasPrefix("frame:") {
      guard let n = DecimalText.optionValue(s.dropFirst(6)), n >= 0, n == n.rounded(), n <= Double(Int32.max) else {
        throw .invalidTime(text, reason: "frame:N needs a whole frame number ≥ 0")
      }
      self = .frame(Int(n))
    } else if s.hasSuffix("%") {
      guard let p = DecimalText.optionValue(s.dropLast()), (0...100).contains(p) else {
        throw .invalidTime(text, reason: "a percentage must be 0…100")
      }
      self = .percent(p)
    } else {
      let number = s.hasSuffix("s") ? String(s.dropLast()) : s
      guard let v = DecimalText.optionValue(number) else { throw .invalidTime(text, reason: expected) }
      guard v >= 0 else { throw .invalidTime(text, reason: "seconds must be ≥ 0") }
      self = .seconds(v)
    }
  }

  /// Parses a comma-separated list such as `0,25%,50%,75%,end,1.2s,frame:30`.
  ///
  /// - Throws: ``SnapshotError/invalidTime(_:reason:)`` for an empty list, a bad item or a repeat.
  public static func list(_ text: String) throws(SnapshotError) -> [SnapshotTime] {
    var out: [SnapshotTime] = []
    for item in text.split(separator: ",", omittingEmptySubsequences: false) {
      let time = try SnapshotTime(parsing: String(item))
      guard !out.contains(where: { $0.label == time.label }) else {
        throw .invalidTime(String(item), reason: "listed twice")
      }
      out.append(time)
    }
    guard !out.isEmpty else { throw .invalidTime(text, reason: "no times given") }
    return out
  }

  /// The scene time in seconds for a scene of `duration` seconds at `fps`.
  ///
  /// - Throws: ``SnapshotError/invalidTime(_:reason:)`` when the time lies after the end, or is
  ///   one ``init(parsing:)`` refuses (negative seconds or frame, a percentage outside 0…100).
  public func seconds(duration: Double, fps: Int) throws(SnapshotError) -> Double {
    let frameCount = Scene.frameCount(duration: duration, fps: fps)
    switch self {
    case .seconds(let s):
      guard s.isFinite, s >= 0 else { throw .invalidTime(description, reason: "seconds must be ≥ 0") }
      guard s <= duration + 1e-9 else {
        throw .invalidTime(description, reason: "after the end of the scene (duration \(Self.format(duration))s)")
      }
      return s
    case .percent(let p):
      guard p.isFinite, (0...100).contains(p) else {
        throw .invalidTime(description, reason: "a percentage must be 0…100")
      }
      return duration * p / 100
    case .end:
      return Double(frameCount - 1) / Double(fps)
    case .frame(let n):
      guard n >= 0 else { throw .invalidTime(description, reason: "frame:N needs a whole frame number ≥ 0") }
      guard n < frameCount else {
        throw .invalidTime(description, reason: "the scene has \(frameCount) frames (0…\(frameCount - 1))")
      }
      return Double(n) / Double(fps)
    }
  }

  /// The text form, which ``init(parsing:)`` reads back.
  public var description: String {
    switch self {
    case .seconds(let s): return "\(Self.format(s))s"
    case .percent(let p): return "\(Self.format(p))%"
    case .end: return "end"
    case .frame(let n): return "frame:\(n)"
    }
  }

  /// A file-name-safe label: `1.2s`, `25pct`, `end`, `frame30`.
  public var label: String {
    switch self {
    case .seconds(let s): return "\(Self.format(s))s"
    case .percent(let p): return "\(Self.format(p))pct"
    case .end: return "end"
    case .frame(let n): return "frame\(n)"
    }
  }

  /// Reads a ``label`` back (used to find the time a golden file belongs to).
  public init?(label: String) {
    if label == "end" {
      self = .end
    } else if label.hasPrefix("frame"), let n = DecimalText.optionValue(label.dropFirst(5)), n >= 0, n == n.rounded(),
      n <= Double(Int32.max)
    {
      self = .frame(Int(n))
    } else if label.hasSuffix("pct"), let p = DecimalText.optionValue(label.dropLast(3)), (0...100).contains(p) {
      self = .percent(p)
    } else if label.hasSuffix("s"), let s = DecimalText.optionValue(label.dropLast()), s >= 0 {
      self = .seconds(s)
    } else {
      return nil
    }
  }

  // MARK: - Codable as text

  public init(from decoder: Decoder) throws {
    let text = try decoder.singleValueContainer().decode(String.self)
    do {
      self = try SnapshotTime(parsing: text)
    } catch {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(
          codingPath: decoder.codingPath, debugDescription: error.description,
          underlyingError: DecodingProblem.ExpectedForm(
            "seconds (1.2s), a percentage (0…100%), 'end' or 'frame:N'")))
    }
  }

  public func encode(to encoder: Encoder) throws {
    var c = encoder.singleValueContainer()
    try c.encode(description)
  }

  static func format(_ v: Double) -> String {
    v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v)
  }
}
