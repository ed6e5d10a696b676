/// One requested output: where it goes and in which format.
public struct OutputTarget: Sendable, Equatable {
  /// The destination as given: a file, a folder ending in `/`, or a `%04d` pattern.
  public var path: String
  /// The format written there.
  public var format: OutputFormat

  /// An output whose format follows from `path`.
  ///
  /// - Throws: ``VideoError/unsupportedFormat(path:)`` when the path names no known format.
  public init(path: String) throws(VideoError) {
    guard let format = OutputFormat(path: path) else { throw .unsupportedFormat(path: path) }
    self.init(path: path, format: format)
  }

  /// An output with an explicit format (`--format`); a PNG sequence given a plain path
  /// (`frames`) treats it as a folder.
  public init(path: String, format: OutputFormat) {
    if format == .png && OutputFormat(path: path) != .png {
      self.path = path + "/"
    } else {
      self.path = path
    }
    self.format = format
  }
}
