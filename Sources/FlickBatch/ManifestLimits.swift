import FlickTemplates

/// Caps on what one manifest may make `flick plan`, `run` and `merge` read and expand, checked
/// while it is read so a hostile manifest is refused with a located error (exit 2) before it can
/// exhaust memory or time. The defaults are far above what a real batch needs and are stated in
/// `flick plan --help`, `docs/scale-out.md` and `docs/security.md`.
package struct ManifestLimits: Sendable, Equatable {
  /// The largest manifest file, in bytes (default 4 MiB).
  package var manifestBytes = 4 << 20
  /// The largest data (CSV, JSON5) or params file, in bytes (default 16 MiB, the cap of
  /// `--params`: ``FlickTemplates/ParameterValues/maximumFileBytes``).
  package var dataBytes = ParameterValues.maximumFileBytes
  /// The most rows of one CSV file, header included (default 10,001).
  package var csvRows = 10_001
  /// The most fields of one CSV row (default 256).
  package var csvColumns = 256
  /// The longest CSV field, in characters (default 10,000, the longest text layer string).
  package var csvFieldCharacters = 10_000
  /// The longest parameter name in a CSV header or data file, in characters (default 100).
  package var parameterNameCharacters = 100
  /// The most variants of the whole manifest, summed over its renders (default 10,000).
  package var variants = 10_000
  /// The most jobs (renders and chunks) the manifest may expand into (default 100,000).
  package var jobs = 100_000
  /// The most template bytes planning may load, summed over every variant (each loads its
  /// template once; default 256 MiB: a 10 KB template 25,000 times).
  package var loadedTemplateBytes = 256 << 20
  /// The longest render or variant name, in characters (default 100).
  package var nameCharacters = 100

  package init() {}
}
