import FlickMotion
import FlickRaster
import FlickTemplates
import FlickVideo

/// A batch failure with the exit code it stands for, so schedulers can tell a retry that may
/// help (3 environment, 130 interrupted) from one that cannot (2 invalid input).
package enum BatchError: Error, Equatable, CustomStringConvertible {
  /// Bad manifest, plan, parameters or usage: exit 2, never worth a retry.
  case invalidInput(String)
  /// ffmpeg, disk, a missing or stale chunk: exit 3, a retry may help.
  case environment(String)
  /// SIGINT or SIGTERM: exit 130.
  case interrupted(String)

  /// The process exit code.
  package var exitCode: Int32 {
    switch self {
    case .invalidInput: return 2
    case .environment: return 3
    case .interrupted: return 130
    }
  }

  package var description: String {
    switch self {
    case .invalidInput(let m), .environment(let m), .interrupted(let m): return m
    }
  }

  /// Classifies any error from loading or rendering.
  package static func from(_ error: any Error) -> BatchError {
    if Interruption.pendingSignal != 0 {
      return .interrupted("interrupted (signal \(quoted: Interruption.pendingSignal))")
    }
    switch error {
    case let e as BatchError: return e
    case let e as TemplateError: return .invalidInput(e.description)
    case let e as VideoError: return e.isInvalidInput ? .invalidInput(e.description) : .environment(e.description)
    case let e as RasterError: return .environment(e.description)
    default: return .environment("\(escaped: error)")
    }
  }
}
