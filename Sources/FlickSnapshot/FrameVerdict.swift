/// The outcome of checking one rendered frame against its golden image.
public struct FrameVerdict: Sendable {
  /// What happened.
  public enum Status: String, Sendable, Codable {
    /// The frame matches its golden.
    case passed
    /// The frame differs from its golden beyond the tolerance.
    case failed
    /// There is no golden and none was written (record mode `none`).
    case missing
    /// There was no golden; one was written and the check fails until it is verified.
    case recorded
    /// The golden was (re)written on request (record mode `all` or `failed`).
    case updated
    /// The comparison could not run (unreadable golden, render failure, disk); never a pass.
    case error
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
  /// `expected`, `actual`, `diff`, `sideBySide`, `flicker`.
  public var artifacts: [String: String] = [:]

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

  /// Whether this frame lets the run pass.
  public var isPass: Bool { status == .passed || status == .updated }
}
