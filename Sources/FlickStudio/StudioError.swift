import FlickMotion

/// Why the studio cannot start or answer.
package enum StudioError: Error, Equatable, CustomStringConvertible {
  /// libmicrohttpd could not listen on the address.
  case cannotListen(host: String, port: Int, reason: String)
  /// The folder or template to open is not there or not readable.
  case cannotOpen(path: String, reason: String)
  /// inotify could not be set up.
  case cannotWatch(reason: String)
  /// The page's files (``StudioPage``) are in none of the folders `searched`.
  case pageMissing(searched: [String])

  package var description: String {
    switch self {
    case .cannotListen(let host, let port, let reason):
      "cannot listen on \(quoted: host) port \(escaped: port): \(escaped: reason)"
    case .cannotOpen(let path, let reason): "cannot open \(quoted: path): \(escaped: reason)"
    case .cannotWatch(let reason): "cannot watch files for changes: \(escaped: reason)"
    case .pageMissing(let searched):
      "the studio's page is missing: no \(escaped: StudioPage.indexName) in "
        + searched.map { "'\(quoted: $0)'" }.joined(separator: ", ")
        + "; install flick with its \(escaped: StudioPage.bundleName) folder beside it (copy the one `swift build` "
        + "makes beside the binary, such as .build/release/\(escaped: StudioPage.bundleName), into the folder that "
        + "holds flick)"
    }
  }

  /// Whether the cause is the input (a path or an address given) rather than the environment.
  package var isInvalidInput: Bool {
    switch self {
    case .cannotOpen: true
    case .cannotListen(_, _, let reason): reason == "not a numeric IP address"
    case .cannotWatch, .pageMissing: false
    }
  }
}
