import FlickMotion
import Foundation

/// What Flick knows about a Lottie file before handing it to rlottie: its canvas, timing,
/// layers and markers, read from the JSON itself, and the After Effects features it uses that
/// rlottie 0.1 does not draw (so they are reported instead of silently drawn wrong).
///
/// A file is a Lottie file by its content: a JSON object with `layers`, at least three of `v`,
/// `fr`, `ip`, `op`, `w` and `h`, and no `flick` key (whatever its name ends with; see
/// ``isLottie(_:)``).
package struct LottieFile: Sendable, Hashable {
  /// A named point or range of the timeline (After Effects composition markers, `markers`).
  package struct Marker: Sendable, Hashable {
    package var name: String
    /// Start, in the animation's frames counted from its in point.
    package var frame: Double
    /// Length, in frames (0 for a point).
    package var duration: Double
  }

  /// A top-level layer: its name and kind (`shape`, `precomp`, `solid`, `image`, `null`, …).
  package struct LayerSummary: Sendable, Hashable {
    package var name: String
    package var kind: String
  }

  /// The largest Lottie file read, in bytes.
  package static let maximumFileSize = 64 << 20

  /// The file, as given.
  package var path: String
  /// Canvas size in points (`w`, `h`).
  package var size: Size
  /// Frames per second (`fr`); may be fractional, such as 29.97.
  package var frameRate: Double
  /// In and out points, in frames (`ip`, `op`; the out point is exclusive).
  package var inPoint: Double
  package var outPoint: Double
  /// Bodymovin version that wrote the file (`v`).
  package var version: String
  /// Composition name (`nm`), possibly empty.
  package var name: String
  /// The top-level layers, top first as in the file.
  package var layers: [LayerSummary]
  /// Composition markers.
  package var markers: [Marker]
  /// Precomposition assets (`assets` with `layers`).
  package var precompositionCount: Int
  /// Features rlottie 0.1 does not draw, each with where it is (`layers[2] "Title": text layer`).
  package var unsupportedFeatures: [String]
  /// The pixels of every embedded image together (each checked against the pixel cap): what
  /// rlottie decodes when it loads the file (see ``estimatedBytes(drawnPixels:workers:)``).
  package var embeddedImagePixels: Int
  /// The layers and shape items rlottie builds for the file, every repeater copy and
  /// precomposition use counted (at most ``maximumDrawnItems``).
  package var drawnItems: Int

  /// The number of frames rlottie draws: `op − ip` (at least 1).
  package var frameCount: Int { max(1, Int((outPoint - inPoint).rounded(.down))) }
  /// Length in seconds: `frameCount / fr`.
  package var duration: Double { Double(frameCount) / frameRate }

  /// Whether `data` looks like a Lottie file: a JSON object with `layers`, at least three of
  /// `v`, `fr`, `ip`, `op`, `w` and `h`, and no `flick` format version (a template's). Only the
  /// top level is read (``LottieTopLevel``), so a file with a bad number deep inside (`NaN`,
  /// `1e400`) is still a Lottie file, and the Lottie loader says where the number is.
  package static func isLottie(_ data: Data) -> Bool {
    LottieTopLevel.scan(data)?.looksLikeLottie ?? false
  }

  /// Whether `data` is a zip archive: a `.lottie` (dotLottie) file is one.
  static func isZip(_ bytes: some Sequence<UInt8>) -> Bool { bytes.starts(with: [0x50, 0x4B, 0x03, 0x04]) }

  /// Whether the file at `path` is a Lottie file (false when it cannot be read). It is read
  /// once, through ``AssetFile`` (opened non-blocking and checked on the open descriptor, so a
  /// FIFO is refused rather than waited on): whole up to ``maximumFileSize``, else its first
  /// ``sniffBytes`` only. `flick render` and `flick still` read their SOURCE once themselves and
  /// ask ``isLottie(_:path:)`` of those bytes.
  package static func isLottie(path: String) -> Bool {
    guard let head = try? readSource(path) else { return false }
    return isLottie(head, path: path)
  }

  /// Whether a file read with ``readSource(_:)`` (or any ``AssetFile/Head`` of it) is a Lottie
  /// file. A file over the cap is still known by its first bytes, so the Lottie loader refuses it
  /// with the Lottie cap rather than the template loader with the template one.
  package static func isLottie(_ head: AssetFile.Head, path: String) -> Bool {
    if isZip(head.bytes) { return path.lowercased().hasSuffix(".lottie") }
    return head.bytes.withUnsafeBytes { LottieTopLevel.scan($0) }?.looksLikeLottie ?? false
  }

  /// How much of a file over ``maximumFileSize`` is read to tell what it is: 1 MiB (a Lottie
  /// file's header keys come first, before its assets and layers).
  package static let sniffBytes = 1 << 20

  /// The file at `path`, whole when it is at most ``maximumFileSize`` bytes, else its first
  /// ``sniffBytes``: what ``isLottie(_:path:)`` and ``loadChecked(path:head:maximumPixels:)`` take.
  package static func readSource(_ path: String, wholeUpTo cap: Int = maximumFileSize) throws(AssetFile.Problem)
    -> AssetFile.Head
  {
    try AssetFile.read(path, wholeUpTo: cap, headBytes: sniffBytes)
  }

  static let requiredKeys = ["v", "fr", "ip", "op", "w", "h", "layers"]

  /// The pixel cap of ``load(path:maximumPixels:)`` when none is given: 8192 × 8192, as
  /// `--max-pixels`' default.
  package static let defaultMaximumPixels = 8192 * 8192

  /// Reads and inspects the Lottie file at `path`.
  ///
  /// - Parameter maximumPixels: The most pixels the canvas (`w × h`) and each embedded image
  ///   may have (`--max-pixels`).
  /// - Throws: ``LottieFileError`` when the file cannot be read, is not strict JSON (a duplicate
  ///   key, a NUL in a string), lacks Lottie's keys, has values out of range, embeds an image
  ///   that is not a base64 PNG or JPEG or is over the cap, or repeats more than
  ///   ``maximumInstances`` instances. Unsupported features (an external image file among them)
  ///   are not errors here; they are listed in ``unsupportedFeatures`` (``requireSupported()``
  ///   throws for them).
  package static func load(
    path: String, maximumPixels: Int = defaultMaximumPixels
  ) throws(LottieFileError) -> LottieFile {
    try loadChecked(path: path, maximumPixels: maximumPixels).file
  }

  /// ``load(path:maximumPixels:)``, with the JSON rlottie is to be given: the checked document
  /// written back with every image asset embedded and nothing that names a file (see
  /// ``checked(_:path:maximumPixels:)``).
  package static func loadChecked(
    path: String, maximumPixels: Int
  ) throws(LottieFileError) -> (file: LottieFile, json: Data) {
    let bytes: [UInt8]
    do {
      bytes = try AssetFile.read(path, maximumBytes: maximumFileSize, kind: "a Lottie file")
    } catch {
      throw readError(error.cause, path: path)
    }
    return try loadChecked(
      path: path, head: AssetFile.Head(bytes: bytes, size: bytes.count), maximumPixels: maximumPixels)
  }

  /// ``loadChecked(path:maximumPixels:)`` with the file already read once (``readSource(_:wholeUpTo:)``:
  /// `flick render` tells a Lottie file from a template by these bytes); a file over the cap is
  /// refused by its size.
  package static func loadChecked(
    path: String, head: AssetFile.Head, maximumPixels: Int
  ) throws(LottieFileError) -> (file: LottieFile, json: Data) {
    guard head.size <= maximumFileSize else { throw readError(.tooLarge(size: head.size), path: path) }
    guard head.isWhole else { throw readError(.changed, path: path) }
    let bytes = head.bytes
    let data = Data(bytes)
    if isZip(data) {
      throw LottieFileError(
        path: path,
        message: "is a .lottie (dotLottie) archive, which is not supported; unzip it and pass its animations/*.json")
    }
    return try checked(data, path: path, maximumPixels: maximumPixels)
  }

  /// The message for a Lottie file the bounded reader (``AssetFile``) refused.
  static func readError(_ cause: AssetFile.Problem.Cause, path: String) -> LottieFileError {
    let message =
      switch cause {
      case .cannotOpen(errno: ENOENT): "no such file"
      case .notRegular(isFolder: true): "is a folder, not a Lottie file"
      case .notRegular: "is not a regular file (a FIFO or a device), not a Lottie file"
      case .tooLarge(let size): "is \(size >> 20) MiB; Lottie files up to \(maximumFileSize >> 20) MiB are read"
      case .cannotOpen, .changed: "cannot read the file"
      }
    return LottieFileError(path: path, message: message)
  }

  /// Inspects Lottie JSON; `path` names it in errors.
  package static func decode(
    _ data: Data, path: String, maximumPixels: Int = defaultMaximumPixels
  ) throws(LottieFileError) -> LottieFile {
    try checked(data, path: path, maximumPixels: maximumPixels).file
  }

  /// Inspects Lottie JSON and makes the document rlottie is given.
  ///
  /// The bytes are parsed strictly (``LottieJSON``: no duplicate key, no NUL in a string), the
  /// whole numbers that link layers checked (``LottieLayerIntegers``), every
  /// image asset is checked and rewritten (``LottieImageAssets``: a base64 PNG or JPEG within
  /// `maximumPixels`, re-encoded, `u` emptied and `e: 1`; an external file is listed in
  /// ``unsupportedFeatures`` and left unloadable), repeaters and precompositions are counted
  /// (``LottieInstances``), rewritten for rlottie (``LottieRlottieCopy``) and serialised. Everything
  /// else Flick reads is read from that tree, the one serialised, so Flick and rlottie see the same one.
  package static func checked(
    _ data: Data, path: String, maximumPixels: Int
  ) throws(LottieFileError) -> (file: LottieFile, json: Data) {
    let bytes = [UInt8](data)
    // The header first: a file refused for its canvas, timing or layer count costs no parse.
    let header = try checkTopLevel(bytes, path: path, maximumPixels: maximumPixels)
    let tree: LottieJSON
    do {
      tree = try LottieJSON.parse(data)
    } catch {
      let message =
        error.isSyntax
        ? "is not a Lottie file: not valid JSON (\(error.path): \(error.message))" : "\(error.path): \(error.message)"
      throw LottieFileError(path: path, line: error.line, column: error.column, message: message)
    }
    guard tree.members != nil else {
      throw LottieFileError(path: path, message: "is not a Lottie file: the JSON is not an object")
    }
    try LottieLayerIntegers.check(tree, bytes: bytes, path: path)
    let images = try LottieImageAssets.rewrite(tree, bytes: bytes, path: path, maximumPixels: maximumPixels)
    let items = try LottieInstances.check(images.document, bytes: bytes, path: path)
    guard let header else {
      throw LottieFileError(path: path, message: "is not a Lottie file: the JSON is not an object")
    }
    let document = LottieRlottieCopy.rewrite(images.document)
    let json = document.serialized()
    var file = try inspect(document, path: path, header: header)
    file.embeddedImagePixels = images.pixels
    file.drawnItems = items
    return (file, json)
  }

  /// Throws when the file uses features rlottie 0.1 does not draw.
  package func requireSupported() throws(LottieFileError) {
    guard !unsupportedFeatures.isEmpty else { return }
    let shown = unsupportedFeatures.prefix(8)
    let more = unsupportedFeatures.count > shown.count ? "; and \(unsupportedFeatures.count - shown.count) more" : ""
    throw LottieFileError(
      path: path,
      message: "uses features rlottie 0.1 does not draw (it would render wrong): "
        + shown.joined(separator: "; ") + more + " (see docs/lottie.md)")
  }
}

/// A Lottie file that cannot be used: which file, where in it when known, and why.
package struct LottieFileError: Error, Equatable, CustomStringConvertible {
  package var path: String
  /// 1-based line and column in the file (nil when the problem is the whole file's).
  package var line: Int?
  package var column: Int?
  /// What is wrong; for a located problem it starts with the JSON path (`assets[0].p: …`).
  package var message: String

  package init(path: String, line: Int? = nil, column: Int? = nil, message: String) {
    self.path = path
    self.line = line
    self.column = column
    self.message = message
  }

  /// `LINE:COL: ` for a located problem, else empty.
  package var location: String {
    guard let line, let column else { return "" }
    return "\(line):\(column): "
  }

  /// `Lottie file PATH:LINE:COL: json.path: message`, or `Lottie file PATH: message`.
  package var description: String {
    guard let line, let column else { return "Lottie file \(quoted: path): \(escaped: message)" }
    return "Lottie file \(quoted: path):\(line):\(column): \(escaped: message)"
  }
}
