/// A file format Flick can write, chosen from the output path's extension.
public enum OutputFormat: String, Sendable, CaseIterable {
  /// H.264 in MP4, `yuv420p`, BT.709.
  case mp4
  /// Animated GIF with a palette computed from the frames.
  case gif

  /// The format for `path`'s extension (case-insensitive), or nil if Flick does not write it.
  public init?(path: String) {
    guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
    self.init(rawValue: path[path.index(after: dot)...].lowercased())
  }

  /// The extensions users can give, for messages.
  public static var supportedExtensions: String {
    allCases.map { "." + $0.rawValue }.joined(separator: ", ")
  }
}
