/// When golden images are written instead of (or after) being compared.
///
/// | mode | missing golden | failing golden | matching golden |
/// |---|---|---|---|
/// | `missing` (default) | written, and the check fails: re-run to verify | fails | passes |
/// | `all` | written | rewritten | rewritten |
/// | `failed` | written | rewritten | passes |
/// | `none` (default when `CI` is set) | fails, nothing written | fails | passes |
public enum RecordMode: String, Sendable, Codable, CaseIterable {
  case missing
  case all
  case failed
  case none

  /// The mode to use when none is given: `none` when the environment variable `CI` is set (a
  /// missing golden must fail there, never be quietly created), otherwise `missing`.
  public static func defaultMode(environment: [String: String]) -> RecordMode {
    if let ci = environment["CI"], !ci.isEmpty, ci != "0", ci.lowercased() != "false" { return .none }
    return .missing
  }

  /// Parses a mode name; also accepts `never` (= `none`) and, for environment variables, `1`/`true`
  /// (= `all`).
  public init?(text: String) {
    switch text.lowercased() {
    case "missing": self = .missing
    case "all", "1", "true", "yes": self = .all
    case "failed", "changed": self = .failed
    case "none", "never", "0", "false", "no": self = .none
    default: return nil
    }
  }
}
