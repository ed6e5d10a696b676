import FlickMotion

/// Why the studio cannot start or answer.
package enum StudioError: Error, Equatable, CustomStringConvertible {
  /// libmicrohttpd could not listen on the address.
  case cannotListen(host: String, port: Int, reason: String)
  /// The folder or template to open is not there or not readable.
  case cannotOpen(path: String, reason: String)
  /// inotify could not be set up.
  case cannotWatch(reason: String)

  package var description: String {
    switch self {
    case .cannotListen(let host, let port, let reason):
      "cannot listen on \(quoted: host) port \(escaped: port): \(escaped: reason)"
    case .cannotOpen(let path, let reason): "cannot open \(quoted: path): \(escaped: reason)"
    case .cannotWatch(let reason): "cannot watch files for changes: \(escaped: reason)"
    }
  }

  /// Whether the cause is the input (a path or an address given) rather than the environment.
  package var isInvalidInput: Bool {
    switch self {
    case .cannotOpen: true
    case .cannotListen(_, _, let reason): reason == "not a numeric IP address"
    case .cannotWatch: false
    }
  }
}
