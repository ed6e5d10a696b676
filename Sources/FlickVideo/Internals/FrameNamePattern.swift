/// The file-name pattern of a PNG sequence: a directory, a prefix, a zero-padded frame number
/// and a suffix (`frames/shot-%04d.png` → `frames`, `shot-`, 4, `.png`).
struct FrameNamePattern: Equatable, Sendable {
  /// The folder the frames go into (`.` when the pattern has none).
  var directory: String
  /// Text before the frame number.
  var prefix: String
  /// Minimum digits of the frame number (zero-padded), or nil for "enough for the last frame,
  /// at least 4".
  var digits: Int?
  /// Text after the frame number.
  var suffix: String

  /// Parses `path`: either a folder (`frames/`) or a pattern with exactly one `%d` / `%0Nd`.
  init?(_ path: String) {
    if path.hasSuffix("/") {
      var dir = path
      while dir.count > 1 && dir.hasSuffix("/") { dir.removeLast() }
      self.init(directory: dir, prefix: "", digits: nil, suffix: ".png")
      return
    }
    let slash = path.lastIndex(of: "/")
    let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
    let dir = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
    guard let percent = name.firstIndex(of: "%") else { return nil }
    var i = name.index(after: percent)
    var widthText = ""
    while i < name.endIndex, name[i].isNumber {
      widthText.append(name[i])
      i = name.index(after: i)
    }
    guard i < name.endIndex, name[i] == "d" else { return nil }
    let suffix = String(name[name.index(after: i)...])
    guard !suffix.contains("%"), suffix.lowercased().hasSuffix(".png") else { return nil }
    var digits = 1
    if !widthText.isEmpty {
      // `%04d` pads with zeros; `%4d` would pad with spaces, which makes poor file names.
      guard widthText.hasPrefix("0"), let w = Int(widthText), (1...12).contains(w) else { return nil }
      digits = w
    }
    self.init(directory: dir, prefix: String(name[..<percent]), digits: digits, suffix: suffix)
  }

  init(directory: String, prefix: String, digits: Int?, suffix: String) {
    self.directory = directory
    self.prefix = prefix
    self.digits = digits
    self.suffix = suffix
  }

  /// The file name (without folder) of frame `index`, padded for a sequence whose last index is
  /// `lastIndex`.
  func fileName(_ index: Int, lastIndex: Int) -> String {
    let width = digits ?? max(4, String(lastIndex).count)
    let number = String(index)
    let padding = String(repeating: "0", count: max(0, width - number.count))
    return prefix + padding + number + suffix
  }
}
