import FlickSnapshot
import FlickTemplates

extension Flick.Snapshot {
  /// The options that change the picture as given (`--params=file`, `--set=k=v`, the flag
  /// `--allow-outside-assets`), in a stable order: what a golden's manifest records as its
  /// parameters. Derived from ``Flick/pictureOptions``: the caps (`--timeout`, `--max-pixels`, …)
  /// are limits of the run, not parameters, so running with another limit is not another design.
  static func parameters(_ a: Arguments) -> [String] {
    var out: [String] = []
    for name in Flick.pictureOptions {
      for value in a.all(name) { out.append("--\(name)=\(value)") }
    }
    for name in Flick.templateFlags.sorted() where a.has(name) { out.append("--\(name)") }
    return out
  }

  /// The SHA-256 of `parameters` and the contents of the parameter files `a` gives (a parameter
  /// file's contents are part of the parameters).
  ///
  /// - Throws: exit 2 when a parameter file cannot be read.
  static func parameterHash(_ parameters: [String], _ a: Arguments) throws(CommandError) -> String {
    var bytes = [UInt8](parameters.joined(separator: "\n").utf8)
    for file in a.all("params") {
      do {
        bytes += [0] + (try ParameterValues.readFile(file))
      } catch {
        throw CommandError(message: error.description, code: .invalidInput)
      }
    }
    return SnapshotManifest.hash(bytes)
  }

  /// Whether `parameter`, as a manifest records it (`--timeout=30`), is a cap: Flick before
  /// parameters came from ``Flick/pictureOptions`` alone recorded the template caps too.
  static func isLimit(_ parameter: String) -> Bool {
    Flick.Limits.allCaps.contains { parameter.hasPrefix("--\($0.option)=") }
  }

  /// `manifest` read leniently: the caps an older Flick recorded among its parameters are
  /// dropped, and when what is left are today's parameters and its recorded hash is theirs with
  /// those caps, the hash becomes today's, so goldens made with `--timeout 30` are not another
  /// design than a run without it.
  static func ignoringLimits(_ manifest: SnapshotManifest, _ a: Arguments) throws(CommandError)
    -> SnapshotManifest
  {
    guard manifest.parameters.contains(where: isLimit) else { return manifest }
    var out = manifest
    out.parameters = manifest.parameters.filter { !isLimit($0) }
    if out.parameters == parameters(a), try parameterHash(manifest.parameters, a) == manifest.parameterHash {
      out.parameterHash = try parameterHash(out.parameters, a)
    }
    return out
  }
}
