import FlickMotion
/// Why a snapshot operation could not run. None of these is ever treated as a match.
public enum SnapshotError: Error, Equatable, CustomStringConvertible {
  /// A snapshot time such as `25%`, `1.2s`, `end` or `frame:30` did not parse or lies outside the
  /// scene (invalid input).
  case invalidTime(String, reason: String)
  /// An image could not be read, is not a PNG or is corrupt (infrastructure).
  case unreadableImage(path: String, reason: String)
  /// A file or directory could not be written (infrastructure).
  case unwritableFile(path: String, reason: String)
  /// A manifest exists but cannot be used (invalid input).
  case invalidManifest(path: String, reason: String)
  /// Rendering a frame failed (infrastructure).
  case renderFailed(String)
  /// A path read from a manifest, report or template leaves its folder, or a folder holds files
  /// Flick did not write there (invalid input: nothing was touched).
  case unsafePath(String, reason: String)
  /// An input stored beside the goldens (template, asset, font, parameter file) is missing or
  /// does not have the SHA-256 the manifest gives (infrastructure: the goldens are damaged).
  case damagedInput(path: String, reason: String)

  /// Whether the fault lies with the input (exit code 2) rather than the environment (exit 3).
  package var isInvalidInput: Bool {
    switch self {
    case .invalidTime, .invalidManifest, .unsafePath: return true
    case .unreadableImage, .unwritableFile, .renderFailed, .damagedInput: return false
    }
  }

  public var description: String {
    switch self {
    case .invalidTime(let text, let reason): return "invalid snapshot time '\(quoted: text)': \(escaped: reason)"
    case .unreadableImage(let path, let reason): return "cannot read image \(quoted: path): \(escaped: reason)"
    case .unwritableFile(let path, let reason): return "cannot write \(quoted: path): \(escaped: reason)"
    case .invalidManifest(let path, let reason): return "invalid snapshot manifest \(quoted: path): \(escaped: reason)"
    case .renderFailed(let reason): return "rendering failed: \(escaped: reason)"
    case .unsafePath(let what, let reason): return "refusing \(quoted: what): \(escaped: reason); nothing was changed"
    case .damagedInput(let path, let reason): return "damaged golden input \(quoted: path): \(escaped: reason)"
    }
  }
}
