/// The outcome of checking one rendered frame against its golden image.
public struct FrameVerdict: Sendable {
  /// What happened. Only ``match`` lets a run pass; every other status fails it.
  public enum Status: String, Sendable, Codable, CaseIterable {
    /// The frame matches its golden (exactly, or within the perceptual tolerance when the golden
    /// comes from another renderer).
    case match
    /// The frame differs from its golden.
    case changed
    /// The frame and its golden have different sizes; no pixel was compared.
    case sizeMismatch
    /// There is no golden and none was written.
    case missing
    /// The golden (or the other image) does not decode: corrupt, truncated, over the decode
    /// limits, or unreadable. Never a pass, whichever side it is on.
    case unreadable
    /// A golden was written on request (record mode); the run fails until a run without
    /// recording verifies it.
    case recorded
    /// The frame could not be rendered (or written).
    case error
    /// A golden file (a PNG, or the motion golden) in the goldens folder that the manifest does
    /// not list: nothing checks it, so it fails the run until it is listed or deleted.
    case unlisted
  }

  /// A short name: the time label (`25pct`, `end`).
  public var name: String
  /// The time as written (`25%`, `end`).
  public var time: String
  /// The scene time in seconds, when it was resolved.
  public var seconds: Double?
  /// The golden image's path.
  public var goldenPath: String
  /// What happened.
  public var status: Status
  /// The comparison, when one ran.
  public var comparison: ImageComparison?
  /// A one-line explanation.
  public var message: String
  /// Files written to explain a failure (report-relative or absolute paths), by kind:
  /// `expected`, `actual`, `diff`, `sideBySide`, `zoom`, `flicker`.
  public var artifacts: [String: String] = [:]
  /// When the golden came from another renderer and was re-rendered from its stored inputs: how
  /// far the recorded golden is from the re-rendered one (the renderer's drift, not a failure).
  package var rendererDrift: RendererDrift?

  public init(
    name: String, time: String, seconds: Double?, goldenPath: String, status: Status,
    comparison: ImageComparison? = nil, message: String
  ) {
    self.name = name
    self.time = time
    self.seconds = seconds
    self.goldenPath = goldenPath
    self.status = status
    self.comparison = comparison
    self.message = message
  }

  /// Whether this frame lets the run pass (only a match does).
  public var isPass: Bool { status == .match }

  /// Whether the comparison could not run (an infrastructure problem: exit 3).
  public var isError: Bool { status == .unreadable || status == .error }

  /// The status of a comparison that ran.
  public static func status(for comparison: ImageComparison) -> Status {
    if comparison.passed { return .match }
    return comparison.verdict == .sizeMismatch ? .sizeMismatch : .changed
  }
}
