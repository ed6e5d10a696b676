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
  /// file's contents are part of the parameters; ``FlickSnapshot/SnapshotManifest/parameterHash(_:files:)``).
  ///
  /// - Throws: exit 2 when a parameter file cannot be read.
  static func parameterHash(_ parameters: [String], _ a: Arguments) throws(CommandError) -> String {
    var files: [[UInt8]] = []
    for file in a.all("params") {
      do {
        files.append(try ParameterValues.readFile(file))
      } catch {
        throw CommandError(message: error.description, code: .invalidInput)
      }
    }
    return SnapshotManifest.parameterHash(parameters, files: files)
  }

  /// Every cap's option: limits of a run, which a golden's manifest does not record as
  /// parameters (and ignores where an older Flick recorded them).
  static let capOptions = Flick.Limits.allCaps.map(\.option)

  /// `manifest` read leniently (``FlickSnapshot/SnapshotManifest/ignoringLimits(caps:current:hash:)``,
  /// which `flick accept` reads the goldens' manifest with too): the caps an older Flick recorded
  /// among its parameters are dropped, and the hash becomes today's when the rest are `a`'s.
  static func ignoringLimits(_ manifest: SnapshotManifest, _ a: Arguments) throws(CommandError)
    -> SnapshotManifest
  {
    try manifest.ignoringLimits(caps: capOptions, current: parameters(a)) { (list) throws(CommandError) in
      try parameterHash(list, a)
    }
  }
}
