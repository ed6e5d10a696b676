import Foundation

extension SnapshotManifest {
  /// Whether `parameter`, as a manifest records it (`--timeout=30`), sets one of `caps` (option
  /// names without their dashes: `timeout`, `max-pixels`): Flick before a manifest's parameters
  /// came from the picture options alone recorded the template caps among them too.
  package static func isLimit(_ parameter: String, caps: [String]) -> Bool {
    caps.contains { parameter.hasPrefix("--\($0)=") }
  }

  /// The SHA-256 a manifest records as its ``parameterHash``: of `parameters` (one a line) and,
  /// after a zero byte each, the contents of its parameter files (`--params`) in order.
  package static func parameterHash(_ parameters: [String], files: [[UInt8]]) -> String {
    var bytes = [UInt8](parameters.joined(separator: "\n").utf8)
    for file in files { bytes += [0] + file }
    return hash(bytes)
  }

  /// This manifest read leniently, as `flick verify` and `flick accept` read the goldens'
  /// manifest: the caps (`caps`, ``isLimit(_:caps:)``) an older Flick recorded among the
  /// parameters are dropped, and when what is left are the `current` parameters and the recorded
  /// hash is theirs with those caps, the hash becomes the `current` parameters', so goldens made
  /// with `--timeout 30` are not another design than a run without it.
  ///
  /// - Parameters:
  ///   - caps: Every cap's option name (limits of a run, never parameters of a picture).
  ///   - current: The parameters the manifest is compared with (a command line's, or the
  ///     verification report's manifest's).
  ///   - hash: The parameter hash of a list of parameters with the manifest's parameter files
  ///     (``parameterHash(_:files:)``), or nil when those files are not at hand: the hash then
  ///     stays as recorded.
  package func ignoringLimits<E: Error>(
    caps: [String], current: [String], hash: ([String]) throws(E) -> String?
  ) throws(E) -> SnapshotManifest {
    guard parameters.contains(where: { Self.isLimit($0, caps: caps) }) else { return self }
    var out = self
    out.parameters = parameters.filter { !Self.isLimit($0, caps: caps) }
    if out.parameters == current, let recorded = try hash(parameters), recorded == parameterHash,
      let now = try hash(out.parameters)
    {
      out.parameterHash = now
    }
    return out
  }
}
